import { describe, expect, it } from 'vitest';
import {
  firstMatch,
  formatPromptSnippets,
  formatSnippetLine,
  PROMPT_CONTEXT_HEADER,
  plainField,
  sharesTopic,
  snippetAround,
} from './prompt-snippets.js';

const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `w${from + i}`).join(' ');

describe('prompt snippets (issue 22 item 5)', () => {
  it('finds a word at the start of a word, its ending free, in any case; -1 when absent', () => {
    expect(firstMatch('The CLI declares its flags', ['declared'])).toBe(8);
    // Not inside a word.
    expect(firstMatch('undeclared flags', ['declared'])).toBe(-1);
    expect(firstMatch('undeclared flags, declared', ['declared'])).toBe(18);
    expect(firstMatch('Über die Flags', ['über'])).toBe(0);
    expect(firstMatch('nothing here', ['flags', 'cli'])).toBe(-1);
    // Short words are not looked for.
    expect(firstMatch('an apple', ['an'])).toBe(-1);
  });

  it('keeps a short text whole, on one line, without escaping', () => {
    expect(snippetAround("Don't use <b>\n\tnpm</b> & yarn", ['npm'])).toBe("Don't use <b> npm</b> & yarn");
    expect(plainField('a\u0000b\u2028c')).toBe('a b c');
  });

  it('cuts a long text around the first matched word, at spaces, within the limit, marking what it left out', () => {
    const text = `${words(60)} rotation of the certificates ${words(60, 100)}`;
    const s = snippetAround(text, ['certificates'], 120);
    expect(s.length).toBeLessThanOrEqual(120);
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s).toContain('rotation of the certificates');
    expect(
      s
        .slice(1, -1)
        .split(' ')
        .every((w) => text.split(' ').includes(w)),
    ).toBe(true);
    // No word matched: the start of the text.
    const start = snippetAround(text, ['zebra'], 120);
    expect(start.startsWith('w0 w1')).toBe(true);
    expect(start.endsWith('…')).toBe(true);
  });

  it('for any text and limit, a snippet stays within the limit and holds only words of the text', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let round = 0; round < 200; round += 1) {
      const text = Array.from({ length: next() % 80 }, () => 'abcdefghij'.slice(0, 1 + (next() % 10))).join(' ');
      const max = 20 + (next() % 200);
      const s = snippetAround(text, ['abc', 'abcdefg'], max);
      expect(s.length).toBeLessThanOrEqual(max);
      for (const w of s
        .replace(/…/g, ' ')
        .split(' ')
        .filter((x) => x !== ''))
        expect(text.split(' ')).toContain(w);
    }
  });

  it('formats one line a memory, with category, label, path and snippet; nothing for no memory', () => {
    expect(
      formatSnippetLine(
        {
          category: 'decision',
          title: 'Flags',
          text: 'Every flag is a commander option',
          path: 'src/cli.ts',
          label: 'high',
        },
        ['flag'],
      ),
    ).toBe('- [DECISION, high] Flags (src/cli.ts): Every flag is a commander option');
    expect(formatSnippetLine({ category: 'note', title: 'Same text', text: 'Same text', label: 'medium' }, [])).toBe(
      '- [NOTE, medium] Same text',
    );
    expect(formatPromptSnippets([], ['x'])).toBe('');
    expect(formatPromptSnippets([{ category: 'note', title: 'T', text: '', label: 'high' }], []).split('\n')).toEqual([
      PROMPT_CONTEXT_HEADER,
      '- [NOTE, high] T',
    ]);
  });

  it("says a skill's rule once when its description is that rule (walk 17, item 8)", () => {
    const rule = "No, don't use npm here — we always use pnpm";
    const skill = { category: 'skill', title: 'pnpm', text: `${rule}\n${rule}`, label: 'medium' as const };
    expect(formatSnippetLine(skill, ['npm'])).toBe(`- [SKILL, medium] pnpm: ${rule}`);
    const two = { ...skill, text: `${rule}\n${rule}\nLockfiles are committed` };
    expect(formatSnippetLine(two, [])).toBe(`- [SKILL, medium] pnpm: ${rule} Lockfiles are committed`);
  });

  it('finds the topic in another form of a word, by its Porter stem, not by a generic word (review G, item 4)', () => {
    const skill = 'Always deploy with the staging config first';
    expect(sharesTopic('How are we deploying this?', skill)).toBe(true);
    expect(sharesTopic('deployment steps?', skill)).toBe(true);
    expect(sharesTopic('testing the login flow', 'Run the tests before a push')).toBe(true);
    expect(sharesTopic('Can you use a Map here?', 'Always use pnpm here')).toBe(false);
    expect(sharesTopic('are you using it here?', 'Always use pnpm here')).toBe(false);
    expect(sharesTopic('the settings page', 'Always set the flag first')).toBe(false);
  });
});
