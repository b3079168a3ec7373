/**
 * @module engine/learning/forgotten-files
 * `forget` on one machine leaves a tombstone in the store (LearningStore.recordForgotten); every machine sharing the
 * store takes the forgotten item's file out of its own project at its next `evolve` (instinct and skill files) and
 * session start (skill files only, the ones the agent loads): a `SKILL.md` holding only Credence's text goes with its
 * folder, one with a human's text keeps it and loses Credence's section (as `forget` does locally), an instinct's
 * file goes; a file without Credence's markers is never touched. Only the layout's folders under the project root
 * are looked in; a learned item of the same name is left.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isValidSkillName } from '../../core/learning/slug.js';
import type { ForgottenRecord, LearningStore } from '../../store/types.js';
import {
  skillFileLayout,
  withdrawInstinctFile,
  withdrawSkillFile,
  type SkillFileLayoutOptions,
} from './skill-files.js';
import { agentSkillsDir } from './skill-location.js';

/** A file of a forgotten instinct or skill taken out (or, in a dry run, that would be), or kept for a problem. */
export interface ForgottenFile {
  id: string;
  kind: 'instinct' | 'skill';
  name: string;
  /** Root-relative path of the file. */
  path: string;
  /** When it was forgotten (epoch milliseconds). */
  at: number;
  /** `removed`: the file went; `withdrawn`: Credence's section went, a human's text stays; `kept`: see `problem`. */
  outcome: 'removed' | 'withdrawn' | 'kept';
  /** Why it was kept (its markers are broken, it cannot be read inside the root). */
  problem?: string;
}

/**
 * Takes the files of the tombstones `forgotten` out of the layout's folders: skills' `SKILL.md` (always) and
 * instincts' files (`kinds` with `instinct`). Files already gone are not listed; a file that cannot be handled is
 * listed as `kept` with its problem, and the others are still handled. `dryRun`: what it would do, nothing changed.
 */
export function withdrawForgottenFiles(
  layout: SkillFileLayoutOptions,
  forgotten: readonly ForgottenRecord[],
  options: { kinds?: readonly ('instinct' | 'skill')[]; dryRun?: boolean } = {},
): ForgottenFile[] {
  const kinds = new Set(options.kinds ?? ['instinct', 'skill']);
  const dryRun = options.dryRun === true;
  const { skillsDir, instinctsDir } = skillFileLayout(layout);
  const out: ForgottenFile[] = [];
  for (const f of forgotten) {
    // A name no file of Credence's can have (a hand-edited dump) names no file.
    if (!kinds.has(f.kind) || !isValidSkillName(f.name)) continue;
    const path = f.kind === 'skill' ? `${skillsDir}/${f.name}/SKILL.md` : `${instinctsDir}/${f.name}.md`;
    const entry = { id: f.id, kind: f.kind, name: f.name, path, at: f.at };
    try {
      if (f.kind === 'skill') {
        const r = withdrawSkillFile(layout, f.name, dryRun);
        if (r.removed) out.push({ ...entry, outcome: r.keptText === true ? 'withdrawn' : 'removed' });
      } else if (withdrawInstinctFile(layout, f.name, dryRun).removed) {
        out.push({ ...entry, outcome: 'removed' });
      }
    } catch (error) {
      out.push({ ...entry, outcome: 'kept', problem: (error as Error).message });
    }
  }
  return out;
}

/**
 * At a session start: the skill files of the scope's tombstones taken out of the project at `root`, in the folder
 * `evolve` writes skills to by default (`.claude/skills` in a Claude Code project, else `.credence/skills`). The
 * folder's names are read first, and the store asked for skill tombstones among those whose `SKILL.md` exists (one
 * indexed query): the cost follows the folder, not the history. Returns the files handled (none: nothing was there).
 */
export async function withdrawForgottenSkillsAtStart(ctx: {
  store: Pick<LearningStore, 'listForgotten'>;
  scope: string;
  root: string;
}): Promise<ForgottenFile[]> {
  const { skillsDir } = agentSkillsDir(ctx.root);
  const layout = { root: ctx.root, ...(skillsDir === undefined ? {} : { skillsDir }) };
  const names = skillFolderNames(join(ctx.root, skillFileLayout(layout).skillsDir));
  if (names.length === 0) return [];
  const forgotten = await ctx.store.listForgotten(ctx.scope, { kind: 'skill', names });
  if (forgotten.length === 0) return [];
  return withdrawForgottenFiles(layout, forgotten, { kinds: ['skill'] });
}

/** The names in a skills folder with a `SKILL.md` (a file, or a link to one); a folder not there has none. */
function skillFolderNames(folder: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names.filter((name) => isValidSkillName(name) && existsSync(join(folder, name, 'SKILL.md')));
}

/** At most this many files are named in a line, the others counted; a problem is cut to 100 characters. */
const NAMED = 3;

/** One line for what was done (`removed …; kept …: why`), bounded in length, or undefined when nothing was. */
export function forgottenFilesLine(files: readonly ForgottenFile[]): string | undefined {
  if (files.length === 0) return undefined;
  const done = files.filter((f) => f.outcome !== 'kept');
  const kept = files.filter((f) => f.outcome === 'kept');
  const parts: string[] = [];
  if (done.length > 0)
    parts.push(
      `took out the files of ${done.length} skill${done.length === 1 ? '' : 's'} forgotten in the shared store: ` +
        named(done, (f) => f.path + (f.outcome === 'withdrawn' ? " (Credence's section; your text kept)" : '')),
    );
  if (kept.length > 0)
    parts.push(`kept ${named(kept, (f) => `${f.path} (${cut(f.problem ?? 'unknown problem', 100)})`)}`);
  return parts.join('; ');
}

function named(files: readonly ForgottenFile[], show: (f: ForgottenFile) => string): string {
  const shown = files.slice(0, NAMED).map(show).join(', ');
  return files.length > NAMED ? `${shown} and ${files.length - NAMED} more` : shown;
}

function cut(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
