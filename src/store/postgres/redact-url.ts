/**
 * @module store/postgres/redact-url
 * A PostgreSQL URL as Credence shows it (`status`, messages, the demo's hint): with the password of
 * its user part hidden, and the value of every query parameter that can hold a secret:
 * `password`, `sslpassword`, and any whose name contains pass, secret, token or key.
 */

const SECRET_PARAM = /pass|secret|token|key/i;

/** The URL with its password and secret query parameters shown as `***`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    for (const name of new Set(parsed.searchParams.keys())) {
      if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, '***');
    }
    return parsed.toString();
  } catch {
    return '(unparseable PostgreSQL URL)';
  }
}
