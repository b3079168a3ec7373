/**
 * @module mcp/prompts
 * The MCP prompts (issue 22): `recall`, `status` and `evolve`, the same actions as the Claude Code
 * plugin's slash commands. `recall` and `status` read the engine and put what it answers in the
 * message (reading records each recalled item as shown, as the `recall` tool does); `evolve`
 * writes files, so its prompt only asks the agent to call the `evolve` tool, never runs it on a
 * `prompts/get`. An unknown prompt or a missing argument is a protocol error (-32602) naming it.
 */
import { ErrorCode, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import { isCredenceError } from '../core/errors.js';
import { chooseContext } from '../core/recall/agent-context.js';
import { scopeOrigin } from '../core/scope/scope.js';
import { unexpectedErrorSummary } from '../core/text/error-summary.js';
import type { Credence } from '../engine/engine.js';
import { protocolError } from './results.js';

interface PromptDefinition extends Prompt {
  get: (credence: Credence, args: Record<string, string>) => Promise<string>;
}

const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'recall',
    title: 'Recall',
    description: 'What Credence remembers about a question, labelled high / medium / low',
    arguments: [{ name: 'query', description: 'what to remember, in words', required: true }],
    get: async (credence, args) => {
      const query = args.query ?? '';
      // A memory a later one superseded is left out, but for a question about the past (its answer), marked; a
      // conflict is marked: chosen as every surface does (core/recall/agent-context, issue 23).
      const chosen = chooseContext(await credence.recall(query), query, credence.now());
      if (chosen.length === 0)
        return `Credence remembers nothing relevant to "${query}". Say so plainly rather than guessing.`;
      // What was remembered, as the context block says it: a turn's speaker, date and words; a memory's title, date
      // and the text around the query's words.
      const lines = chosen.map(
        ({ result: r, line }) =>
          `- [${r.label} ${r.score.toFixed(2)}] ${r.category}: ${line.title}` +
          `${line.date === undefined ? '' : `, ${line.date}`}` +
          `${line.note === undefined ? '' : ` (${line.note})`}` +
          `${r.path === null ? '' : ` (${r.path})`}${r.tags.length === 0 ? '' : ` #${r.tags.join(' #')}`}` +
          `${line.snippet === undefined || line.snippet === '' ? '' : `: ${line.snippet}`}`,
      );
      return (
        `Credence recalled this for "${query}":\n\n${lines.join('\n')}\n\n` +
        'Use what is labelled high first and say which memories you relied on; treat medium and low as hints ' +
        "to check. The recall tool gives each result's score parts."
      );
    },
  },
  {
    name: 'status',
    title: 'Status',
    description: "Where Credence's store is, the scope of this project, and what it has learned so far",
    get: async (credence) => {
      const status = await credence.status();
      const counts = Object.entries(status.counts).map(([table, n]) => `${table} ${n}`);
      return (
        `Credence's store: ${status.db} (${status.store}, schema ${status.schemaVersion}); scope ${status.scope} ` +
        `${scopeOrigin(status.scopeSource)}.\nCounts: ${counts.join(', ')}.\n\n` +
        'Summarise this for the user in a few lines; do not run anything else.'
      );
    },
  },
  {
    name: 'evolve',
    title: 'Evolve',
    description: 'Turn the habits Credence observed into instincts and skills now',
    arguments: [{ name: 'dry_run', description: '"true" to see what would change without writing', required: false }],
    get: async (_credence, args) => {
      const dryRun = args.dry_run !== undefined && /^(true|yes|1)$/i.test(args.dry_run.trim());
      return (
        `Call Credence's evolve tool${dryRun ? ' with dry_run true' : ''}. Then report what it learned: each new ` +
        'or changed instinct and skill with its confidence and the file it was written to, and what was ignored ' +
        'and why.'
      );
    },
  },
];

/** The prompts as `prompts/list` gives them. */
export function listPrompts(): Prompt[] {
  return PROMPTS.map(({ get: _get, ...prompt }) => prompt);
}

/**
 * One prompt as `prompts/get` gives it: a single user message.
 * @throws a protocol error (mcp/results protocolError) InvalidParams for an unknown prompt or a required argument
 * missing or blank.
 */
export async function getPrompt(
  credence: Credence,
  name: string,
  args: Record<string, string> = {},
): Promise<GetPromptResult> {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (prompt === undefined)
    throw protocolError(
      ErrorCode.InvalidParams,
      `unknown prompt "${name}"; the prompts are ${PROMPTS.map((p) => p.name).join(', ')}`,
    );
  for (const argument of prompt.arguments ?? [])
    if (argument.required === true && (args[argument.name] ?? '').trim() === '')
      throw protocolError(ErrorCode.InvalidParams, `prompt "${name}" needs the argument "${argument.name}"`);
  let text: string;
  try {
    text = await prompt.get(credence, args);
  } catch (error) {
    // As the tools do: the engine's own refusal with its message; anything else without its text.
    if (isCredenceError(error)) throw protocolError(ErrorCode.InvalidParams, `prompt "${name}": ${error.message}`);
    throw protocolError(ErrorCode.InternalError, `prompt "${name}" failed: ${unexpectedErrorSummary(error)}`);
  }
  return {
    description: prompt.description,
    messages: [{ role: 'user', content: { type: 'text', text } }],
  };
}
