/**
 * @module core/runs/intent
 * Intent taxonomy and derivation for workflow nodes and queries: seed 002, SPEC §7. An explicit
 * `config.intent` wins; else the first glob of {@link NODE_INTENT_MAP} matching the name
 * (case-insensitive, `*` = any run, whole-string match); else the same globs over the description, then
 * each tag; else `general`. The seed's globs are deliberately broad (`*test*` matches "latest"), and
 * order decides ties ("researchAndWriteNode" is research).
 */

import { CredenceError } from '../errors.js';
import { shownText } from '../security/scrub.js';
import { INTENTS } from '../types.js';
import type { Intent } from '../types.js';

/** One line per intent, for documentation, `--help` output and the dashboard. */
export const INTENT_DESCRIPTIONS: Readonly<Record<Intent, string>> = Object.freeze({
  research: 'Finding and reading information: searching, browsing, gathering sources.',
  implementation: 'Producing or changing code or other artefacts: writing, implementing, generating.',
  testing: 'Checking that something works: running tests, verifying results.',
  debugging: 'Finding and fixing the cause of a failure or wrong behaviour.',
  documentation: 'Writing or updating documentation: READMEs, guides, comments.',
  general: 'Anything no more specific intent describes.',
});

/** A node-name glob and the intent it maps to. */
export interface IntentPattern {
  readonly pattern: string;
  readonly intent: Intent;
}

/**
 * Node-name globs in match order (seed 002; the documentation globs are SPEC §7's decision).
 * The first glob that matches wins.
 */
export const NODE_INTENT_MAP: readonly IntentPattern[] = Object.freeze(
  (
    [
      { pattern: '*search*', intent: 'research' },
      { pattern: '*research*', intent: 'research' },
      { pattern: '*implement*', intent: 'implementation' },
      { pattern: '*code*', intent: 'implementation' },
      { pattern: '*write*', intent: 'implementation' },
      { pattern: '*test*', intent: 'testing' },
      { pattern: '*verify*', intent: 'testing' },
      { pattern: '*debug*', intent: 'debugging' },
      { pattern: '*fix*', intent: 'debugging' },
      { pattern: '*doc*', intent: 'documentation' },
      { pattern: '*readme*', intent: 'documentation' },
    ] as const satisfies readonly IntentPattern[]
  ).map((entry) => Object.freeze({ ...entry })),
);

/** Compile a glob into an anchored, case-insensitive RegExp: `*` is any run, the rest literal. */
function compileGlob(glob: string): RegExp {
  const source = glob
    .split('*')
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('[\\s\\S]*');
  return new RegExp(`^${source}$`, 'i');
}

/** The globs of NODE_INTENT_MAP, compiled once at module load. */
const COMPILED_PATTERNS: readonly { readonly regex: RegExp; readonly intent: Intent }[] = NODE_INTENT_MAP.map(
  ({ pattern, intent }) => ({ regex: compileGlob(pattern), intent }),
);

const INTENT_SET: ReadonlySet<string> = new Set<string>(INTENTS);

/** True when `value` is one of the intents of the taxonomy (exact spelling). */
export function isIntent(value: unknown): value is Intent {
  return typeof value === 'string' && INTENT_SET.has(value);
}

/**
 * The intent of the first glob of {@link NODE_INTENT_MAP} that matches `text`, case-insensitively;
 * `undefined` when none does.
 */
export function matchIntent(text: string): Intent | undefined {
  if (typeof text !== 'string') {
    throw new CredenceError('INVALID_INPUT', `matchIntent expects a string, got ${typeof text}`);
  }
  for (const { regex, intent } of COMPILED_PATTERNS) {
    if (regex.test(text)) return intent;
  }
  return undefined;
}

/** Node configuration that can carry intent information (seed 002 "config hints"). */
export interface IntentConfig {
  /** An explicit intent; must be one of the taxonomy (case and surrounding spaces are ignored). */
  readonly intent?: Intent | string;
  /** A free-text description, matched with the node-name globs when the name says nothing. */
  readonly description?: string;
  /** Tags, each matched with the node-name globs after the description. */
  readonly tags?: readonly string[];
}

/** Which rule decided a derived intent. */
export type IntentRule = 'explicit' | 'name' | 'hint' | 'default';

/** A derived intent and the rule that decided it, so the choice is explainable. */
export interface DerivedIntent {
  readonly intent: Intent;
  readonly rule: IntentRule;
}

/**
 * Derive the intent of a node (or of any named thing) from its name and config (SPEC §7 decision):
 * explicit `config.intent` → name globs → hint globs (description, then tags) → `general`.
 *
 * @throws CredenceError `INVALID_INPUT` when `config.intent` is given but is not in the taxonomy.
 */
export function deriveIntent(name: string | undefined, config?: IntentConfig): DerivedIntent {
  if (config?.intent !== undefined) {
    const explicit = typeof config.intent === 'string' ? config.intent.trim().toLowerCase() : config.intent;
    if (!isIntent(explicit)) {
      throw new CredenceError(
        'INVALID_INPUT',
        `unknown intent ${shownText(config.intent)}; valid intents are ${INTENTS.join(', ')}`,
        { details: { intent: config.intent, valid: [...INTENTS] } },
      );
    }
    return { intent: explicit, rule: 'explicit' };
  }

  if (name !== undefined) {
    const fromName = matchIntent(name);
    if (fromName !== undefined) return { intent: fromName, rule: 'name' };
  }

  const hints: string[] = [];
  if (config?.description !== undefined) hints.push(config.description);
  if (config?.tags !== undefined) hints.push(...config.tags);
  for (const hint of hints) {
    const fromHint = matchIntent(hint);
    if (fromHint !== undefined) return { intent: fromHint, rule: 'hint' };
  }

  return { intent: 'general', rule: 'default' };
}
