/**
 * @module schemas/format — zod issues as one readable line: `calls[2].consumes[0]: <message>`, the
 * same problem at many positions folded into one entry (`calls[2–299].status: … (298 calls)`, core/text/issue-list).
 */
import type { z } from 'zod';
import { describeIssues } from '../core/text/issue-list.js';

export function formatIssues(error: z.ZodError): string {
  return describeIssues(error.issues.map((issue) => ({ path: issue.path, message: issue.message })));
}
