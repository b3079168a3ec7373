/**
 * @module core/text/error-summary
 * What a client (an MCP agent, the dashboard's page) is told of an error Credence did not
 * anticipate: a bug, or a database driver refusing a statement. Such a message is written for the
 * one who runs the server, not for the client: a driver's text can quote stored values or SQL,
 * and a stack names files. So the client gets one short line, the error's class and, for a
 * database error, its SQLSTATE code; the whole error goes to the server's log. Errors Credence
 * anticipates (CredenceError) keep their own message, which is written for the client.
 */

const NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
const CODE = /^[A-Z0-9_]{1,40}$/;

/** `an internal error (TypeError)`, `an internal error (DatabaseError 22021)`: nothing of the message. */
export function unexpectedErrorSummary(error: unknown): string {
  const name = error instanceof Error && NAME.test(error.name) ? error.name : 'Error';
  const code: unknown = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return `an internal error (${name}${typeof code === 'string' && CODE.test(code) ? ` ${code}` : ''})`;
}
