/**
 * @module cli/batch-lines
 * The checked shapes of what `--batch` and `dag --validate` read (zod at the boundary), in a
 * module of their own: loaded by the commands that read such input, never by the others.
 */
import { z } from 'zod';
import { CredenceError } from '../core/errors.js';
import { formatIssues, PLAIN_ISSUES } from '../schemas/format.js';
import { WorkflowSchema } from '../schemas/workflow.js';

const RecallLineSchema = z.strictObject({ query: z.string() });

const SearchLineSchema = z.strictObject({
  query: z.string().trim().min(1, 'must be a non-empty query'),
  context: z.array(z.string()).optional(),
});

/**
 * A line of `dag --batch`: its intent, as every other part of `dag` names it, or `query`, as `tools search --batch`
 * takes it (walk 14: `intent` was refused as an unknown field); one of the two.
 */
const DagLineSchema = z
  .strictObject({
    intent: z.string().trim().min(1, 'must be a non-empty intent').optional(),
    query: z.string().trim().min(1, 'must be a non-empty query').optional(),
    context: z.array(z.string()).optional(),
  })
  .superRefine((line, ctx) => {
    if (line.intent === undefined && line.query === undefined)
      ctx.addIssue({ code: 'custom', path: ['intent'], message: 'is required (or query)' });
    else if (line.intent !== undefined && line.query !== undefined)
      ctx.addIssue({ code: 'custom', path: [], message: 'give intent or query, not both' });
  });

export type RecallLine = z.infer<typeof RecallLineSchema>;
export type SearchLine = z.infer<typeof SearchLineSchema>;
export type DagLine = z.infer<typeof DagLineSchema>;
export type Workflow = z.infer<typeof WorkflowSchema>;

/** A checked value, or INVALID_INPUT naming every issue (`prefix` before them). */
const checked =
  <T>(schema: z.ZodType<T>, prefix = '') =>
  (value: unknown): T => {
    const parsed = schema.safeParse(value, PLAIN_ISSUES);
    if (!parsed.success) throw new CredenceError('INVALID_INPUT', `${prefix}${formatIssues(parsed.error)}`);
    return parsed.data;
  };

/** A line of `recall --batch`: {"query"}. */
export const recallLine = checked(RecallLineSchema);
/** A line of `tools search --batch`: {"query", "context"?}. */
export const searchLine = checked(SearchLineSchema);
/** A line of `dag --batch`: {"intent" (or "query"), "context"?}. */
export const dagLine = checked(DagLineSchema);
/** The workflow of `dag --validate`: {"tasks": [{id, tool, arguments?, dependsOn?}]}, as `execute_dag` takes it. */
export const workflow = checked(WorkflowSchema, 'invalid workflow: ');
