import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { isValidSkillName, slugify } from './slug.js';

describe('slugify', () => {
  it('turns a habit into lowercase words joined by hyphens', () => {
    expect(slugify('Use camelCase for variables')).toBe('use-camelcase-for-variables');
    expect(slugify('  Tests run before commit -- CI green!  ')).toBe('tests-run-before-commit-ci-green');
    expect(slugify('snake_case → camelCase')).toBe('snake-case-camelcase');
  });

  it('folds accents so the seed French examples keep their words', () => {
    expect(slugify('Préférence pour commits atomiques')).toBe('preference-pour-commits-atomiques');
    expect(slugify('Tests exécutés avant commit')).toBe('tests-executes-avant-commit');
    expect(slugify('Straße Œuvre')).toBe('strasse-oeuvre');
  });

  it('drops words holding a reserved word (anthropic, claude)', () => {
    expect(slugify('Configure Claude Code hooks')).toBe('configure-code-hooks');
    expect(slugify('ClaudeMD and anthropic-sdk')).toBe('and-sdk');
  });

  it('falls back to the given prefix and a hash when nothing usable is left', () => {
    const a = slugify('日本語のテキスト', { fallback: 'instinct' });
    expect(a).toMatch(/^instinct-[0-9a-f]{8}$/);
    expect(slugify('日本語のテキスト', { fallback: 'instinct' })).toBe(a);
    expect(slugify('Ελληνικά')).toMatch(/^skill-[0-9a-f]{8}$/);
    expect(slugify('')).toMatch(/^skill-[0-9a-f]{8}$/);
    expect(slugify('claude')).toMatch(/^skill-[0-9a-f]{8}$/);
    expect(slugify('!!!')).not.toBe(slugify('???'));
  });

  it('cuts a long text at a word boundary and adds a hash of the whole text', () => {
    const long = 'always run the whole test suite before every single commit and push to the main branch';
    const slug = slugify(long);
    expect(slug.length).toBeLessThanOrEqual(64);
    expect(slug).toMatch(/^always-run-the-whole-test-suite-before-every-single-[0-9a-f]{8}$/);
    const other = slugify(`${long} please`);
    expect(other).not.toBe(slug);
    expect(other.slice(0, -8)).toBe(slug.slice(0, -8));
  });

  it('respects a smaller maxLength and refuses bad options', () => {
    expect(slugify('one two three four five six seven', { maxLength: 20 }).length).toBeLessThanOrEqual(20);
    expect(codeOf(() => slugify('x', { maxLength: 65 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => slugify('x', { maxLength: 8 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => slugify('x', { fallback: 'Bad Prefix' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => slugify(42 as unknown as string))).toBe('INVALID_INPUT');
  });

  it('always gives a valid skill name, the same for the same text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const slug = slugify(text);
        return isValidSkillName(slug) && slugify(text) === slug;
      }),
    );
  });
});

describe('isValidSkillName', () => {
  it('accepts the Agent Skills name form and nothing else', () => {
    for (const name of ['pdf-processing', 'a', '1password', 'x'.repeat(64)]) expect(isValidSkillName(name)).toBe(true);
    for (const name of [
      '',
      'PDF-Processing',
      '-pdf',
      'pdf-',
      'pdf--processing',
      'pdf_processing',
      'pdf processing',
      'x'.repeat(65),
      'my-claude-skill',
      'anthropic',
      '../x',
      'é',
    ]) {
      expect(isValidSkillName(name)).toBe(false);
    }
  });
});
