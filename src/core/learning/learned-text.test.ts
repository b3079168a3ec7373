import { describe, expect, it } from 'vitest';
import { learnedFileText } from './learned-text.js';

describe('learnedFileText', () => {
  it('drops the front matter and the section markers, keeping the body', () => {
    const file =
      '---\nname: indent-tabs\ndescription: "Always indent with tabs, not spaces"\n---\n\n' +
      '<!-- credence:begin (written by credence evolve: edits between these markers are replaced) -->\n' +
      '# Indent tabs\n\nAlways indent with tabs, not spaces\n\n## Rules\n\n- Always indent with tabs\n\n' +
      '<!-- credence:end -->\n';
    const text = learnedFileText(file);
    expect(text.startsWith('# Indent tabs')).toBe(true);
    expect(text).not.toMatch(/credence:|^---|name: indent-tabs/m);
    expect(text).toContain('- Always indent with tabs');
  });

  it("keeps a hand-written skill's description when its body does not say it, and a plain file as it is", () => {
    const file =
      "---\nname: code-style\ndescription: 'How we write code here.'\n---\n# Code style\n\n- Keep files short\n";
    expect(learnedFileText(file)).toBe('How we write code here.\n\n# Code style\n\n- Keep files short');
    expect(learnedFileText('# Notes\n\n---\ntext')).toBe('# Notes\n\n---\ntext');
  });

  it('reads a block description, an escaped quote and a file opening with a byte-order mark', () => {
    const folded = '---\nname: deploy\ndescription: >-\n  How we deploy.\n  Use before a release.\n---\n# Deploy\n';
    expect(learnedFileText(folded)).toBe('How we deploy. Use before a release.\n\n# Deploy');
    const escaped = '---\ndescription: "Use \\"pnpm install\\" here"\n---\n# Pnpm\n\nUse "pnpm install" here\n';
    expect(learnedFileText(escaped)).toBe('# Pnpm\n\nUse "pnpm install" here');
    expect(learnedFileText('\uFEFF---\nname: x\n---\n# X\n')).toBe('# X');
  });
});
