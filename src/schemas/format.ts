/** @module schemas/format — zod issues as one readable line: `calls[2].consumes[0]: <message>`. */
import type { z } from 'zod';

export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.reduce<string>(
        (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text === '' ? String(part) : `${text}.${String(part)}`),
        '',
      );
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}
