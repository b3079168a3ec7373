/**
 * @module core/security/redact-url
 * A URL as Credence shows it (`status`, messages). A PostgreSQL URL (redactUrl): the password of its user part and
 * every query value named like a secret (pass, secret, token, key) hidden, even in text that is no URL (whatever
 * stands before its last `@` after a `:`). An embeddings provider's URL (redactHttpUrl), which never needs a user
 * part: the whole user part, the fragment and every query value not obviously harmless hidden. And what keeps a
 * PostgreSQL URL from being read, said without its password (an unencoded `@ / # ?`, a bad port). Pure.
 */

const SECRET_PARAM = /pass|secret|token|key/i;

/** A scheme and the slashes after it: `postgres:`, `postgresql:/`, or any `scheme://`. */
const SCHEME = /^(?:postgres(?:ql)?:\/*|[a-z][a-z0-9+.-]*:\/\/)/i;

/** A `name=value` pair of a query or of a libpq `key=value` string; a value may be quoted. */
const PAIR = /(^|[?&;\s])([^=?&;\s]+)=('(?:[^'\\]|\\.)*'?|[^&;\s]*)/g;

/** The URL with its password and secret query parameters shown as `***`. */
export function redactUrl(url: string): string {
  const parsed = parseUrl(url);
  if (parsed === undefined || strayAt(parsed) || portFromPassword(parsed)) return redactText(url);
  if (parsed.password !== '') parsed.password = '***';
  for (const name of new Set(parsed.searchParams.keys())) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, '***');
  }
  return parsed.toString();
}

/** Query parameters of a provider's URL whose values are shown: they name a version or a model, never a secret. */
const HARMLESS_PARAM = /^(?:api[-_]?version|version|v|model|deployment|region|format)$/i;

/**
 * An embeddings provider's URL as messages show it: any user name or password (a token given as a user name, a
 * percent-encoded `user%3Apassword`) as one `***`, the fragment left out (it is never sent), and the value of every
 * query parameter but a version, model, deployment, region or format as `***`. Text that is no URL likewise.
 */
export function redactHttpUrl(url: string): string {
  const parsed = parseUrl(url);
  if (parsed === undefined || strayAt(parsed)) {
    const { scheme, userinfo, rest } = splitText(url.replace(/#.*$/s, ''));
    const params = rest.replace(PAIR, (pair, before: string, name: string) =>
      HARMLESS_PARAM.test(name) ? pair : `${before}${name}=***`,
    );
    return `${scheme}${userinfo === undefined ? '' : '***@'}${params}`;
  }
  if (parsed.username !== '' || parsed.password !== '') {
    parsed.username = '***';
    parsed.password = '';
  }
  parsed.hash = '';
  for (const name of new Set(parsed.searchParams.keys())) {
    if (!HARMLESS_PARAM.test(name)) parsed.searchParams.set(name, '***');
  }
  return parsed.toString();
}

/** The URL shown as {@link redactUrl} does, naming `schema` as its `?schema=` parameter. */
export function withSchema(shown: string, schema: string): string {
  const parsed = parseUrl(shown);
  if (parsed === undefined) return `${shown} (schema ${schema})`;
  parsed.searchParams.set('schema', schema);
  return parsed.toString();
}

/**
 * What stops the PostgreSQL driver from reading `url` (which it reads as `new URL` does once spaces and
 * stray `%` are encoded, an empty host allowed), or that puts part of a password after the host; undefined
 * when nothing does. Names no part of the password.
 */
export function urlProblem(url: string): string | undefined {
  let text = url;
  if (/ |%[^a-f0-9]|%[a-f0-9][^a-f0-9]/i.test(text)) text = encodeURI(text).replace(/%25(\d\d)/g, '%$1');
  const parsed = parseUrl(text) ?? parseUrl(text.replace('@/', '@___DUMMY___/'));
  if (parsed !== undefined && !strayAt(parsed)) return undefined;
  const { userinfo, host } = splitText(url);
  const problems: string[] = [];
  const port = /^(?:\[[^\]]*\]|[^:[\]]*):(.*)$/.exec(host)?.[1];
  if (port !== undefined && port !== '' && !(/^\d{1,5}$/.test(port) && Number(port) <= 65535)) {
    problems.push(`its port ${JSON.stringify(port)} is not a number from 1 to 65535`);
  }
  if (/[/#?]/.test(userinfo ?? '') || (parsed !== undefined && userinfo !== undefined)) {
    problems.push('a user name or password holding @ / # ? must have them percent-encoded (%40 %2F %23 %3F)');
  }
  if (problems.length === 0) problems.push('it is not a URL that can be read');
  return problems.join('; ');
}

function parseUrl(text: string): URL | undefined {
  // With an authority only: `postgres:user:password@host` parses as an opaque path that hides nothing.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * Whether a URL read with no user but a port has an `@` in its query: a password of digits then `?` made the user the
 * host and the password's digits its port (`u:2024?pw=x@h`, reviews C and D). Shown as text, with everything before
 * the last `@` after the first `:` hidden; a valid URL of that shape is only shown with more hidden than needed.
 */
function portFromPassword(parsed: URL): boolean {
  return parsed.username === '' && parsed.port !== '' && parsed.search.includes('@');
}

/**
 * Whether an `@` stands after the host (in the path, after `#`, or in a query parameter's name): the host
 * then ended inside a password holding `/ # ?`, and its rest would be shown.
 */
function strayAt(parsed: URL): boolean {
  if (parsed.pathname.includes('@') || parsed.hash.includes('@')) return true;
  return [...parsed.searchParams.keys()].some((name) => name.includes('@'));
}

/** The text before its last `@` (after a scheme), and the host and port after it. */
function splitText(text: string): { scheme: string; userinfo?: string; rest: string; host: string } {
  const scheme = SCHEME.exec(text)?.[0] ?? '';
  const body = text.slice(scheme.length);
  const at = body.lastIndexOf('@');
  const rest = at < 0 ? body : body.slice(at + 1);
  const host = /^[^/?#]*/.exec(rest)?.[0] ?? '';
  return at < 0 ? { scheme, rest, host } : { scheme, userinfo: body.slice(0, at), rest, host };
}

/** Text that is not a URL with an authority, its user part's password and secret parameters hidden. */
function redactText(text: string): string {
  const { scheme, userinfo, rest } = splitText(text);
  const colon = userinfo?.indexOf(':') ?? -1;
  const user = userinfo === undefined ? '' : colon < 0 ? `${userinfo}@` : `${userinfo.slice(0, colon)}:***@`;
  const params = rest.replace(PAIR, (pair, before: string, name: string) =>
    SECRET_PARAM.test(name) ? `${before}${name}=***` : pair,
  );
  return `${scheme}${user}${params}`;
}
