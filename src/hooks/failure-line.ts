/**
 * @module hooks/failure-line
 * A hook's one stderr line for a failure of its store: SQLite's own messages ("database disk image is malformed")
 * name no file, so the line names the store's file (walk 6, item 8).
 */

/** `<event>: <message>`, with the SQLite file named when the driver's message does not name it. */
export function storeFailureLine(event: string, error: unknown, path: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const sqlite = typeof code === 'string' && code.startsWith('SQLITE_');
  return sqlite && !message.includes(path)
    ? `${event}: the database ${path} failed: ${message}`
    : `${event}: ${message}`;
}
