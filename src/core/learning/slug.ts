/**
 * @module core/learning/slug
 * File names for learned instincts and skills (SPEC §6): `instincts/<slug>.md` and
 * `skills/<name>/SKILL.md`. A slug follows the Agent Skills name rules (agentskills.io/specification
 * and Anthropic's overview: 1–64 of `[a-z0-9-]`, no leading, trailing or double hyphen, no reserved
 * word 'anthropic' or 'claude'), so a promoted instinct keeps its slug. `slugify` never returns an
 * invalid name: accents folded, other runs become one hyphen, reserved words dropped, a long text cut
 * at a word boundary plus 8 hex digits of its hash, an empty one `<fallback>-<hash>`. Pure.
 */

import { CredenceError } from '../errors.js';

export const SLUG_DEFAULTS = Object.freeze({
  /** Longest name Claude Code accepts for a skill. @default 64 */
  maxLength: 64,
  /** Prefix of the name given to a text with no usable letter or digit. @default 'skill' */
  fallback: 'skill',
});

/** Words a skill name must not contain (Anthropic's Agent Skills overview). */
export const RESERVED_NAME_WORDS: readonly string[] = Object.freeze(['anthropic', 'claude']);

export interface SlugOptions {
  /** Prefix for a text with nothing usable, e.g. `'instinct'` or `'skill'`. @default 'skill' */
  fallback?: string;
  /** Longest slug, at least 16 and at most 64. @default 64 */
  maxLength?: number;
}

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Letters of the hash suffix: 8 hex digits and the hyphen before them. */
const HASH_PART = 9;

/**
 * Whether `name` is a valid skill name (and so a valid slug): 1–64 characters of `a-z`, `0-9` and
 * single hyphens, not starting or ending with a hyphen, not containing `anthropic` or `claude`.
 */
export function isValidSkillName(name: string, maxLength: number = SLUG_DEFAULTS.maxLength): boolean {
  return (
    typeof name === 'string' &&
    name.length >= 1 &&
    name.length <= maxLength &&
    NAME.test(name) &&
    !RESERVED_NAME_WORDS.some((word) => name.includes(word))
  );
}

/**
 * A valid skill name (lowercase `a-z0-9` words joined by single hyphens, at most `maxLength`
 * characters) derived from `text`; the same text always gives the same slug.
 * @throws CredenceError `INVALID_INPUT` when `text` is not a string, `maxLength` is outside
 *   [16, 64] or `fallback` is not itself a short valid name.
 */
export function slugify(text: string, options: SlugOptions = {}): string {
  if (typeof text !== 'string') {
    throw new CredenceError('INVALID_INPUT', `the text to make a slug of must be a string, got ${String(text)}`, {
      details: { text },
    });
  }
  const maxLength = options.maxLength ?? SLUG_DEFAULTS.maxLength;
  if (!Number.isInteger(maxLength) || maxLength < 16 || maxLength > SLUG_DEFAULTS.maxLength) {
    throw new CredenceError('INVALID_INPUT', `maxLength must be a whole number in [16, 64], got ${String(maxLength)}`, {
      details: { maxLength },
    });
  }
  const fallback = options.fallback ?? SLUG_DEFAULTS.fallback;
  if (!isValidSkillName(fallback, maxLength - HASH_PART)) {
    throw new CredenceError(
      'INVALID_INPUT',
      `fallback must be a valid name of at most ${maxLength - HASH_PART} characters (a-z, 0-9, single hyphens), ` +
        `got ${JSON.stringify(fallback)}`,
      {
        details: { fallback },
      },
    );
  }

  const words = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/œ/g, 'oe')
    .replace(/ø/g, 'o')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !RESERVED_NAME_WORDS.some((reserved) => word.includes(reserved)));
  const hash = fnv1a(text);
  if (words.length === 0) return `${fallback}-${hash}`;

  const slug = words.join('-');
  if (slug.length <= maxLength) return slug;
  let head = slug.slice(0, maxLength - HASH_PART);
  const cut = head.lastIndexOf('-');
  // Cut at the last whole word unless that throws away more than half of what is left.
  if (cut > head.length / 2) head = head.slice(0, cut);
  head = head.replace(/-+$/, '');
  return `${head}-${hash}`;
}

/** FNV-1a over the UTF-16 code units of `text`, as 8 hex digits: short, stable, dependency-free. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
