/**
 * What the prompt hook offers of instincts and skills follows what a session start loads (walk 12, item 4): a skill
 * contradicted below 0.5 (its file withdrawn) is no longer offered at a matching prompt, and a file that is gone is
 * never named.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence } from '../engine/engine.js';
import { learnedLines } from '../engine/session-summary.js';
import { resolveScope } from '../platform/git-scope.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { parseHookPayload } from './payload.js';
import { runPromptHook } from './prompt.js';
import { userCorrection as said } from '../../test/projects.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-02T09:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'credence-prompt-learned-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A project whose store learned a skill from `rule` (said three times, a day apart) at a fixed now, and the prompt
 * hook asked there at that now: its stdout.
 */
async function learnedProject(name: string, rule: readonly string[]) {
  const project = join(dir, name);
  mkdirSync(join(project, '.git'), { recursive: true });
  const db = join(dir, `${name}.db`);
  const scope = resolveScope({ cwd: project }).scope;
  const store = openSqliteStore({ path: db });
  const now = T0 + 2 * DAY + 3_600_000;
  const c = await openCredence({ store, scope, now: () => now, cwd: project });
  await c.observe(rule.map((text, k) => said(text, T0 + k * DAY)));
  const ask = async (prompt: string) => {
    const parsed = parseHookPayload(
      JSON.stringify({ session_id: 's1', cwd: project, hook_event_name: 'UserPromptSubmit', prompt }),
    );
    if (!parsed.ok) throw new Error(parsed.message);
    return (await runPromptHook(parsed.payload, { CREDENCE_DB: db, CREDENCE_NOW: new Date(now).toISOString() })).stdout;
  };
  return { c, store, project, ask };
}

describe('the prompt hook and learned skills', () => {
  it('offers a skill the session start loads, and no longer once contradicted below 0.5', async () => {
    const project = join(dir, 'project');
    mkdirSync(join(project, '.git'), { recursive: true });
    const db = join(dir, 'credence.db');
    const scope = resolveScope({ cwd: project }).scope;
    const store = openSqliteStore({ path: db });
    let now = T0 + 2 * DAY + 3_600_000;
    const c = await openCredence({ store, scope, now: () => now, cwd: project });
    const RG = ['Always use rg instead of grep', 'Always use rg instead of grep', 'always use rg instead of grep!!'];
    await c.observe(RG.map((text, k) => said(text, T0 + k * DAY)));
    const skill = (await c.evolve()).skillsUpdated[0];
    const file = skill?.file as string;
    expect(existsSync(join(project, file))).toBe(true);

    const ask = async (at: number) => {
      const parsed = parseHookPayload(
        JSON.stringify({
          session_id: 's1',
          cwd: project,
          hook_event_name: 'UserPromptSubmit',
          prompt: 'find where retryPolicy is used, rg or grep?',
        }),
      );
      if (!parsed.ok) throw new Error(parsed.message);
      const out = await runPromptHook(parsed.payload, { CREDENCE_DB: db, CREDENCE_NOW: new Date(at).toISOString() });
      expect(out.stderr).toBe('');
      return out.stdout;
    };
    const loaded = (at: number) => learnedLines({ store, scope, now: at });
    expect(await ask(now)).toMatch(new RegExp(`\\[SKILL, \\w+\\] rg \\(${file}\\)`));
    expect(await loaded(now)).toHaveLength(1);

    for (const [k, text] of ["actually, don't use rg anymore, use git grep", 'use git grep instead of rg'].entries()) {
      const t = T0 + (16 + 2 * k) * DAY;
      now = t + 3_600_000;
      await c.observe([said(text, t)]);
      await c.evolve();
    }
    expect(existsSync(join(project, file))).toBe(false);
    expect(await loaded(now + DAY)).toEqual([]);
    expect(await ask(now + DAY)).not.toContain('rg');
    await store.close();
  });

  it('names no file that is gone: a skill whose file was deleted is offered without one', async () => {
    const RG = ['Always use rg instead of grep', 'Always use rg instead of grep', 'always use rg instead of grep!!'];
    const { c, store, project, ask } = await learnedProject('deleted', RG);
    const file = (await c.evolve()).skillsUpdated[0]?.file as string;
    rmSync(join(project, file));
    const out = await ask('rg or grep?');
    expect(out).toMatch(/\[SKILL, \w+\] rg: /);
    expect(out).not.toContain('SKILL.md');
    await store.close();
  });

  it('offers a skill only at a prompt sharing a word of its topic, not "use" or "here" (walk 17 item 8)', async () => {
    const RG = ['Always use rg here instead of grep', 'Always use rg here instead of grep', 'always use rg here!!'];
    const { c, store, ask } = await learnedProject('topic', RG);
    expect((await c.evolve()).skillsUpdated).toHaveLength(1);
    expect(await ask('Can you use a Map here?')).not.toContain('[SKILL');
    expect(await ask('Always use the staging config here')).not.toContain('[SKILL');
    expect(await ask('rg?')).toContain('[SKILL');
    expect(await ask('search the logs with grep')).toContain('[SKILL');
    await store.close();
  });

  it('offers a skill at a prompt naming its topic in another form, "deploying" (review G item 4)', async () => {
    const RULE = [
      'Always deploy to staging before production',
      'Always deploy to staging before production',
      'always deploy to staging before production!!',
    ];
    const { c, store, ask } = await learnedProject('deploying', RULE);
    expect((await c.evolve()).skillsUpdated).toHaveLength(1);
    expect(await ask('Can you deploy it?')).toContain('[SKILL');
    expect(await ask('How are we deploying this?')).toContain('[SKILL');
    expect(await ask('Can you use a Map here?')).not.toContain('[SKILL');
    await store.close();
  });
});
