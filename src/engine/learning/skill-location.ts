/**
 * @module engine/learning/skill-location
 * Where evolve writes skills so that the agent reads them (issue 21). Claude Code loads a project's
 * skills from `.claude/skills/<name>/SKILL.md`; a project uses Claude Code when it has a `.claude/`
 * folder inside its root (the folder Claude Code keeps its project settings in, and the one
 * `credence init --claude-code` writes its hooks and `.claude/skills/` into). Such a project's
 * skills go there; any other project's go to the configured folder (`<dir>/skills`, `.credence/skills`
 * by default). A folder given by the caller (`--skills-dir`) always wins.
 */
import { statSync } from 'node:fs';
import { isCredenceError } from '../../core/errors.js';
import { resolveInsideRoot } from '../../platform/files.js';

export const SKILL_LOCATION_DEFAULTS = Object.freeze({
  /** The folder whose presence says the project uses Claude Code. @default '.claude' */
  claudeDir: '.claude',
  /** Where Claude Code loads a project's skills from, root-relative. @default '.claude/skills' */
  claudeSkillsDir: '.claude/skills',
});

/** Why skills go where they go (reported with the evolve report). */
export type SkillsDirReason = 'given' | 'claude-code' | 'default';

/**
 * The skills folder for a project: the one given, else `.claude/skills` when `root` holds a `.claude/`
 * folder (a link to one inside the root counts; one leading outside does not), else undefined (the
 * layout's default, `<dir>/skills`).
 */
export function agentSkillsDir(
  root: string,
  given?: string,
): { skillsDir: string | undefined; reason: SkillsDirReason } {
  if (given !== undefined) return { skillsDir: given, reason: 'given' };
  return usesClaudeCode(root)
    ? { skillsDir: SKILL_LOCATION_DEFAULTS.claudeSkillsDir, reason: 'claude-code' }
    : { skillsDir: undefined, reason: 'default' };
}

/** Whether the project at `root` uses Claude Code: a `.claude/` folder resolving inside the root. */
export function usesClaudeCode(root: string): boolean {
  try {
    return statSync(resolveInsideRoot(root, SKILL_LOCATION_DEFAULTS.claudeDir)).isDirectory();
  } catch (error) {
    // Missing, outside the root or unreadable: not a Claude Code project as far as skills go.
    if (isCredenceError(error) || (error as NodeJS.ErrnoException).code !== undefined) return false;
    throw error;
  }
}
