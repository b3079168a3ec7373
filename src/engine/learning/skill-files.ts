/**
 * @module engine/learning/skill-files
 * The files evolve writes (SPEC §6, seed 004): `instincts/<slug>.md`, `skills/<name>/SKILL.md` (Agent Skills
 * format: front matter `name`, see core/learning/slug, and `description`) and the evolution log, in folders inside
 * the project root, never outside it. Credence owns one marked section (`<!-- credence:begin … -->` … `end`) and a
 * few front-matter keys until someone edits one; all else a human wrote is kept; broken markers are refused
 * (`INVALID_INPUT`). Unchanged content (the update time aside) is not rewritten; texts are one line, scrubbed.
 * `..` or a link out is `PATH_OUTSIDE_ROOT`; writes are atomic (`O_EXCL | O_NOFOLLOW` temp, rename; not covered: a
 * folder swapped for a link meanwhile).
 */

import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { isAbsolute, join, posix, resolve, sep } from 'node:path';
import { CONFIDENCE_BANDS, confidenceBand } from '../../core/learning/bands.js';
import { CredenceError, isCredenceError } from '../../core/errors.js';
import { looksAbsolute, pathParts } from '../../core/security/path-containment.js';
import { scrubText } from '../../core/security/scrub.js';
import { cutChars } from '../../core/text/plain-text.js';
import { isValidSkillName } from '../../core/learning/slug.js';
import type { ConfidenceBand } from '../../core/types.js';
import type { ObservationRecord } from '../../store/types.js';
import { insideRel, readFileInsideRoot, resolveInsideRoot } from '../../platform/files.js';
import { atomicWrite, errnoOf, fsFailure, show, type FileWrites } from './atomic-files.js';

export const SKILL_FILE_DEFAULTS = Object.freeze({
  /** Folder holding everything below unless each is set. @default '.credence' */
  dir: '.credence',
  /** Instinct files' folder, root-relative. @default '<dir>/instincts' */
  instinctsDir: 'instincts',
  /** Skill folders' parent, root-relative. @default '<dir>/skills' */
  skillsDir: 'skills',
  /** The evolution log, root-relative. @default '<dir>/evolution.log.jsonl' */
  logFile: 'evolution.log.jsonl',
  /** Longest skill description written, in characters (Agent Skills specification). @default 1024 */
  maxDescriptionLength: 1024,
});

/** Where the learned files go, every folder relative to `root` (POSIX separators). */
export interface SkillFileLayout {
  /** The project root: nothing is read or written outside it. */
  readonly root: string;
  readonly instinctsDir: string;
  readonly skillsDir: string;
  readonly logFile: string;
}

/** A layout as given by a caller: `root` and any folder to change from its default. */
export interface SkillFileLayoutOptions {
  root: string;
  /** @default '.credence' */
  dir?: string;
  /** @default '<dir>/instincts' */
  instinctsDir?: string;
  /** @default '<dir>/skills' (e.g. '.claude/skills' so Claude Code loads the skills) */
  skillsDir?: string;
  /** @default '<dir>/evolution.log.jsonl' */
  logFile?: string;
  /** Writes gathered to be flushed together (evolve's run, see atomic-files); @default each file at once */
  files?: FileWrites;
}

export interface InstinctEvidence {
  /** The observation's id. */
  id: string;
  text: string;
  /** Epoch milliseconds. */
  at: number;
}

/** What an instinct file lists of its observations; `ids` read through `byId` skip what is gone. */
export function instinctEvidence(observations: readonly ObservationRecord[]): InstinctEvidence[];
export function instinctEvidence(
  ids: readonly string[],
  byId: ReadonlyMap<string, ObservationRecord>,
): InstinctEvidence[];
export function instinctEvidence(
  items: readonly ObservationRecord[] | readonly string[],
  byId?: ReadonlyMap<string, ObservationRecord>,
): InstinctEvidence[] {
  const observations =
    byId === undefined
      ? (items as readonly ObservationRecord[])
      : (items as readonly string[]).flatMap((id) => byId.get(id) ?? []);
  return observations.map((o) => ({ id: o.id, text: o.observation, at: o.timestamp }));
}

export interface InstinctFileData {
  /** File name without `.md`: a valid skill name (`slugify(text, { fallback: 'instinct' })`). */
  slug: string;
  text: string;
  confidence: number;
  band: ConfidenceBand;
  evidence: readonly InstinctEvidence[];
  /** The name of the skill this instinct was promoted to, if it was. */
  promotedTo?: string | undefined;
  /** Epoch milliseconds of the instinct's last change. */
  updatedAt: number;
  /** The pattern category (seed 004: code, workflow, error, success), a front-matter key when known. */
  category?: string | undefined;
  /** Retired (decayed out, or over the limit of active instincts): `status: retired`, no longer a suggestion. */
  retired?: boolean | undefined;
  /** The contradictions detected against it, each with the confidence it took away (issue 21). */
  contradictions?: readonly ContradictionNote[] | undefined;
}

/** A contradiction detected against an instinct or a skill, as its file shows it. */
export interface ContradictionNote {
  /** The contradicting observation's text. */
  text: string;
  /** Epoch milliseconds of the observation. */
  at: number;
  /** What it took from the confidence (−0.3, seed 004). */
  delta: number;
}

/** The lines of a file's contradictions section, oldest first (none without contradictions). */
function contradictionLines(notes: readonly ContradictionNote[] | undefined): string[] {
  if (notes === undefined || notes.length === 0) return [];
  const lines = [...notes]
    .sort((a, b) => a.at - b.at || compareText(a.text, b.text))
    .map(
      (n, index) =>
        `- Contradicted by "${oneLine(requireText(`contradiction ${index} text`, n.text))}" ` +
        `(${iso(`contradiction ${index} at`, n.at).slice(0, 10)}): ${n.delta < 0 ? '−' : '+'}${Math.abs(n.delta)}`,
    );
  return ['## Contradictions', '', ...lines, ''];
}

export interface SkillRule {
  text: string;
  confidence: number;
  /** Epoch milliseconds: when it was added (a rule the file already lists keeps the day written there). */
  addedAt: number;
}

export interface SkillFileData {
  /** The skill's name and folder name (a valid skill name, see `isValidSkillName`). */
  name: string;
  /** What the skill does and when to use it; made one line and cut to 1024 characters. */
  description: string;
  rules: readonly SkillRule[];
  confidence: number;
  /** Epoch milliseconds of the skill's last change. */
  updatedAt: number;
  /** The pattern category (seed 004: code, workflow, error, success), written in the section when known. */
  category?: string | undefined;
  /** The contradictions detected against it, each with the confidence it took away (issue 21). */
  contradictions?: readonly ContradictionNote[] | undefined;
}

export interface WrittenFile {
  /** Root-relative POSIX path of the file. */
  path: string;
  /** False when the file already held what would be written and was left untouched. */
  changed: boolean;
}

export interface RemovedFile {
  path: string;
  /** False when there was no file to remove. */
  removed: boolean;
  /** Only Credence's section was taken out: the file stays with someone else's text (withdrawSkillFile). */
  keptText?: true;
}

export interface EvolutionLogEntry {
  /**
   * The scope that evolved: one project folder's log can hold several scopes' entries, and each
   * view shows only its own (entries written before there was a scope are shown in none).
   */
  scope: string;
  /** Epoch milliseconds. */
  at: number;
  /** What happened, e.g. `instinct-created`, `skill-rule-added`, `instinct-promoted`. */
  kind: string;
  /** The instinct's slug, the skill's name or the record's id. */
  id: string;
  detail: string;
}

// --- layout ---------------------------------------------------------------------------------

/**
 * The layout with defaults applied and every folder checked and made root-relative.
 * @throws CredenceError `PATH_OUTSIDE_ROOT` for a folder with `..`, an absolute folder outside the
 *   root; `INVALID_INPUT` for an empty folder, one naming the root itself, a NUL byte.
 */
export function skillFileLayout(options: SkillFileLayoutOptions): SkillFileLayout {
  const root = options.root;
  if (typeof root !== 'string' || root === '' || root.includes('\0')) {
    throw new CredenceError('INVALID_INPUT', `root must be a non-empty folder path, got ${show(root)}`, {
      details: { root },
    });
  }
  const dir = options.dir ?? SKILL_FILE_DEFAULTS.dir;
  const base = layoutPath(root, dir, 'dir');
  return Object.freeze({
    root,
    instinctsDir: layoutPath(
      root,
      options.instinctsDir ?? `${base}/${SKILL_FILE_DEFAULTS.instinctsDir}`,
      'instinctsDir',
    ),
    skillsDir: layoutPath(root, options.skillsDir ?? `${base}/${SKILL_FILE_DEFAULTS.skillsDir}`, 'skillsDir'),
    logFile: layoutPath(root, options.logFile ?? `${base}/${SKILL_FILE_DEFAULTS.logFile}`, 'logFile'),
  });
}

/**
 * {@link skillFileLayout}, and every folder of it that exists already (a link included) resolves inside the root: a
 * link leading out is refused before anything is read or written, not when the first file is written after the
 * store has changed. A folder still missing is made inside the root when written (ensureFolder).
 */
export function checkedSkillFileLayout(options: SkillFileLayoutOptions): SkillFileLayout {
  const layout = skillFileLayout(options);
  const folders = [layout.instinctsDir, layout.skillsDir, layout.logFile.split('/').slice(0, -1).join('/')];
  for (const folder of folders) {
    const segments = folder.split('/').filter((x) => x !== '' && x !== '.');
    for (let i = 1; i <= segments.length; i += 1) {
      try {
        resolveInsideRoot(layout.root, segments.slice(0, i).join('/'));
      } catch (error) {
        if (isCredenceError(error, 'NOT_FOUND')) break;
        throw error;
      }
    }
  }
  return layout;
}

function layoutPath(root: string, value: string, name: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.includes('\0')) {
    throw new CredenceError('INVALID_INPUT', `${name} must be a non-empty path without NUL bytes, got ${show(value)}`, {
      details: { [name]: value },
    });
  }
  const parts = pathParts(value);
  if (parts.includes('..')) {
    throw new CredenceError(
      'PATH_OUTSIDE_ROOT',
      `${name} ${show(value)} contains "..": give a folder inside the root ${show(root)} without ".."`,
      {
        details: { [name]: value, root, reason: 'above-root' },
      },
    );
  }
  let rel: string;
  if (looksAbsolute(value)) {
    const inside = isAbsolute(value)
      ? (insideRel(resolve(root), resolve(value)) ?? insideRealRoot(root, value))
      : undefined;
    if (inside === undefined) {
      throw new CredenceError(
        'PATH_OUTSIDE_ROOT',
        `${name} ${show(value)} is outside the root ${show(root)}: give a folder relative to the root`,
        {
          details: { [name]: value, root, reason: 'absolute' },
        },
      );
    }
    rel = inside.split(sep).join('/');
  } else {
    rel = parts.filter((part) => part !== '.').join('/');
  }
  if (rel === '') {
    throw new CredenceError('INVALID_INPUT', `${name} ${show(value)} names the root itself; give a folder inside it`, {
      details: { [name]: value, root },
    });
  }
  return rel;
}

function insideRealRoot(root: string, value: string): string | undefined {
  try {
    return insideRel(realpathSync(root), resolve(value));
  } catch {
    return undefined;
  }
}

// --- rendering ------------------------------------------------------------------------------

const BEGIN =
  '<!-- credence:begin (written by credence evolve: ' +
  'edits between these markers are replaced, edits outside them are kept) -->';
const END = '<!-- credence:end -->';
const BEGIN_LINE = /^<!--\s*credence:begin\b.*-->\s*$/;
const END_LINE = /^<!--\s*credence:end\b.*-->\s*$/;
const UPDATED_LINE = /^Updated: \S+$/gm;

const INSTINCT_KEYS: readonly string[] = Object.freeze([
  'confidence',
  'band',
  'status',
  'category',
  'skill',
  'updated',
]);
const SKILL_KEYS: readonly string[] = Object.freeze(['name', 'description']);
/** Owned keys whose value alone never makes a file changed. */
const TIME_KEYS: ReadonlySet<string> = new Set(['updated']);

interface OwnedParts {
  /** Owned front-matter lines, in order, by key. */
  frontMatter: ReadonlyArray<readonly [key: string, line: string]>;
  /** Every key owned for this kind of file, written or not (an absent one is removed). */
  ownedKeys: readonly string[];
  /** The owned section's lines, markers excluded. */
  section: readonly string[];
}

/**
 * The Markdown of a new instinct file: front matter (`confidence`, `band`, `status`, `skill` when
 * promoted, `updated`), then the owned section with the text as heading, the confidence, a link to
 * the skill when promoted (relative to the instincts folder, from `layout`'s folders) and the
 * evidence, oldest first.
 * @throws CredenceError `INVALID_INPUT` for an invalid slug or skill name, a confidence outside
 *   [0, 1], an unknown band, a time that is not a finite epoch in milliseconds.
 */
export function renderInstinct(instinct: InstinctFileData, layout: Partial<SkillFileLayoutOptions> = {}): string {
  return compose(newDocument(instinctParts(instinct, skillFileLayout({ ...layout, root: layout.root ?? '.' }))));
}

/**
 * The Markdown of a new `SKILL.md`: front matter `name` and `description` (a YAML double-quoted,
 * one-line string), then the owned section with a title, the description, the rules (oldest first,
 * each with its confidence and the date it was added), the skill's confidence and `Updated:` time.
 * @throws CredenceError `INVALID_INPUT` for an invalid name, an empty description, a confidence
 *   outside [0, 1], a time that is not a finite epoch in milliseconds.
 */
export function renderSkill(skill: SkillFileData): string {
  return compose(newDocument(skillParts(skill)));
}

function instinctParts(instinct: InstinctFileData, layout: SkillFileLayout): OwnedParts {
  requireName('slug', instinct.slug);
  if (instinct.promotedTo !== undefined) requireName('promotedTo', instinct.promotedTo);
  const confidence = requireConfidence('confidence', instinct.confidence);
  const band = CONFIDENCE_BANDS.find((info) => info.band === instinct.band);
  if (band === undefined) {
    throw new CredenceError(
      'INVALID_INPUT',
      `band must be one of ${CONFIDENCE_BANDS.map((b) => b.band).join(', ')}, got ${show(instinct.band)}`,
      {
        details: { band: instinct.band },
      },
    );
  }
  const updated = iso('updatedAt', instinct.updatedAt);
  if (!Array.isArray(instinct.evidence))
    throw new CredenceError('INVALID_INPUT', 'evidence must be an array', { details: { evidence: instinct.evidence } });
  const evidence = instinct.evidence
    .map((item, index) => ({
      id: requireText(`evidence ${index} id`, item.id),
      text: oneLine(requireText(`evidence ${index} text`, item.text)),
      at: item.at,
      when: iso(`evidence ${index} at`, item.at),
    }))
    .sort((a, b) => a.at - b.at || compareText(a.id, b.id));
  const title = oneLine(requireText('text', instinct.text)) || instinct.slug;

  const frontMatter: Array<readonly [string, string]> = [
    ['confidence', `confidence: ${confidence}`],
    ['band', `band: ${band.band}`],
    [
      'status',
      `status: ${instinct.promotedTo !== undefined ? 'promoted' : instinct.retired === true ? 'retired' : 'active'}`,
    ],
  ];
  if (instinct.category !== undefined) frontMatter.push(['category', `category: ${yamlName(instinct.category)}`]);
  const section = [`# ${title}`, '', `Confidence: ${confidence} (${band.band}: ${band.action}).`, ''];
  if (instinct.promotedTo !== undefined) {
    frontMatter.push(['skill', `skill: ${yamlName(instinct.promotedTo)}`]);
    const link = posix.relative(`/${layout.instinctsDir}`, `/${layout.skillsDir}/${instinct.promotedTo}/SKILL.md`);
    section.push(`Promoted to the skill [${instinct.promotedTo}](${linkTarget(link)}).`, '');
  }
  if (instinct.retired === true && instinct.promotedTo === undefined)
    section.push('Retired: no longer suggested (its confidence decayed, or over the limit of active instincts).', '');
  section.push(...contradictionLines(instinct.contradictions));
  frontMatter.push(['updated', `updated: ${yamlString(updated)}`]);
  section.push('## Evidence', '');
  if (evidence.length === 0) section.push('_No evidence recorded._');
  for (const item of evidence) section.push(`- ${item.text} (${item.when}, ${inlineCode(oneLine(item.id))})`);
  section.push('');
  return { frontMatter, ownedKeys: INSTINCT_KEYS, section };
}

/**
 * A skill's parts. In a file someone wrote by hand (`handWritten`: text of its own outside the owned
 * section), Credence's section is headed as its additions and holds no title or description of its own,
 * and the front-matter keys the file already has (its `name`, its `description`) are the writer's: only
 * a missing one is added. In a file Credence made (`existing`), a key someone changed since is theirs too
 * (`editedKeys`): Credence writes it only where it is missing or still as Credence last wrote it.
 */
function skillParts(skill: SkillFileData, handWritten?: ManagedDocument, existing?: ManagedDocument): OwnedParts {
  requireName('name', skill.name);
  const description = skillDescription(skill.description);
  const confidence = requireConfidence('confidence', skill.confidence);
  const band = confidenceBand(skill.confidence);
  const updated = iso('updatedAt', skill.updatedAt);
  if (!Array.isArray(skill.rules))
    throw new CredenceError('INVALID_INPUT', 'rules must be an array', { details: { rules: skill.rules } });
  // A rule the file lists already keeps the day it was added (walk 12, item 8: one added on 25 Nov was dated the
  // skill's first day at every write).
  const dated = ruleDates(handWritten ?? existing);
  const rules = skill.rules
    .map((rule, index) => {
      const text = oneLine(requireText(`rule ${index} text`, rule.text));
      const added = dated.get(text) ?? iso(`rule ${index} addedAt`, rule.addedAt).slice(0, 10);
      return { text, confidence: requireConfidence(`rule ${index} confidence`, rule.confidence), added };
    })
    .sort((a, b) => compareText(a.added, b.added) || compareText(a.text, b.text));

  const title = skill.name.charAt(0).toUpperCase() + skill.name.slice(1).replace(/-/g, ' ');
  const section =
    handWritten === undefined
      ? [`# ${title}`, '', description, '', '## Rules', '']
      : [ADDITIONS_HEADING, '', 'Rules Credence learned on this topic from what it observed:', ''];
  if (rules.length === 0) section.push('_No rules yet._');
  for (const rule of rules) section.push(`- ${rule.text} (confidence ${rule.confidence}, added ${rule.added})`);
  section.push('', ...contradictionLines(skill.contradictions));
  if (skill.category !== undefined) section.push(`Category: ${skill.category}.`);
  section.push(`Confidence: ${confidence} (${band.band}: ${band.action}).`, `Updated: ${updated}`, '');
  const frontMatter: Array<readonly [string, string]> = [
    ['name', `name: ${yamlName(skill.name)}`],
    ['description', `description: ${yamlString(description)}`],
  ];
  const theirs = new Set([
    ...(handWritten?.frontMatter ?? []).map((entry) => entry.key),
    ...(existing === undefined ? [] : editedKeys(existing, skill.name)),
  ]);
  const ownedKeys = SKILL_KEYS.filter((key) => !theirs.has(key));
  return { frontMatter: frontMatter.filter(([key]) => ownedKeys.includes(key)), ownedKeys, section };
}

const ADDITIONS_HEADING = '## Learned by Credence';

const RULE_LINE = /^- (.+) \(confidence \d\.\d\d, added (\d{4}-\d\d-\d\d)\)$/;

/** The day each rule listed in a file's section was added, by its text. */
function ruleDates(doc: ManagedDocument | undefined): Map<string, string> {
  const dates = new Map<string, string>();
  for (const line of doc?.section ?? []) {
    const match = RULE_LINE.exec(line);
    if (match !== null && !dates.has(match[1] as string)) dates.set(match[1] as string, match[2] as string);
  }
  return dates;
}

/**
 * The front-matter keys of a file Credence made that someone changed since (walk 12, item 1: a description edited by
 * hand was written back by the next evolve): `name` when it is not the folder's name as Credence writes it,
 * `description` when it is not the one Credence last wrote, which its section keeps under the title. A key present
 * twice, or a description whose section no longer shows Credence's, is kept as it is too.
 */
function editedKeys(doc: ManagedDocument, name: string): string[] {
  const section = doc.section ?? [];
  const wrote = section[0]?.startsWith('# ') === true && section[1] === '' ? section[2] : undefined;
  const written = new Map([
    ['name', `name: ${yamlName(name)}`],
    ['description', wrote === undefined ? undefined : `description: ${yamlString(wrote)}`],
  ]);
  return SKILL_KEYS.filter((key) => {
    const entries = (doc.frontMatter ?? []).filter((entry) => entry.key === key);
    if (entries.length === 0) return false;
    return entries.length > 1 || entries[0]?.lines.join('\n') !== written.get(key);
  });
}

/**
 * Whether a skill file is someone's own: found with text and without Credence's section (its first rule
 * on the topic is about to go in), or holding the section as additions (headed {@link ADDITIONS_HEADING}).
 * A file Credence made, hand edits and all, is not.
 */
function writtenByHand(doc: ManagedDocument): boolean {
  if (doc.section !== undefined) return doc.section[0] === ADDITIONS_HEADING;
  return doc.before.some((line) => line.trim() !== '');
}

function skillDescription(value: string): string {
  const text = cutChars(
    oneLine(requireText('description', value)).replace(/<(\/?[A-Za-z][^<>]*)>/g, '‹$1›'),
    SKILL_FILE_DEFAULTS.maxDescriptionLength,
  );
  if (text === '')
    throw new CredenceError(
      'INVALID_INPUT',
      'description must hold some text: Claude Code needs it to know when to use the skill',
      { details: { description: value } },
    );
  return text;
}

/** One line: secrets redacted, every run of whitespace or control characters one space, trimmed. */
function oneLine(text: string): string {
  return scrubText(text)
    .text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/[\s\p{Cc}\u2028\u2029\uFEFF]+/gu, ' ')
    .trim();
}

const YAML_WORDS = new Set(['null', 'true', 'false', 'yes', 'no', 'on', 'off', 'y', 'n', 'nan', 'inf']);

/** A valid name written plain when YAML reads it back as that string, quoted otherwise (`null`, `123`). */
function yamlName(name: string): string {
  return /^[a-z][a-z0-9-]*$/.test(name) && !YAML_WORDS.has(name) ? name : yamlString(name);
}

/** A YAML double-quoted scalar: `"` and `\` escaped, control and line-separator characters as `\uXXXX`. */
export function yamlString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || code === 0xfeff) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

function inlineCode(text: string): string {
  if (!text.includes('`')) return `\`${text}\``;
  const longest = Math.max(...(text.match(/`+/g) ?? ['']).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence} ${text} ${fence}`;
}

function linkTarget(path: string): string {
  return encodeURI(path).replace(/\(/g, '%28').replace(/\)/g, '%29');
}

// --- documents ------------------------------------------------------------------------------

interface Entry {
  /** Undefined for comment or blank lines before the first key. */
  key: string | undefined;
  lines: string[];
}

interface ManagedDocument {
  /** Undefined when the file has no front matter. */
  frontMatter: Entry[] | undefined;
  before: string[];
  /** Undefined when the file has no owned section yet. */
  section: string[] | undefined;
  after: string[];
  eol: '\n' | '\r\n';
}

function newDocument(parts: OwnedParts): ManagedDocument {
  return {
    frontMatter: parts.frontMatter.map(([key, line]) => ({ key, lines: [line] })),
    before: [''],
    section: [...parts.section],
    after: [''],
    eol: '\n',
  };
}

function compose(doc: ManagedDocument): string {
  const lines: string[] = [];
  if (doc.frontMatter !== undefined) lines.push('---', ...doc.frontMatter.flatMap((entry) => entry.lines), '---');
  lines.push(...doc.before);
  if (doc.section !== undefined) lines.push(BEGIN, ...doc.section, END);
  lines.push(...doc.after);
  return lines.join(doc.eol);
}

const KEY_LINE = /^(?!-(?:\s|$))([^\s#'"][^:]*?|'[^']*'|"[^"]*")\s*:(?:[ \t]|$)/;

/**
 * Splits a file into its front matter (by top-level key), the text before the owned section, the
 * section and the text after it.
 * @throws CredenceError `INVALID_INPUT` when the section markers are broken.
 */
function parseDocument(text: string, path: string): ManagedDocument {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let lines = text.split(/\r?\n/);
  let frontMatter: Entry[] | undefined;
  if (lines[0]?.trimEnd() === '---') {
    const close = lines.findIndex((line, index) => index > 0 && (line.trimEnd() === '---' || line.trimEnd() === '...'));
    if (close > 0) {
      frontMatter = parseFrontMatter(lines.slice(1, close));
      lines = lines.slice(close + 1);
    }
  }
  const begins = indexesOf(lines, BEGIN_LINE);
  const ends = indexesOf(lines, END_LINE);
  if (begins.length === 0 && ends.length === 0) {
    return { frontMatter, before: lines, section: undefined, after: [], eol };
  }
  const begin = begins[0];
  const end = ends[0];
  if (begins.length !== 1 || ends.length !== 1 || begin === undefined || end === undefined || end < begin) {
    throw new CredenceError(
      'INVALID_INPUT',
      `${show(path)} has ${begins.length} credence:begin and ${ends.length} credence:end markers; ` +
        'expected one of each, begin first. ' +
        'Fix or remove them by hand; Credence will not guess which text is yours',
      { details: { path, begins: begins.length, ends: ends.length } },
    );
  }
  return {
    frontMatter,
    before: lines.slice(0, begin),
    section: lines.slice(begin + 1, end),
    after: lines.slice(end + 1),
    eol,
  };
}

/**
 * Front-matter lines grouped by top-level key: a key line and its continuation (indented lines,
 * `- ` items, blank lines inside an indented value); comments and blank lines between keys are
 * entries of their own (key undefined), so they stay where they are.
 */
function parseFrontMatter(lines: readonly string[]): Entry[] {
  const entries: Entry[] = [];
  const continues = (line: string): boolean => /^[ \t]/.test(line) || /^-(?:\s|$)/.test(line);
  lines.forEach((line, index) => {
    const last = entries[entries.length - 1];
    const match = KEY_LINE.exec(line);
    let attach: boolean;
    if (match !== null) {
      entries.push({ key: unquoteKey(match[1] ?? ''), lines: [line] });
      return;
    } else if (line.trim() === '') {
      const next = lines.slice(index + 1).find((candidate) => candidate.trim() !== '');
      attach = next !== undefined && continues(next);
    } else if (line.startsWith('#')) {
      attach = false;
    } else {
      attach = true;
    }
    if (attach && last !== undefined && last.key !== undefined) last.lines.push(line);
    else if (last !== undefined && last.key === undefined) last.lines.push(line);
    else entries.push({ key: undefined, lines: [line] });
  });
  return entries;
}

function unquoteKey(key: string): string {
  return /^(['"]).*\1$/.test(key) ? key.slice(1, -1) : key;
}

function indexesOf(lines: readonly string[], pattern: RegExp): number[] {
  const found: number[] = [];
  lines.forEach((line, index) => {
    if (pattern.test(line)) found.push(index);
  });
  return found;
}

/** Whether `doc` already holds `parts`, times aside. */
function holds(doc: ManagedDocument, parts: OwnedParts): boolean {
  if (doc.frontMatter === undefined || doc.section === undefined) return false;
  const wanted = new Map(parts.frontMatter);
  for (const key of parts.ownedKeys) {
    if (TIME_KEYS.has(key)) continue;
    const entries = doc.frontMatter.filter((entry) => entry.key === key);
    if (entries.length > 1) return false;
    const have = entries[0]?.lines.join('\n');
    if (have !== wanted.get(key)) return false;
  }
  const strip = (lines: readonly string[]): string => lines.join('\n').replace(UPDATED_LINE, '');
  return strip(doc.section) === strip(parts.section);
}

/**
 * `doc` with `parts` written in: the owned keys, in their order, where the first of them was (after
 * leading comments when there was none); every other key, comment and blank line where it was.
 */
function merge(doc: ManagedDocument, parts: OwnedParts): ManagedDocument {
  const owned = new Set(parts.ownedKeys);
  const mine: Entry[] = parts.frontMatter.map(([key, line]) => ({ key, lines: [line] }));
  const existing = doc.frontMatter ?? [];
  let at = existing.findIndex((entry) => entry.key !== undefined && owned.has(entry.key));
  if (at < 0) {
    at = existing.findIndex((entry) => entry.key !== undefined);
    if (at < 0) at = existing.length;
  }
  const frontMatter: Entry[] = [];
  existing.forEach((entry, index) => {
    if (index === at) frontMatter.push(...mine);
    if (entry.key === undefined || !owned.has(entry.key)) frontMatter.push(entry);
  });
  if (at === existing.length) frontMatter.push(...mine);
  if (doc.section !== undefined) return { ...doc, frontMatter, section: [...parts.section] };
  // No section yet: keep the whole body and append the section after it, a blank line between.
  const before = [...doc.before];
  while (before.length > 0 && before[before.length - 1] === '') before.pop();
  if (before.length > 0) before.push('');
  return {
    frontMatter,
    before: before.length === 0 ? [''] : before,
    section: [...parts.section],
    after: [''],
    eol: doc.eol,
  };
}

// --- files ----------------------------------------------------------------------------------

/**
 * Creates or updates `instincts/<slug>.md` in place (see the module notes).
 * @throws CredenceError `PATH_OUTSIDE_ROOT` (a folder or the file resolving outside the root),
 *   `INVALID_INPUT` (bad data, broken markers, a folder in the way), `NOT_FOUND` (no root).
 */
export function writeInstinctFile(layoutOptions: SkillFileLayoutOptions, instinct: InstinctFileData): WrittenFile {
  const layout = skillFileLayout(layoutOptions);
  const parts = instinctParts(instinct, layout);
  return writeOwned(layout, layout.instinctsDir, `${instinct.slug}.md`, parts, layoutOptions.files);
}

/**
 * Creates or updates `skills/<name>/SKILL.md` in place (see the module notes).
 * @throws CredenceError as `writeInstinctFile`.
 */
export function writeSkillFile(layoutOptions: SkillFileLayoutOptions, skill: SkillFileData): WrittenFile {
  const layout = skillFileLayout(layoutOptions);
  skillParts(skill);
  const parts = (doc: ManagedDocument | undefined) =>
    doc !== undefined && writtenByHand(doc) ? skillParts(skill, doc) : skillParts(skill, undefined, doc);
  return writeOwned(layout, `${layout.skillsDir}/${skill.name}`, 'SKILL.md', parts, layoutOptions.files);
}

/**
 * Deletes a skill's `SKILL.md` at root-relative `path` (where an earlier layout wrote it) when it holds
 * nothing but Credence's own text; a file with anything of someone else's is kept (`removed: false`).
 * @throws CredenceError as `removeSkillFile`.
 */
export function removeOwnSkillFileAt(layoutOptions: SkillFileLayoutOptions, path: string): RemovedFile {
  const match = /^(.+)\/([^/]+)\/SKILL\.md$/.exec(path);
  if (match === null) return { path, removed: false };
  const [, skillsDir, name] = match as unknown as [string, string, string];
  const layout = { ...layoutOptions, skillsDir };
  let doc: ManagedDocument;
  try {
    doc = parseDocument(readSkillFile(layout, name), path);
  } catch {
    return { path, removed: false };
  }
  if (doc.section === undefined || writtenByHand(doc) || doc.after.some((line) => line.trim() !== ''))
    return { path, removed: false };
  return removeSkillFile(layout, name);
}

/**
 * Throws what writing or withdrawing skill `name`'s `SKILL.md` would (its markers broken: `INVALID_INPUT`), so that a
 * change of several things can be refused before any is made; a missing file is fine.
 */
export function checkSkillFile(layoutOptions: SkillFileLayoutOptions, name: string): void {
  const layout = skillFileLayout(layoutOptions);
  requireName('name', name);
  checkParses(() => readSkillFile(layout, name), `${layout.skillsDir}/${name}/SKILL.md`);
}

/** As {@link checkSkillFile}, for instinct `slug`'s file. */
export function checkInstinctFile(layoutOptions: SkillFileLayoutOptions, slug: string): void {
  const layout = skillFileLayout(layoutOptions);
  requireName('slug', slug);
  checkParses(() => readInstinctFile(layout, slug), `${layout.instinctsDir}/${slug}.md`);
}

function checkParses(read: () => string, path: string): void {
  try {
    parseDocument(read(), path);
  } catch (error) {
    if (!isCredenceError(error, 'NOT_FOUND')) throw error;
  }
}

/** The file `read` gives, parsed; undefined when it is missing (`NOT_FOUND`). */
function documentIfAny(read: () => string, path: string): ManagedDocument | undefined {
  try {
    return parseDocument(read(), path);
  } catch (error) {
    if (isCredenceError(error, 'NOT_FOUND')) return undefined;
    throw error;
  }
}

/**
 * Takes Credence's text out of skill `name`'s `SKILL.md` (a forgotten skill, one with nothing left to show): a file
 * with anything of someone else's (written by hand, text outside the owned section, a front-matter key edited) keeps
 * it, byte for byte, and loses only the owned section; one holding only Credence's text goes with its folder.
 * `removed`: whether the file changed or went. `dryRun`: what it would do, nothing changed.
 * @throws CredenceError as `removeSkillFile`; `INVALID_INPUT` when its markers are broken (Credence will not guess).
 */
export function withdrawSkillFile(layoutOptions: SkillFileLayoutOptions, name: string, dryRun = false): RemovedFile {
  const layout = skillFileLayout(layoutOptions);
  requireName('name', name);
  const folder = `${layout.skillsDir}/${name}`;
  const path = `${folder}/SKILL.md`;
  const doc = documentIfAny(() => readSkillFile(layout, name), path);
  // A file without Credence's markers is never Credence's to take out, blank or front matter only as it may be.
  if (doc?.section === undefined) return { path, removed: false };
  // A front-matter key someone changed is theirs too (review D: an edited description went with the file).
  const theirs =
    writtenByHand(doc) ||
    [...doc.before, ...doc.after].some((line) => line.trim() !== '') ||
    editedKeys(doc, name).length > 0;
  if (!theirs) return dryRun ? { path, removed: true } : removeSkillFile(layoutOptions, name);
  if (dryRun) return { path, removed: true, keptText: true };
  // The blank line the section was set off by goes with it.
  const after = doc.before.at(-1)?.trim() === '' && doc.after[0]?.trim() === '' ? doc.after.slice(1) : doc.after;
  const target = existingTarget(layout.root, path, join(ensureFolder(layout.root, folder), 'SKILL.md'));
  atomicWrite(target.path, compose({ ...doc, section: undefined, after }), target.stats, path);
  return { path, removed: true, keptText: true };
}

/** The root-relative path of a skill's `SKILL.md` under `layoutOptions`. */
export function skillFilePath(layoutOptions: SkillFileLayoutOptions, name: string): string {
  return `${skillFileLayout(layoutOptions).skillsDir}/${name}/SKILL.md`;
}

/** A skill someone wrote in the skills folder: its name, its description and its lines, Credence's aside. */
export interface HandWrittenSkill {
  /** The folder's name (a valid skill name). */
  name: string;
  /** The front matter's `description`, or '' when it has none. */
  description: string;
  /** The non-blank lines of the body outside Credence's section, without Markdown list marks or headings. */
  lines: string[];
}

/**
 * The skills in the layout's skills folder that hold text of their own outside Credence's section, except
 * those named in `skip` (the skills Credence already keeps). A folder that is not a valid skill name, has
 * no `SKILL.md`, or cannot be read inside the root is passed over.
 */
export function handWrittenSkills(
  layoutOptions: SkillFileLayoutOptions,
  skip: ReadonlySet<string>,
): HandWrittenSkill[] {
  const layout = skillFileLayout(layoutOptions);
  let folder: string;
  try {
    folder = resolveInsideRoot(layout.root, layout.skillsDir);
  } catch {
    return [];
  }
  const found: HandWrittenSkill[] = [];
  for (const name of readdirSync(folder).sort()) {
    if (skip.has(name) || !isValidSkillName(name)) continue;
    const path = `${layout.skillsDir}/${name}/SKILL.md`;
    let doc: ManagedDocument;
    try {
      doc = parseDocument(readFileInsideRoot(layout.root, path), path);
    } catch {
      continue;
    }
    if (!writtenByHand(doc)) continue;
    const entry = doc.frontMatter?.find((e) => e.key === 'description');
    const description =
      entry === undefined
        ? ''
        : entry.lines
            .join(' ')
            .replace(/^description\s*:\s*[>|]?[-+]?/, '')
            .trim()
            .replace(/^(["'])(.*)\1$/, '$2')
            .replace(/\s+/g, ' ');
    const lines = [...doc.before, ...doc.after]
      .map((line) => line.replace(/^\s*(?:#+|[-*+]|\d+[.)])\s*/, '').trim())
      .filter((line) => line !== '');
    found.push({ name, description, lines });
  }
  return found;
}

/**
 * The text of `skills/<name>/SKILL.md`, read only inside the root (`files.ts`).
 * @throws CredenceError `NOT_FOUND`, `PATH_OUTSIDE_ROOT`, `INVALID_INPUT` (invalid name).
 */
export function readSkillFile(layoutOptions: SkillFileLayoutOptions, name: string): string {
  const layout = skillFileLayout(layoutOptions);
  requireName('name', name);
  return readFileInsideRoot(layout.root, `${layout.skillsDir}/${name}/SKILL.md`);
}

/**
 * The text of `instincts/<slug>.md`, read only inside the root (`files.ts`).
 * @throws CredenceError `NOT_FOUND`, `PATH_OUTSIDE_ROOT`, `INVALID_INPUT` (invalid slug).
 */
export function readInstinctFile(layoutOptions: SkillFileLayoutOptions, slug: string): string {
  const layout = skillFileLayout(layoutOptions);
  requireName('slug', slug);
  return readFileInsideRoot(layout.root, `${layout.instinctsDir}/${slug}.md`);
}

/**
 * Deletes `instincts/<slug>.md` (for `forget`). A symbolic link there is removed itself, never
 * what it points to. Nothing to remove is not an error (`removed: false`).
 * @throws CredenceError `PATH_OUTSIDE_ROOT` (the folder resolves outside the root), `INVALID_INPUT`.
 */
export function removeInstinctFile(layoutOptions: SkillFileLayoutOptions, slug: string): RemovedFile {
  const layout = skillFileLayout(layoutOptions);
  requireName('slug', slug);
  return removeInside(layout, layout.instinctsDir, `${slug}.md`, layoutOptions.files);
}

/**
 * Deletes `instincts/<slug>.md` (a forgotten instinct's) only when it holds Credence's markers: a file without them
 * (written by hand) is kept, `removed: false`, as is a missing one. `dryRun`: what it would do, nothing changed.
 * @throws CredenceError as `removeInstinctFile`; `INVALID_INPUT` when its markers are broken.
 */
export function withdrawInstinctFile(layoutOptions: SkillFileLayoutOptions, slug: string, dryRun = false): RemovedFile {
  const layout = skillFileLayout(layoutOptions);
  requireName('slug', slug);
  const path = `${layout.instinctsDir}/${slug}.md`;
  if (documentIfAny(() => readInstinctFile(layout, slug), path)?.section === undefined) return { path, removed: false };
  return dryRun ? { path, removed: true } : removeInstinctFile(layoutOptions, slug);
}

/**
 * Deletes `skills/<name>/SKILL.md` and then its folder when nothing else is left in it.
 * @throws CredenceError as `removeInstinctFile`.
 */
export function removeSkillFile(layoutOptions: SkillFileLayoutOptions, name: string): RemovedFile {
  const layout = skillFileLayout(layoutOptions);
  requireName('name', name);
  const result = removeInside(layout, `${layout.skillsDir}/${name}`, 'SKILL.md', layoutOptions.files);
  if (result.removed) {
    const parent = resolveInsideRoot(layout.root, layout.skillsDir);
    const folder = join(parent, name);
    try {
      if (lstatSync(folder).isDirectory()) rmdirSync(folder);
    } catch (error) {
      if (!['ENOTEMPTY', 'EEXIST', 'ENOENT'].includes(errnoOf(error) ?? ''))
        throw fsFailure(error, `${layout.skillsDir}/${name}`);
    }
  }
  return result;
}

/**
 * Appends one JSON line `{"scope","at":ISO,"kind","id","detail"}` to the evolution log, creating it
 * and its folder when missing. Texts are redacted of secrets (the scope is kept as it is: it is a name).
 * @throws CredenceError `PATH_OUTSIDE_ROOT`, `INVALID_INPUT` (bad entry, the log is not a file).
 */
export function appendEvolutionLog(layoutOptions: SkillFileLayoutOptions, entry: EvolutionLogEntry): void {
  const layout = skillFileLayout(layoutOptions);
  const line = `${JSON.stringify({
    scope: requireText('scope', entry.scope, true),
    at: iso('at', entry.at),
    kind: scrubText(requireText('kind', entry.kind, true)).text,
    id: scrubText(requireText('id', entry.id)).text,
    detail: scrubText(requireText('detail', entry.detail)).text,
  })}\n`;
  const folder = posix.dirname(layout.logFile);
  const dirReal = folder === '.' ? realRoot(layout.root) : ensureFolder(layout.root, folder);
  const target = existingTarget(layout.root, layout.logFile, join(dirReal, posix.basename(layout.logFile)));
  let fd: number;
  try {
    fd = openSync(
      target.path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),
      0o644,
    );
  } catch (error) {
    throw fsFailure(error, layout.logFile);
  }
  try {
    writeFileSync(fd, line);
  } finally {
    closeSync(fd);
  }
}

function writeOwned(
  layout: SkillFileLayout,
  folder: string,
  fileName: string,
  given: OwnedParts | ((existing: ManagedDocument | undefined) => OwnedParts),
  files: FileWrites | undefined,
): WrittenFile {
  const path = `${folder}/${fileName}`;
  const dirReal = ensureFolder(layout.root, folder);
  const target = existingTarget(layout.root, path, join(dirReal, fileName));
  const partsFor = (existing: ManagedDocument | undefined) => (typeof given === 'function' ? given(existing) : given);
  // What this run wrote there and has not put in place yet is the file's text now.
  const pending = files?.pendingText(target.path);
  let doc: ManagedDocument;
  if (pending === undefined && target.stats === undefined) {
    doc = newDocument(partsFor(undefined));
  } else {
    const existing = parseDocument(pending ?? readFileInsideRoot(layout.root, path), path);
    const parts = partsFor(existing);
    if (holds(existing, parts)) return { path, changed: false };
    doc = merge(existing, parts);
  }
  if (files === undefined) atomicWrite(target.path, compose(doc), target.stats, path);
  else files.write(target.path, compose(doc), target.stats, path);
  return { path, changed: true };
}

/**
 * Where to write `path` (root-relative, its folder already resolved to `fallback`'s folder): the
 * real file when it exists — through a link inside the root, refused when a link leads out.
 */
function existingTarget(root: string, path: string, fallback: string): { path: string; stats: Stats | undefined } {
  let stats: Stats;
  try {
    stats = lstatSync(fallback);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return { path: fallback, stats: undefined };
    throw fsFailure(error, path);
  }
  const real = stats.isSymbolicLink() ? resolveInsideRoot(root, path) : fallback;
  const realStats = real === fallback ? stats : statSync(real);
  if (!realStats.isFile()) {
    throw new CredenceError(
      'INVALID_INPUT',
      `${show(path)} under the root ${show(root)} is not a regular file; move it away`,
      { details: { path, root } },
    );
  }
  return { path: real, stats: realStats };
}

/**
 * The real path of root-relative `folder`, created one component at a time when missing; every
 * existing component (a link included) must resolve inside the root.
 */
function ensureFolder(root: string, folder: string): string {
  let current = realRoot(root);
  const segments = folder.split('/');
  for (let i = 1; i <= segments.length; i += 1) {
    const prefix = segments.slice(0, i).join('/');
    let next: string;
    try {
      next = resolveInsideRoot(root, prefix);
    } catch (error) {
      if (!isCredenceError(error, 'NOT_FOUND')) throw error;
      try {
        mkdirSync(join(current, segments[i - 1] as string));
      } catch (mkdirError) {
        if (errnoOf(mkdirError) !== 'EEXIST') throw fsFailure(mkdirError, prefix);
      }
      next = resolveInsideRoot(root, prefix);
    }
    if (!statSync(next).isDirectory()) {
      throw new CredenceError('INVALID_INPUT', `${show(prefix)} under the root ${show(root)} is not a folder`, {
        details: { path: prefix, root },
      });
    }
    current = next;
  }
  return current;
}

function removeInside(
  layout: SkillFileLayout,
  folder: string,
  fileName: string,
  files: FileWrites | undefined,
): RemovedFile {
  const path = `${folder}/${fileName}`;
  let dirReal: string;
  try {
    dirReal = resolveInsideRoot(layout.root, folder);
  } catch (error) {
    if (isCredenceError(error, 'NOT_FOUND') && existsRoot(layout.root)) return { path, removed: false };
    throw error;
  }
  const target = join(dirReal, fileName);
  // A file this run wrote and has not put in place yet is removed as if it were there.
  const dropped = files?.drop(target) ?? false;
  let stats: Stats;
  try {
    stats = lstatSync(target);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT' || errnoOf(error) === 'ENOTDIR') return { path, removed: dropped };
    throw fsFailure(error, path);
  }
  if (stats.isDirectory()) {
    throw new CredenceError(
      'INVALID_INPUT',
      `${show(path)} under the root ${show(layout.root)} is a folder, not a file`,
      { details: { path } },
    );
  }
  try {
    unlinkSync(target);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return { path, removed: dropped };
    throw fsFailure(error, path);
  }
  return { path, removed: true };
}

function realRoot(root: string): string {
  try {
    const real = realpathSync(root);
    if (!statSync(real).isDirectory())
      throw new CredenceError('INVALID_INPUT', `the root ${show(root)} is not a folder`, { details: { root } });
    return real;
  } catch (error) {
    if (isCredenceError(error)) throw error;
    throw new CredenceError('NOT_FOUND', `the root ${show(root)} does not exist`, { cause: error, details: { root } });
  }
}

function existsRoot(root: string): boolean {
  try {
    realRoot(root);
    return true;
  } catch {
    return false;
  }
}

// --- checks ---------------------------------------------------------------------------------

function requireName(field: string, name: string): void {
  if (!isValidSkillName(name)) {
    throw new CredenceError(
      'INVALID_INPUT',
      `${field} must be a valid skill name (1-64 characters of a-z, 0-9 and single hyphens, ` +
        'not starting or ending with one, without "anthropic" or "claude"; see slugify), ' +
        `got ${show(name)}`,
      { details: { [field]: name } },
    );
  }
}

function requireText(field: string, value: string, nonEmpty = false): string {
  if (typeof value !== 'string' || (nonEmpty && value.trim() === '')) {
    throw new CredenceError(
      'INVALID_INPUT',
      `${field} must be a ${nonEmpty ? 'non-empty ' : ''}string, got ${show(value)}`,
      { details: { [field]: value } },
    );
  }
  return value;
}

/** The confidence written with two decimals. */
function requireConfidence(field: string, value: number): string {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new CredenceError('INVALID_INPUT', `${field} must be a number in [0, 1], got ${show(value)}`, {
      details: { [field]: value },
    });
  }
  return value.toFixed(2);
}

const MAX_EPOCH_MS = 8.64e15;

function iso(field: string, ms: number): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || Math.abs(ms) > MAX_EPOCH_MS) {
    throw new CredenceError('INVALID_INPUT', `${field} must be a time in epoch milliseconds, got ${show(ms)}`, {
      details: { [field]: ms },
    });
  }
  return new Date(ms).toISOString();
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
