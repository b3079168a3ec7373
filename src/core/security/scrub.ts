/**
 * @module core/security/scrub
 * Secret scrubbing, SPEC §10: every text field is scrubbed before anything is stored or indexed. Pure.
 * Each secret becomes `[REDACTED:<kind>]`, its frame kept (`API_KEY=[REDACTED:credential]`). Recognised:
 * vendor token formats, private keys, webhook URLs, credential files and commands, auth headers, cookies,
 * URL passwords, credential assignments and flags, also percent-encoded (the list: docs/security.md).
 * Assignment values that read as code (calls, member paths, variables, URLs, paths, bare names after a
 * spaced `=`, placeholders, digit-only counts) are references, not secrets. Ordinary hashes and ids stay.
 * Idempotent; linear time (prefilter, no nested quantifiers, bounded scans). JSON values: {@link scrubValue}.
 */

/** Every kind of secret the scrubber recognises, in rule priority order. */
export const SECRET_KINDS = Object.freeze([
  'private-key',
  'jwt',
  'anthropic-key',
  'openai-key',
  'github-token',
  'aws-access-key-id',
  'aws-secret-key',
  'slack-token',
  'stripe-key',
  'google-api-key',
  'npm-token',
  'gitlab-token',
  'huggingface-token',
  'sendgrid-key',
  'vault-token',
  'discord-token',
  'webhook-url',
  'cookie',
  'url-password',
  'basic-auth',
  'bearer-token',
  'authorization',
  'credential',
] as const);

/** The kind of a redacted secret; it names the marker `[REDACTED:<kind>]`. */
export type SecretKind = (typeof SECRET_KINDS)[number];

/** One redaction: its kind and where its marker starts in the scrubbed text. */
export interface Redaction {
  readonly kind: SecretKind;
  /** Offset (UTF-16 code units) of the `[REDACTED:<kind>]` marker in the returned text. */
  readonly index: number;
}

/** The scrubbed text and what was taken out of it, in text order. */
export interface ScrubResult {
  readonly text: string;
  readonly redactions: readonly Redaction[];
}

/** The constants of the scrubber: marker format and the thresholds of the assignment rule. */
export const SCRUB_DEFAULTS = Object.freeze({
  /** Opens a redaction marker. @default '[REDACTED:' */
  markerPrefix: '[REDACTED:',
  /** Closes a redaction marker. @default ']' */
  markerSuffix: ']',
  /** Shortest value redacted after a credential key or flag. @default 3 */
  minValueLength: 3,
  /** Shortest digit-free word after a spaced separator taken as a literal, not a variable. @default 8 */
  minBareWordLength: 8,
  /** Shortest token after a bare `Bearer` or an `Authorization:` header with an unknown scheme. @default 8 */
  minTokenLength: 8,
});

/** The marker that replaces a secret of `kind`: `[REDACTED:<kind>]`. */
export function redactionMarker(kind: SecretKind): string {
  return `${SCRUB_DEFAULTS.markerPrefix}${kind}${SCRUB_DEFAULTS.markerSuffix}`;
}

// ---------------------------------------------------------------------------------------------
// Value tests shared by the rules

const HAS_DIGIT = /[0-9]/;
const HAS_LETTER = /[A-Za-z]/;
const HAS_UPPER = /[A-Z]/;
const HAS_LOWER = /[a-z]/;
const ONLY_DIGITS = /^[0-9]+$/;
const HAS_SPACE = /\s/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const MEMBER_PATH = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+!?$/;
const INDEXING_OR_GENERIC = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*[[<]/;
const TRAILING_MARKS = /^[.!?]*/;
const BASIC_PAYLOAD = /^[\x21-\x39\x3b-\x7e]+:[\x20-\x7e]+$/;
const CAMEL_BOUNDARY = /([a-z0-9])([A-Z])/g;
const ACRONYM_BOUNDARY = /([A-Z]+)([A-Z][a-z])/g;
const WORD_SEPARATORS = /[^a-z0-9]+/;
const CAMEL_CASE = /[a-z][A-Z]/;
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
const PATH_LIKE = /^(?:~|\.{1,2})?\/[\w./-]*$/;
const NAMES_A_SECRET = /pass|pwd|secret|token|key|auth|cred/i;
/** One credential word, the way a name or a kind is written (`passwords`, `credentials`, `authorization`). */
const ONE_CREDENTIAL_WORD = new RegExp(
  String.raw`^(?:pass(?:word|phrase|code|key)?|passwd|(?:api|access|refresh|auth|secret|private|session)?` +
    String.raw`(?:key|token|secret)|auth(?:orization|entication)?|cred(?:ential)?)s?$`,
);
/** The value of a flag that points at a secret (`docker build --secret id=npm,src=…`, `--secret type=env,…`). */
const SECRET_REFERENCE = /^(?:id|src|source|type|env|target|required|mode|uid|gid)=/i;
const SAME_CHARACTER = /^(.)\1*$/s;
const PLACEHOLDER = /^(?:\$|%\(|%s$|\{\{|\{%|<[^<>]*>$|\[REDACTED:|(?:process\.env|os\.environ|import\.meta\.env)\b)/i;
const RESERVED_VALUES: ReadonlySet<string> = new Set([
  'null',
  'none',
  'nil',
  'undefined',
  'true',
  'false',
  'yes',
  'no',
  'on',
  'off',
  'required',
  'optional',
  'string',
  'str',
  'number',
  'int',
  'integer',
  'bool',
  'boolean',
  'any',
  'unknown',
  'object',
  'bytes',
  'redacted',
  'hidden',
  'masked',
  'empty',
  'password',
  'passwd',
  'secret',
  'token',
  'key',
  'value',
  'function',
  'new',
  'this',
  'self',
  'await',
  'async',
  'yield',
  'typeof',
  'lambda',
  'require',
  'import',
  'class',
]);

function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value) || SAME_CHARACTER.test(value) || RESERVED_VALUES.has(value.toLowerCase());
}

/** A token with no frame around it: long enough and mixed like generated text, unlike a word. */
function looksGenerated(token: string): boolean {
  if (token.length < SCRUB_DEFAULTS.minTokenLength) return false;
  if (HAS_DIGIT.test(token) && HAS_LETTER.test(token)) return true;
  return token.length >= 20 && HAS_UPPER.test(token) && HAS_LOWER.test(token);
}

const OPENERS: Readonly<Record<string, string>> = Object.freeze({ ')': '(', ']': '[', '}': '{', '>': '<' });

/**
 * An unquoted value without what it swallowed from its surroundings: trailing punctuation and
 * closing brackets it has no opener for (`abc}` in `{pw:abc}`, `Kind):` in `(token: Kind):`).
 */
function withoutSurroundings(value: string): string {
  let end = value.length;
  for (; end > 0; end--) {
    const last = value[end - 1] ?? '';
    if ('.:!?'.includes(last)) continue;
    const opener = OPENERS[last];
    if (opener === undefined || value.lastIndexOf(opener, end - 1) !== -1) break;
  }
  return value.slice(0, end);
}

type KeyClass = 'password' | 'token';

const PASSWORD_WORDS: ReadonlySet<string> = new Set(['password', 'passwd', 'passphrase', 'pass', 'pwd']);
const TOKEN_WORDS: ReadonlySet<string> = new Set([
  'secret',
  'token',
  'credential',
  'credentials',
  'apikey',
  'secretkey',
  'privatekey',
  'accesskey',
  'authkey',
]);
const KEY_QUALIFIERS: ReadonlySet<string> = new Set([
  'api',
  'secret',
  'private',
  'access',
  'auth',
  'signing',
  'encryption',
  'master',
  'session',
  'client',
  'license',
  'app',
  'account',
  'shared',
  'webhook',
  'service',
  'admin',
  'subscription',
]);
const KEY_SUFFIXES: ReadonlySet<string> = new Set(['base', 'value', 'b64', 'base64']);

/**
 * A last word with a credential word glued to a prefix without a separator (`PGPASSWORD`,
 * `adminpassword`, `NPMTOKEN`, `clientsecret`): it ends with password/passwd/passphrase/pwd or
 * token/secret. English has no other words ending so, except `OLDPWD`, the shell's previous
 * directory. A glued `pass` is not enough (`bypass`, `compass`, `surpass`, `trespass`): only after
 * a prefix that names an account, a service or a keystore ({@link GLUED_PASS}).
 */
const GLUED_PASSWORD = /(?:password|passwd|passphrase|pwd)$/;
const GLUED_TOKEN = /(?:token|secret)$/;
const GLUED_PASS = /(?:db|pg|sql|admin|root|user|ssh|smtp|mail|ftp|ldap|redis|key|store)pass$/;
const NOT_GLUED_CREDENTIALS: ReadonlySet<string> = new Set(['oldpwd']);

/**
 * Whether a key or flag name names a credential, judged on its last word
 * (`DB_PASSWORD`, `apiKey`, `x-api-key`, `--client-secret`, `PGPASSWORD`, `NPMTOKEN`, `DBPASS`; not
 * `PWD`, `OLDPWD`, `bypass`, `compass`, `max_tokens`, `primary_key`, `token_type`,
 * `keypass_enabled`).
 */
function keyClass(key: string): KeyClass | undefined {
  const words = key
    .replace(CAMEL_BOUNDARY, '$1_$2')
    .replace(ACRONYM_BOUNDARY, '$1_$2')
    .toLowerCase()
    .split(WORD_SEPARATORS)
    .filter((w) => w.length > 0);
  if (words.length > 1 && KEY_SUFFIXES.has(words.at(-1) ?? '')) words.pop();
  const last = words.at(-1);
  if (last === undefined) return undefined;
  if (PASSWORD_WORDS.has(last)) return words.length === 1 && last === 'pwd' ? undefined : 'password';
  if (TOKEN_WORDS.has(last)) return 'token';
  if (last === 'key' && KEY_QUALIFIERS.has(words.at(-2) ?? '')) return 'token';
  if (NOT_GLUED_CREDENTIALS.has(last)) return undefined;
  if (GLUED_PASSWORD.test(last) || GLUED_PASS.test(last)) return 'password';
  if (GLUED_TOKEN.test(last)) return 'token';
  return undefined;
}

/**
 * How a value follows its key: quoted; unquoted right after the separator (`KEY=v`, `key:v`);
 * after a spaced colon (`key: v`, YAML and object literals); after a spaced `=`, `:=` or `=>`
 * (`key = v`, the way code assigns); or after a CLI flag (`--password v`).
 */
type ValueForm = 'quoted' | 'tight' | 'env' | 'colon' | 'assign' | 'flag';

/**
 * How many characters of a value after a credential key to redact; 0 when it is not a secret.
 * With `option`, the frame is a password option of a client (`mysql -p…`, `sshpass -p …`), where
 * a word that names a secret (`-psupersecret`) or a reserved word (`-ppassword`) is the password,
 * not a reference to one.
 */
function credentialValueLength(raw: string, cls: KeyClass, form: ValueForm, option = false): number {
  if (form === 'quoted') return isLiteralSecret(raw, cls, form, option) ? raw.length : 0;
  // Unquoted: closing brackets and punctuation at the end (`{pw:abc}`, `token: CancellationToken):`)
  // are the surroundings and stay out of the judgement; a trailing `.`, `!` or `?` may be part of a
  // password, so it is redacted with an accepted value.
  const v = withoutSurroundings(raw);
  if (!isLiteralSecret(v, cls, form, option)) return 0;
  return v.length + (TRAILING_MARKS.exec(raw.slice(v.length))?.[0].length ?? 0);
}

/** Whether a value after a credential key is a literal secret rather than a reference or placeholder. */
function isLiteralSecret(v: string, cls: KeyClass, form: ValueForm, option: boolean): boolean {
  if (v.length < SCRUB_DEFAULTS.minValueLength) return false;
  // After a password option a reserved word is the password itself (`mysql -ppassword`).
  if (option ? PLACEHOLDER.test(v) || SAME_CHARACTER.test(v) : isPlaceholder(v)) return false;
  if (cls === 'token' && ONLY_DIGITS.test(v)) return false;
  const bareWord = IDENTIFIER.test(v) && !HAS_DIGIT.test(v);
  // names a secret (`userToken`, "GITHUB_TOKEN"), is not one
  if (bareWord && !option && NAMES_A_SECRET.test(v) && readsAsSecretName(v, form)) return false;
  if (form === 'quoted') {
    if (!HAS_SPACE.test(v)) return true;
    const passphrase =
      cls === 'password' && v.length >= SCRUB_DEFAULTS.minBareWordLength && (option || !NAMES_A_SECRET.test(v));
    return passphrase;
  }
  if (form === 'flag' && (v.startsWith('-') || SECRET_REFERENCE.test(v))) return false;
  if (
    v.includes('(') ||
    URL_LIKE.test(v) ||
    PATH_LIKE.test(v) ||
    isCodeMemberPath(v, form === 'env') ||
    INDEXING_OR_GENERIC.test(v)
  )
    return false;
  if (bareWord) {
    if (form === 'assign') return false;
    if (form === 'colon' && (v.length < SCRUB_DEFAULTS.minBareWordLength || CAMEL_CASE.test(v))) return false;
  }
  return true;
}

/**
 * A camelCase key that names a Kubernetes Secret object rather than holding a secret (Helm's `existingSecret`,
 * `passwordSecret`, `adminPasswordSecret`): a value there of plain words that name a secret (`myredissecret`,
 * `pgpasswords`, `redis-credentials`) is the object's name, which users need to find it (review G, item 8). The key
 * may come on a dotted values path, as Helm writes it (`--set auth.existingSecret=…`,
 * `global.postgresql.auth.existingSecret: …`; walk 20, item 6): its last segment is the camelCase key.
 */
const CAMEL_KEY = /^(?:[A-Za-z][\w-]*\.)*[a-z][A-Za-z0-9]*$/;
const SECRET_OBJECT_KEY = /(?:(?:^|\.)(?:existing|password|credentials?)|Password|Credentials?)Secret$/;
const SECRET_OBJECT_NAME = /^[a-z]+(?:[.-][a-z]+)*$/;

function namesSecretObject(key: string, value: string): boolean {
  return (
    CAMEL_KEY.test(key) && SECRET_OBJECT_KEY.test(key) && SECRET_OBJECT_NAME.test(value) && NAMES_A_SECRET.test(value)
  );
}

/**
 * Whether a digit-free word naming a secret reads as the name of one: written as code and env names are (`userToken`,
 * `GITHUB_TOKEN`, `$pw`), short (`passwd`, `passed`), or one credential word (`credentials`, `apikey`). A long word
 * of small letters that only contains one (`mysupersecretjwtkey`, `plainwordsecret`) is a dev secret made of words,
 * and so is any word of small letters on an env line (`JWT_SECRET=secretkey`), where nothing is code.
 */
function readsAsSecretName(v: string, form: ValueForm): boolean {
  if (HAS_UPPER.test(v) || v.includes('_') || v.includes('$')) return true;
  if (form === 'env') return false;
  return v.length < SCRUB_DEFAULTS.minBareWordLength || ONE_CREDENTIAL_WORD.test(v);
}

/**
 * Whether a value after a credential key reads as code that fetches the secret (`args.api_key`, `config.db2.password`)
 * rather than as the secret: a member path without digits, or one whose last member names a secret. A dotted
 * value with digits is the secret itself (`Winter2026.Spring`, a Vault `hvs.…`, a Discord bot token, `ak.Zx9…`).
 */
function isCodeMemberPath(v: string, env = false): boolean {
  if (!MEMBER_PATH.test(v)) return false;
  // An env line (`DB_PASSWORD=correct.horse.battery`) holds no code: its dotted value is the secret, unless it
  // reads one (`DB_PASSWORD=process.env.DB_PASSWORD`).
  if (!HAS_DIGIT.test(v) && !env) return true;
  const last = v.slice(v.lastIndexOf('.') + 1).replace(/!$/, '');
  return !HAS_DIGIT.test(last) && NAMES_A_SECRET.test(last);
}

const OPENAI_KEY_PREFIX = /^(?:proj|svcacct|admin)-/;

/**
 * Whether AKIA/ASIA and 16 capitals and digits is an AWS key id: a digit in it, or letters that do not read as words
 * (words: 5+ vowels, Y counted, and no run of more than 3 consonants, as `PACIFICSOUTHEAST`); about 7% of random
 * letter runs read so, so about 1 real id in 400 is kept.
 */
function isAwsKeyId(id: string): boolean {
  const body = id.slice(4);
  if (HAS_DIGIT.test(body)) return true;
  const vowels = body.match(/[AEIOUY]/g)?.length ?? 0;
  const longestRun = Math.max(...body.split(/[AEIOUY]/).map((run) => run.length));
  return vowels < 5 || longestRun > 3;
}

/** The URL (no whitespace, at most 4 KB either side) around `at` in `text`. */
function urlAround(text: string, at: number): string {
  let from = at;
  while (from > 0 && at - from < 4096 && !/\s/.test(text[from - 1] as string)) from--;
  let to = at;
  while (to < text.length && to - at < 4096 && !/\s/.test(text[to] as string)) to++;
  return text.slice(from, to);
}

/** Whether what follows `sk-` is generated like an OpenAI key's: capitals, small letters and digits all in it. */
function isOpenAiKeyBody(body: string): boolean {
  const rest = body.replace(OPENAI_KEY_PREFIX, '');
  return rest.length >= 20 && HAS_DIGIT.test(rest) && HAS_UPPER.test(rest) && HAS_LOWER.test(rest);
}

/** Whether base64 text decodes to `user:password`, the payload of HTTP Basic authentication. */
function isBasicCredential(encoded: string): boolean {
  if (encoded.length < SCRUB_DEFAULTS.minTokenLength || !HAS_UPPER.test(encoded) || !HAS_LOWER.test(encoded))
    return false;
  let decoded: string;
  try {
    decoded = atob(encoded);
  } catch {
    return false;
  }
  return BASIC_PAYLOAD.test(decoded);
}

// ---------------------------------------------------------------------------------------------
// Rules

interface Located {
  readonly start: number;
  /** Characters to redact from `start`; 0 keeps the match. */
  readonly length: number;
  /** Where to go on looking when the secret ran past the match (a value longer than the scan limit). */
  readonly resumeAt?: number;
}

interface Rule {
  readonly kind: SecretKind;
  /** Global pattern, compiled once. */
  readonly pattern: RegExp;
  /** Where the secret sits inside one match; `commands` follows the commands of the text. */
  readonly locate: (match: RegExpExecArray, commands: () => CommandScanner) => Located;
}

const KEEP: Located = Object.freeze({ start: 0, length: 0 });

/** A rule whose whole match is the secret. */
function whole(kind: SecretKind, pattern: RegExp, accept?: (secret: string) => boolean): Rule {
  return {
    kind,
    pattern,
    locate: (m) => (accept === undefined || accept(m[0]) ? { start: m.index, length: m[0].length } : KEEP),
  };
}

/**
 * A rule whose group 1 is a frame that stays and group 2 the secret right after it; with `rest`,
 * a secret that reached {@link VALUE_SCAN_LIMIT} is followed to the end of its run.
 */
function framed(
  kind: SecretKind,
  pattern: RegExp,
  accept?: (secret: string, frame: string) => number,
  rest?: RegExp,
): Rule {
  return {
    kind,
    pattern,
    locate: (m) => {
      const frame = m[1] ?? '';
      const secret = m[2] ?? '';
      const start = m.index + frame.length;
      const length = accept === undefined ? secret.length : accept(secret, frame);
      if (rest === undefined || length === 0 || secret.length < VALUE_SCAN_LIMIT) return { start, length };
      const runEnd = extendRun(m.input, start + secret.length, rest);
      return { start, length: runEnd - start, resumeAt: runEnd };
    },
  };
}

const BACKSLASH = 92;

/**
 * Locates a value that ends the match, captured by one of four groups from `first` on:
 * escaped-quoted `\"…\"` (behind any number of backslashes), double-quoted, single-quoted, unquoted; quotes stay,
 * content goes.
 */
function locateValue(m: RegExpExecArray, first: number, judge: (value: string, quoted: boolean) => number): Located {
  const end = m.index + m[0].length;
  const escaped = m[first];
  if (escaped !== undefined) {
    // `\"…\"` at any depth of JSON in JSON (`\\\"…\\\"`): the closing run of backslashes and its quote stay.
    let close = 1;
    while (m.input.charCodeAt(end - 1 - close) === BACKSLASH) close++;
    return { start: end - close - escaped.length, length: judge(escaped, true) };
  }
  const quoted = m[first + 1] ?? m[first + 2];
  if (quoted !== undefined) return { start: end - 1 - quoted.length, length: judge(quoted, true) };
  const bare = m[first + 3] ?? '';
  const start = end - bare.length;
  const length = judge(bare, false);
  if (length === 0 || bare.length < VALUE_SCAN_LIMIT) return { start, length };
  const runEnd = extendRun(m.input, end, UNQUOTED_VALUE_REST);
  return { start, length: runEnd - start, resumeAt: runEnd };
}

/**
 * Longest unquoted value one match reads. A value is a run of characters that may hold other
 * `key=` pairs; without a bound, a long run of rejected pairs (`token=$a` × 10⁵) is read again
 * from each pair to its end, which is quadratic. An accepted value that reaches the bound is
 * followed to the end of its run ({@link extendRun}), so nothing of it is left.
 */
const VALUE_SCAN_LIMIT = 256;
/**
 * An `&` inside an unquoted value is part of it (`--password=Tr0ub4dor&3`) unless it starts what
 * follows the value: a shell operator or redirection (`&&`, `& `, `&>`, `&|`, a trailing `&`),
 * the next query parameter (`&page=2`, `&amp;page=2`), or a closing bracket or quote. The name of
 * a query parameter is read at most 64 characters, so the look-ahead stays bounded.
 */
const VALUE_AMPERSAND = String.raw`&(?![\s&>|;,)\]}"'\x60]|$|amp;|[\w.%\[\]-]{1,64}=)`;
const UNQUOTED_VALUE_CHAR = String.raw`(?:[^\s"'\x60,;&]|${VALUE_AMPERSAND})`;
const UNQUOTED_VALUE_REST = new RegExp(`${UNQUOTED_VALUE_CHAR}*`, 'y');
const AUTH_VALUE_CHAR = String.raw`[^\s"',;]`;
const AUTH_VALUE_REST = new RegExp(`${AUTH_VALUE_CHAR}*`, 'y');
const COOKIE_VALUE_CHAR = String.raw`[^\r\n"'\\]`;
const COOKIE_VALUE_REST = new RegExp(`${COOKIE_VALUE_CHAR}*`, 'y');

/** The end of the run of `rest`'s characters that starts at `from`. */
function extendRun(text: string, from: number, rest: RegExp): number {
  rest.lastIndex = from;
  rest.exec(text);
  work += rest.lastIndex - from;
  return rest.lastIndex;
}

/**
 * Characters the rules' own code has read since the module was loaded: each match's length and one for each match
 * tried, each run followed past a match, each look back or on. A locate that read on from each repetition to the end
 * of a text makes it grow with the square of the text's length; {@link scrubWork} lets a test bound that without a
 * clock. It does not see the regex engine's scanning and backtracking inside one exec: `npm run bench -- scrub` times
 * that on n and 4n characters (a timing, so not in the tests).
 */
let work = 0;

/** How much the rules have read so far (see `work`): a test takes the difference over one scrub. */
export function scrubWork(): number {
  return work;
}

const KEY_WORDS = 'pass(?:word|wd|phrase)?|pwd|secret|token|key|credentials?';
const VALUE =
  String.raw`(?:\\+"([^"\\\r\n]*)\\+"|"((?:[^"\\\r\n]|\\.)*)"|'((?:[^'\\\r\n]|\\.)*)'|` +
  `(${UNQUOTED_VALUE_CHAR}{1,${VALUE_SCAN_LIMIT}}))`;
const AUTH_FRAME = String.raw`(?:\b(?:Proxy-)?Authorization\\*["']?[ \t]*[:=][ \t]*\\*["']?[ \t]*)`;
const AUTHORIZATION_WORD = /authorization/i;
const isAuthFrame = (frame: string): boolean => AUTHORIZATION_WORD.test(frame);
const TRAILING_DOTS = /\.+$/;
const HAS_BLANK = /[ \t]/;

/**
 * Clients whose short `-p` is a password: mysql and mariadb (and their dump, admin, … tools) take
 * it glued only (`-pHunter2`; a bare `-p` prompts, and the next word is the database), sshpass
 * takes it glued or spaced among its own options (`sshpass -p Hunter2 ssh host`). A client word
 * counts where it runs as a command, not as the value of a flag (`docker run --name mysql`,
 * `psql -h mysql -p5432`) nor as part of a name (`mysql:8`, `mysql.server`, `mysql_config`).
 * This pattern finds where a client word may start; {@link CLIENT_NAME} then reads its whole name.
 */
const CLIENT_SEARCH = /mysql|mariadb|sshpass/g;
/** A client's whole name from where it starts (`mysqldump`, `mariadb-admin`, `mysql.exe`). */
const CLIENT_NAME =
  /(?:mysql|mariadb)(?:-?(?:dump|admin|import|show|check|pump|binlog|slap|sh))?(?:\.exe)?|sshpass(?:\.exe)?/y;
/** How many of its options after `sshpass` may stand before its `-p`. */
const SSHPASS_OPTION_LIMIT = 8;
/** What ends a command: a new line, `;`, `&&`, `&`, `|`, `||`. */
const COMMAND_BREAK = /[\n;&|]/g;
const NAME_CHAR = /[\w.:-]/;
const BLANK_CHAR = /[ \t]/;
const SPACE_CHAR = /\s/;
const LETTER_CHAR = /[A-Za-z]/;
/** A flag that may take the next word as its value: `--name`, `-h`; not `-it` nor `-pHunter2`. */
const VALUE_FLAG = /^(?:--[A-Za-z][\w-]*|-[A-Za-z])$/;
/** Stands for every character of a secret already found: like its marker, no name, blank or break. */
const REDACTED_CHAR = '#';

/** How the `-p` of the current command is read: glued password (mysql), any password (sshpass) or neither. */
type ShortPasswordOption = 'glued' | 'any' | undefined;

/**
 * Follows the commands of one text from left to right and answers, for a `-p` at a position,
 * whether it is the password option of the client that runs in its command: `'glued'` for mysql
 * and mariadb, `'any'` for sshpass when among sshpass's own options, undefined otherwise
 * (`mkdir -p`, `ssh -p 2222`, `docker run -p 80:80`). The last client of a command owns its `-p`.
 *
 * It reads the text as the scrubbed text will read: a secret already found (by an earlier rule, or
 * earlier in this rule's pass) is a marker, so a `;`, `&`, newline or client word inside it
 * counts for nothing, and scrubbing the scrubbed text decides the same way (idempotence).
 * Positions are asked in increasing order within a rule's pass (a smaller one starts over), so
 * every character is scanned a bounded number of times however many `-p` there are.
 */
class CommandScanner {
  private pos = 0;
  private nextBreak = -1;
  private nextClient = -1;
  private client: 'mysql' | 'sshpass' | undefined;
  private clientOptionsEnd = 0;
  /** Spans found before this scanner, sorted and merged. */
  private readonly before: readonly Span[];
  /** Spans from this index on are found by the current rule after the scanner, in text order. */
  private readonly tailFrom: number;

  constructor(
    private readonly text: string,
    private readonly spans: readonly Span[],
  ) {
    this.before = mergeSpans(spans.slice());
    this.tailFrom = spans.length;
  }

  optionAt(at: number): ShortPasswordOption {
    if (at < this.pos) {
      this.pos = 0;
      this.nextBreak = -1;
      this.nextClient = -1;
      this.client = undefined;
    }
    const text = this.text;
    for (;;) {
      if (this.nextBreak < this.pos) this.nextBreak = searchFrom(COMMAND_BREAK, text, this.pos);
      if (this.nextClient < this.pos) this.nextClient = searchFrom(CLIENT_SEARCH, text, this.pos);
      const next = Math.min(this.nextBreak, this.nextClient);
      if (next >= at) break;
      if (this.redacted(next)) {
        // inside a secret: its marker holds neither a break nor a client
      } else if (next === this.nextBreak) {
        // A line ended by a backslash goes on on the next (`mysql -h db \⏎ -pHunter2 shop`): no break.
        if (!this.continued(next)) this.client = undefined;
      } else {
        const end = this.clientNameEnd(next);
        if (end !== -1 && end <= at) {
          this.client = text.startsWith('sshpass', next) ? 'sshpass' : 'mysql';
          this.clientOptionsEnd = this.optionsEnd(end);
        }
      }
      this.pos = next + 1;
    }
    this.pos = Math.max(this.pos, at);
    if (this.client === 'mysql') return 'glued';
    return this.client === 'sshpass' && at < this.clientOptionsEnd ? 'any' : undefined;
  }

  /** Whether the break at `i` is a new line after a backslash (`\⏎`, `\\r⏎`), which continues the command. */
  private continued(i: number): boolean {
    if (this.text[i] !== '\n') return false;
    const before = this.charAt(i - 1) === '\r' ? i - 2 : i - 1;
    return before >= 0 && this.charAt(before) === '\\';
  }

  /** The character at `i` as the scrubbed text will show it (a secret's stands for its marker). */
  private charAt(i: number): string {
    return this.redacted(i) ? REDACTED_CHAR : (this.text[i] ?? '');
  }

  private redacted(i: number): boolean {
    return covers(this.before, 0, i) || covers(this.spans, this.tailFrom, i);
  }

  /**
   * Whether a client word at `i` runs as a command: not part of a longer name (`mysql_config`,
   * `mysql:8`), not the value of a flag (`--name mysql`, `-h mysql`). Returns the end of its
   * name, or -1.
   */
  private clientNameEnd(i: number): number {
    if (i > 0 && NAME_CHAR.test(this.charAt(i - 1))) return -1;
    CLIENT_NAME.lastIndex = i;
    if (!CLIENT_NAME.test(this.text)) return -1;
    const end = CLIENT_NAME.lastIndex;
    if (this.redacted(end - 1) || NAME_CHAR.test(this.charAt(end))) return -1;
    let j = i;
    while (j > 0 && BLANK_CHAR.test(this.charAt(j - 1))) j--;
    if (j === i) return end;
    let k = j;
    while (k > 0 && !SPACE_CHAR.test(this.charAt(k - 1))) k--;
    let word = '';
    for (let c = k; c < j; c++) word += this.charAt(c);
    return VALUE_FLAG.test(word) ? -1 : end;
  }

  /** The end of the options that follow sshpass at `from` (`-v`, `-e`, `-p …`), at most a few. */
  private optionsEnd(from: number): number {
    let end = from;
    for (let n = 0; n < SSHPASS_OPTION_LIMIT; n++) {
      let i = end;
      while (BLANK_CHAR.test(this.charAt(i))) i++;
      if (i === end || this.charAt(i) !== '-' || !LETTER_CHAR.test(this.charAt(i + 1))) break;
      while (i < this.text.length && !SPACE_CHAR.test(this.charAt(i))) i++;
      end = i;
    }
    return end;
  }
}

/** Whether a span of `spans` from index `from` on (sorted, not overlapping) covers position `i`. */
function covers(spans: readonly Span[], from: number, i: number): boolean {
  let lo = from;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const span = spans[mid] as Span;
    if (i < span.start) hi = mid - 1;
    else if (i >= span.end) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Index of the next match of a global `pattern` in `text` from `from`, or Infinity. */
function searchFrom(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? Number.POSITIVE_INFINITY;
}

/** How a value right after `-p` is judged: a password unless it is a placeholder or a reference. */
function shortPasswordLength(value: string, quoted: boolean): number {
  return credentialValueLength(value, 'password', quoted ? 'quoted' : 'flag', true);
}

/**
 * A key that names a secret in prose: `API key`, `access key`, `secret key`, `secret access key`, `signing key`, …
 * (also `api_key`, `apikey`); a key with no such word before it (`the key is to …`, `the primary key is user_id`,
 * `the sort key`) is no credential.
 */
const PROSE_KEY =
  String.raw`(?:(?:api|access|secret(?:[ \t_-]?access)?|private|signing|encryption|master|client|license|auth|` +
  String.raw`account|service|admin|subscription|webhook|shared)[ \t_-]?key)`;

/**
 * What opens the words between a credential word and its verb, making them a clause about the credential (`the
 * password [to the staging box] is …`): a preposition, a pronoun, an article or a possessive (a relative clause, `the
 * password [we use for the staging database] is …`), or a participle (`the API key [issued by the vendor] is …`); not
 * a noun, which makes the credential word a modifier and the subject something else (`the token budget for this run
 * is 128000`, `the password policy for new accounts is NIST800-63b`). A closed class of words, not a list of phrasings.
 */
const PROSE_FRAME_OPENER =
  '(?:about|above|across|after|against|along|among|around|as|at|before|behind|below|beneath|beside|between' +
  '|beyond|by|during|for|from|in|inside|into|near|of|off|on|onto|outside|over|per|since|through|to|toward' +
  '|towards|under|until|upon|via|with|within|without|that|which|who|whom|whose|where|we|you|i|they|he|she' +
  String.raw`|it|the|a|an|my|our|your|their|his|her|its|this|these|those|[a-z]{2,30}ed)(?![\w.'’-])`;

/**
 * A word of the words between a credential word and its verb: no verb (is, was, are, were, has, have, be, been: the
 * frame ends at the first; `the token needs to be generated is …` has its own verb, and what is … is another
 * subject, a user id), no sentence punctuation; letters (joined by `.`, `-` or an apostrophe: `staging.example.com`,
 * `Ana's`) or, with a digit, five characters at most (`db2`, `EC2`). A made-up value has digits or symbols and is
 * longer, so the words never run past one to a later verb.
 */
const PROSE_FRAME_WORD =
  String.raw`(?!(?:is|was|are|were|has|have|be|been)\b)` +
  String.raw`(?:[A-Za-z_]{1,40}(?:[.'’-][A-Za-z_]{1,40}){0,3}|(?=[A-Za-z_-]{0,4}\d)[\w-]{1,5})(?![\w.'’-])`;

/** A short parenthesis after a credential word or among the words after it (`the API key (billing) is …`). */
const PROSE_FRAME_ASIDE = String.raw`[ \t]*\([^()\r\n]{1,40}\)`;

/** How many words (or parentheses) may stand between a credential word and its verb, after the opener. */
const PROSE_FRAME_WORDS = 7;

/**
 * A credential word in prose, then its value: after `is`/`was`/`to` (`the password for staging is …`, `the password
 * was changed to …`, `the API key has been rotated to …`, `the API key is …`; `is:` too), or, for a password word or
 * a named key, right after it (`with password hunter2x`, `pw Xy7kq9zz`, `use the API key Zk82…`; a named key also
 * before `:`, `=` or `,`: `API key: Zk82…`, review E). `key: v` and `key=v` are the assignment rule's. Between the
 * word and its verb, a clause about the credential (PROSE_FRAME_OPENER, then up to PROSE_FRAME_WORDS words, commas
 * between them): a preposition and what it names (`the password to the staging box is …`, `the wifi password at the
 * office is …`), a relative clause (`the password we use for the staging database is …`), an aside (`the admin
 * password, for reference, is …`) or a short parenthesis (`the API key (billing) is …`); review F, item 1: the three
 * prepositions enumerated before let the fourth through. The clause may end on `:` or `=` instead of a verb
 * (`Password for staging: …`, `API key for staging: …`; walk 20, item 2). A bare `key` only when the words after
 * for/of/on end on api, service or account (`the key for the analytics API is …`: its value as long as a key,
 * BARE_KEY_FRAME), or a bare `key` someone owns (`my key is …`, `our key was …`: the same length); a named key, a
 * comma and words before `:` (`API key, for reference: …`). Walk 16, item 1. The value decides
 * (proseCredentialLength: made up, not prose). It is quoted (group 4, its quote in group 3, behind the backslashes
 * of group 2 in JSON text, `\"…\"` at any depth; “…” in group 5) or a word (group 6). Bounded repeats
 * only, but for the backslashes, which end at the first other character: each start reads its own run, so linear.
 */
const PROSE_CREDENTIAL = new RegExp(
  String.raw`(\b(?:(?:(?:password|passwd|passphrase|pwd|pw|secret|token|${PROSE_KEY})s?` +
    String.raw`(?:${PROSE_FRAME_ASIDE})?(?:,?[ \t]+${PROSE_FRAME_OPENER}` +
    String.raw`(?:${PROSE_FRAME_ASIDE}|,?[ \t]+${PROSE_FRAME_WORD}){0,${PROSE_FRAME_WORDS}}` +
    String.raw`(?:[ \t]*[:=](?=[ \t]))?)?` +
    String.raw`|keys?[ \t]+(?:for|of|on)[ \t]+(?:the[ \t]+)?(?:[\w.-]{1,40}[ \t]+){0,3}(?:api|service|account)s?` +
    String.raw`|(?<=\b(?:my|our|your)[ \t]+)keys?)` +
    String.raw`(?:(?<=[:=])|,?[ \t]+(?:(?:(?:is|was|been|were|are|(?:has|have)[ \t]+been)[ \t]+)?` +
    String.raw`(?:set|changed|reset|rotated|updated)[ \t]+to` +
    String.raw`|(?:is|was|are|were)(?:[ \t]+now)?|to):?)|(?:password|passwd|passphrase|pwd|pw)` +
    String.raw`|${PROSE_KEY}(?:[ \t]*[:=,]?|,[ \t]+(?:[\w.-]{1,40}[ \t]+){0,2}[\w.-]{1,40}:))[ \t]+)` +
    String.raw`(?:(\\*)(["'\x60])([^"'\x60\r\n]{1,${VALUE_SCAN_LIMIT}})\2\3|“([^”\r\n]{1,${VALUE_SCAN_LIMIT}})”` +
    String.raw`|([^\s"'\x60“]{6,${VALUE_SCAN_LIMIT}}))`,
  'gi',
);
/**
 * Words with digits that name no secret: algorithms and hashes, encodings, architectures, ssh key files (id_ed25519),
 * numeronyms (i18n, k8s), versions, ordinals; and a word joined by `-` to a plain word (`base64-encoded`, `k8s-ready`).
 */
/** An environment variable's name (`DB_PASSWORD`): capitals, digits and `_`. */
const ENV_KEY = /^[A-Z][A-Z0-9_]*$/;

/** A version-looking value (`2.0.0-…`) and what follows its `-` or `+`. */
const VERSION_TAIL = /^v?\d+(?:\.\d+)+[-+](\S+)$/i;

const NOT_A_CREDENTIAL = new RegExp(
  String.raw`^(?:sha-?\d*|md\d|(?:bcrypt|scrypt|pbkdf|argon|blake|crc|murmur|xxhash|xxh)\d*(?:id|i|d|b|s)?\d*` +
    String.raw`|utf-?\d+(?:mb\d)?|ucs-?\d+|latin-?\d+|iso-?8859(?:-?\d+)?|cp\d{3,4}|base\d+(?:url)?|aes-?\d+|rsa-?\d+` +
    String.raw`|ed25519|x25519|id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?|p-?\d{3}|x86(?:[_-]64)?|x64|amd64|arm64(?:e|ec)?` +
    String.raw`|aarch64|armv\d+\w*|i[3-6]86` +
    String.raw`|ppc64(?:le)?|s390x|riscv\d+|wasm\d+|[a-z]\d{1,2}[a-z]{1,2}` +
    String.raw`|v?\d+(?:[.x]\d+)+(?:[-+][0-9a-z]+(?:\.[0-9a-z]+)*)?|\d+(?:st|nd|rd|th|s))$` +
    String.raw`|^[\w.]+(?:-[a-z]+)*-(?:[a-z]+ed|ready|safe|based|aware|only|native|compatible|friendly|style|like` +
    String.raw`|free|specific|bit|wide|side|level)$`,
  'i',
);
/**
 * What a user calls "my key" (a bare `key`, BARE_KEY_FRAME; never a password, a token or an API key) that is no
 * secret (review G, item 8): an ssh key's file (`id_ed25519_github.pub`, `deploy.pem`) or a key chord
 * (`SHIFT+CTRL+ALT+F12`: modifiers, then one key's name; walk 20, item 1).
 */
const KEY_FILE_NAME = /^[\w.-]+$/;
const KEY_FILE_END = /^id_(?:rsa|dsa|ecdsa|ed25519)(?:[_.-]|$)|\.(?:pub|pem|key|ppk|crt|cer|p12|pfx|asc|gpg)$/i;
const KEY_CHORD = new RegExp(
  String.raw`^(?:(?:shift|ctrl|control|alt|option|opt|cmd|command|meta|super|win|fn|hyper)\+)+` +
    String.raw`(?:\w|f\d{1,2}|enter|return|tab|esc|escape|space|up|down|left|right|home|end|delete|del|backspace` +
    String.raw`|insert|ins|pageup|pagedown|pgup|pgdn)$`,
  'i',
);
const PROSE_SYMBOL = /[!@#$%^&*~+=?]/;
const PROSE_CUE_VERB = /[ \t](?:is|was|are|were|to|now):?[ \t]+$/i;
/** A frame that ends with a named key and no verb (`use the API key `). */
const PROSE_KEY_FRAME = /key[ \t]+$/i;
/** A frame that starts with a bare `key` (`key for the analytics API is `): its value must be as long as a key. */
const BARE_KEY_FRAME = /^keys?[ \t]/i;
/** Shortest word taken as the key right after a named key with no verb, or after a bare `key`. */
const PROSE_KEY_MIN_LENGTH = 16;
/** A run of capitals and digits long enough to be a key (`api token is ABCDEFGHIJKLMNOP`), not an acronym. */
const CAPITALS_KEY = /^[A-Z0-9]{12,}$/;

/**
 * How much of a word after a credential word in prose is the credential: a word that looks made up (letters and
 * digits; six digits or more; a long run of capitals; after `is` or `to`, a symbol among mixed-case letters too),
 * not prose ("the password reset flow", "password is required"), a reference, a path, a URL, a version or a
 * technical word (NOT_A_CREDENTIAL); a trailing `.`, `,`, `)`, `:` or `!` is the sentence's (left out of the value,
 * not out of the test: `CoffeeShop!`, though not `Expired!`: a symbol only at the end needs a capital inside).
 */
function proseCredentialLength(raw: string, frame: string): number {
  const v = raw.replace(/[.,;:!?)\]}]+$/, '');
  // A version's suffix is short (`-rc1`, `+build.5`); one of 8+ capitals, small letters and digits is a secret.
  const tail = VERSION_TAIL.exec(v)?.[1];
  if (tail !== undefined && tail.length >= 8 && HAS_UPPER.test(tail) && HAS_LOWER.test(tail) && HAS_DIGIT.test(tail))
    return isPlaceholder(v) ? 0 : v.length;
  if (v.length < 6 || isPlaceholder(v) || URL_LIKE.test(v) || PATH_LIKE.test(v) || NOT_A_CREDENTIAL.test(v)) return 0;
  if (BARE_KEY_FRAME.test(frame) && ((KEY_FILE_NAME.test(v) && KEY_FILE_END.test(v)) || KEY_CHORD.test(v))) return 0;
  // A word right after a named key, with no verb (`use the API key Zk82… for staging`), is the key only when it is as
  // long as one: `the API key header`, `the private key id_ed25519` stay.
  if ((PROSE_KEY_FRAME.test(frame) || BARE_KEY_FRAME.test(frame)) && v.length < PROSE_KEY_MIN_LENGTH) return 0;
  const made =
    (HAS_LETTER.test(v) && HAS_DIGIT.test(v)) ||
    /^\d+$/.test(v) ||
    CAPITALS_KEY.test(v) ||
    (PROSE_CUE_VERB.test(frame) &&
      PROSE_SYMBOL.test(raw) &&
      HAS_LOWER.test(v) &&
      (PROSE_SYMBOL.test(v) ? HAS_UPPER.test(v) : HAS_UPPER.test(v.slice(1))));
  return made ? v.length : 0;
}

/** A value quoted after a credential word in prose is the credential whatever it looks like (not a placeholder). */
function quotedProseCredentialLength(value: string): number {
  const v = value.trim();
  return v === '' || isPlaceholder(v) ? 0 : value.length;
}

/** The prose rule: where its value sits (inside the quotes when quoted) and how much of it is the credential. */
const proseCredential: Rule = {
  kind: 'credential',
  pattern: PROSE_CREDENTIAL,
  locate: (m) => {
    const frame = m[1] ?? '';
    const quoted = m[4] ?? m[5];
    const start = m.index + frame.length + (quoted === undefined ? 0 : (m[2] ?? '').length + 1);
    if (quoted !== undefined) return { start, length: quotedProseCredentialLength(quoted) };
    return { start, length: proseCredentialLength(m[6] ?? '', frame) };
  },
};

/**
 * SQL's `IDENTIFIED BY 'PW'` (a doubled quote inside it is part of it) or Oracle's unquoted `IDENTIFIED BY PW`: only in
 * SQL, that is upper-case IDENTIFIED BY, or after CREATE/ALTER USER or GRANT on its line; prose (`the campaign
 * identified by 'x'`, `users are identified by "email"`) keeps it.
 */
const sqlIdentifiedBy: Rule = {
  kind: 'credential',
  pattern: new RegExp(
    String.raw`\bIDENTIFIED[ \t]+(?:WITH[ \t]+\w+[ \t]+)?BY[ \t]+(?:PASSWORD[ \t]+)?` +
      String.raw`(?:'((?:[^'\r\n]|''){1,${VALUE_SCAN_LIMIT}})'|"((?:[^"\r\n]|""){1,${VALUE_SCAN_LIMIT}})"|` +
      String.raw`(?!VALUES\b)([^\s'";,)]+))`,
    'gi',
  ),
  locate: (m) => {
    // The statement before it on its line, at most 512 characters back (a bounded look: linear).
    const before = m.input.slice(Math.max(0, m.index - 512), m.index);
    const statement = before.slice(Math.max(before.lastIndexOf('\n'), before.lastIndexOf(';')) + 1);
    work += before.length;
    const sql =
      /^IDENTIFIED[ \t]+(?:WITH[ \t]+\w+[ \t]+)?BY\b/.test(m[0]) ||
      /\b(?:(?:create|alter)[ \t]+user|grant)\b/i.test(statement);
    const value = m[1] ?? m[2] ?? m[3] ?? '';
    if (!sql || isPlaceholder(value)) return KEEP;
    return { start: m.index + m[0].length - value.length - (m[3] === undefined ? 1 : 0), length: value.length };
  },
};

/**
 * A rule for a value after a command's frame (`frame`, a pattern source without groups), quoted or not
 * ({@link VALUE}); `after` must follow it. A placeholder (`"$REDIS_PW"`) is kept.
 */
function commandValue(frame: string, flags = '', after = ''): Rule {
  return {
    kind: 'credential',
    pattern: new RegExp(`(?:${frame})${VALUE}${after}`, `g${flags}`),
    locate: (m) => locateValue(m, 1, (v) => (isPlaceholder(v.trim()) ? 0 : v.length)),
  };
}

/** A YAML key that opens a block scalar (`password: |`, `token: >-`), its indent in group 1 and its name in group 2. */
const YAML_BLOCK_KEY = /^([ \t]*(?:-[ \t]+)?)["']?([\w.-]{1,64})["']?[ \t]*:[ \t]*[|>][-+0-9]{0,2}[ \t]*\r?\n/gm;

/**
 * A YAML block scalar after a credential key: the lines indented deeper than the key are the value
 * (`password: |⏎    Hunter2⏎`), the whole block (once: the scan goes on from its end, so this stays linear).
 */
const yamlBlockCredential: Rule = {
  kind: 'credential',
  pattern: YAML_BLOCK_KEY,
  locate: (m) => {
    if (keyClass(m[2] ?? '') === undefined) return KEEP;
    const text = m.input;
    const indent = (m[1] ?? '').length;
    const from = m.index + m[0].length;
    const limit = text.length;
    let start = -1;
    let end = from;
    let i = from;
    while (i < limit) {
      let lineEnd = text.indexOf('\n', i);
      if (lineEnd === -1 || lineEnd > limit) lineEnd = limit;
      let first = i;
      while (first < lineEnd && (text[first] === ' ' || text[first] === '\t')) first++;
      const blank = first === lineEnd || text[first] === '\r';
      if (!blank && first - i <= indent) break;
      if (!blank) {
        if (start === -1) start = first;
        end = text[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd;
      }
      i = lineEnd + 1;
    }
    work += i - from;
    if (start === -1) return KEEP;
    const value = text.slice(start, end);
    if (value.length < SCRUB_DEFAULTS.minValueLength || isPlaceholder(value.trim())) return KEEP;
    return { start, length: end - start, resumeAt: end };
  },
};

/**
 * What names an AWS secret access key beside it, then the key: an access key id (`AKIA…`, `ASIA…`) or a word (`secret`,
 * `key`, `credentials`; not inside a marker, `[REDACTED:aws-secret-key]`, nor glued to a word), then at most three
 * of the small words that join them (`and secret`, `access key is`), a `:`, `=`, `=>` or `,`, and an optional quote.
 * Bounded repeats, and a fixed list of words: any word there would be tried at every length after every `key` of a
 * text (a third slower scrub on prose full of keys).
 */
const AWS_SECRET_GLUE = 'and|is|was|are|the|its|my|our|with|aws|access|secret|key|id|for|of|to|set|prod|here';
const AWS_SECRET_BESIDE = new RegExp(
  String.raw`((?:(?<![A-Za-z0-9\]])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])|` +
    String.raw`(?<![\w:-])(?:secret|keys?|credentials?)(?![\w\]-]))` +
    String.raw`(?:[ \t]{1,4}(?:${AWS_SECRET_GLUE})(?![A-Za-z])){0,3}[ \t]{0,4}(?:=>|[:=,])?[ \t]{0,4}["']?)` +
    String.raw`(?<![A-Za-z0-9/+=])([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
  'gi',
);
const AWS_KEY_ID_FRAME = /^(?:akia|asia)/i;
const AWS_KEY_ID = /^(?:AKIA|ASIA)[A-Z0-9]{16}/;

/**
 * Whether 40 characters beside an id or a word that names a secret are an AWS secret access key: generated (capitals,
 * small letters and digits all in it), not a path, and the id, if that is what names it, written in capitals.
 */
function isAwsSecretBeside(secret: string, frame: string): boolean {
  if (AWS_KEY_ID_FRAME.test(frame) && !AWS_KEY_ID.test(frame)) return false;
  return !secret.startsWith('/') && HAS_UPPER.test(secret) && HAS_LOWER.test(secret) && HAS_DIGIT.test(secret);
}

const RULES: readonly Rule[] = Object.freeze([
  whole(
    'private-key',
    new RegExp(
      String.raw`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?` +
        '(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)',
      'g',
    ),
  ),
  whole('jwt', /(?<![\w\]-])eyJ[\w-]{8,}\.[\w-]{4,}\.[\w-]{8,}/g),
  // An Anthropic key's prefix (sk-ant-api03-) is no word's: it is taken glued to any id or tag ("tagsk-ant-api03-…").
  whole('anthropic-key', /(?<![A-Za-z0-9\]])sk-ant-[\w-]{20,}|(?<!\])sk-ant-api\d\d-[\w-]{20,}/g),
  // An OpenAI key (`sk-`, `sk-proj-`, `sk-svcacct-`, `sk-admin-` and 20+ generated characters) mixes capitals, small
  // letters and digits; a branch or ticket name (`sk-4821-fix-payment-retry-logic`) does not.
  whole('openai-key', /(?<![\w\]-])sk-(?!ant-)[\w-]{20,}/g, (s) => isOpenAiKeyBody(s.slice(3))),
  whole('github-token', /(?<![\w\]])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{30,})/g),
  // AKIA or ASIA and 16 capitals and digits as a whole token (real ids are base32, [A-Z2-7]{16}, and about 1 in 28
  // has no digit): without a digit it is a key id unless its letters read as words (isAwsKeyId).
  whole('aws-access-key-id', /(?<![A-Z0-9\]])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, isAwsKeyId),
  framed(
    'aws-secret-key',
    new RegExp(
      String.raw`((?:(?:aws_?)?secret_?access_?key|aws_?secret_?key)\\*["']?\]?[ \t]*(?:=>|[:=])[ \t]*\\*["']?)` +
        '([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])',
      'gi',
    ),
  ),
  whole('slack-token', /(?<![A-Za-z0-9\]])(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}/g),
  whole('stripe-key', /(?<![A-Za-z0-9\]])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g),
  whole('google-api-key', /(?<![\w\]-])AIza[\w-]{35}(?![\w-])/g),
  whole('npm-token', /(?<![\w\]])npm_[A-Za-z0-9]{36,}/g),
  whole('gitlab-token', /(?<![\w\]-])glpat-[\w-]{20,}/g),
  whole('huggingface-token', /(?<![\w\]-])hf_[A-Za-z0-9]{30,}(?![\w-])/g),
  whole('sendgrid-key', /(?<![\w\]-])SG\.[\w-]{16,}\.[\w-]{16,}/g),
  // Mailgun's API key: `key-` and 32 small letters and digits (a digit among them: `key-` before a word is no key).
  whole('credential', /(?<![\w\]-])key-[0-9a-z]{32}(?![\w-])/g, (s) => HAS_DIGIT.test(s)),
  // HashiCorp Vault service, batch and recovery tokens (`hvs.CAES…`).
  whole('vault-token', /(?<![\w\]-])hv[sbr]\.[\w-]{24,}(?![\w-])/g),
  // A Discord bot token: the bot's id in base64 (it starts M, N or O), a timestamp, an HMAC.
  whole('discord-token', /(?<![\w\]-])[MNO][\w-]{23,27}\.[\w-]{6}\.[\w-]{27,40}(?![\w-])/g, (s) => HAS_DIGIT.test(s)),
  whole('stripe-key', /(?<![A-Za-z0-9\]])whsec_[A-Za-z0-9+/]{24,}/g),
  // The webhook's host stays; what follows it (team, channel and secret; id and token) goes.
  framed('webhook-url', /(\bhooks\.slack\.com\/(?:services|workflows|triggers)\/)([\w/-]{8,})/gi),
  framed('webhook-url', /(\b(?:(?:canary|ptb)\.)?discord(?:app)?\.com\/api(?:\/v\d+)?\/webhooks\/)(\d+\/[\w-]{8,})/gi),
  // AWS's credentials CSV (`Access key ID,Secret access key` then rows): the column after a key id.
  framed(
    'aws-secret-key',
    /((?<![A-Za-z0-9\]])(?:AKIA|ASIA)[A-Z0-9]{16}[ \t]*,[ \t]*)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
  ),
  // An AWS secret access key in prose, by its shape (40 characters of base64 with capitals, small letters and digits)
  // next to what names it: an access key id or the word secret, key or credentials, with at most three small words
  // (and, is, access, …) or a `:`, `=` or `,` between (`AKIA… and secret wJalr…`, `secret access key: wJalr…`).
  // A git SHA (hex) stays.
  framed('aws-secret-key', AWS_SECRET_BESIDE, (s, frame) => (isAwsSecretBeside(s, frame) ? s.length : 0)),
  // docker's config.json: `"auth": "<base64 of user:password>"`, `"identitytoken": "…"`.
  framed('credential', /("(?:auth|identitytoken|registrytoken)"[ \t]*:[ \t]*")([A-Za-z0-9+/=._-]{8,})(?=")/gi),
  // `docker login -p <password>` (a few words of options may stand between).
  framed(
    'credential',
    /(\bdocker[ \t]+login(?:[ \t]+(?!-p[ \t])[^\s;&|]+){0,8}[ \t]+-p[ \t]+)([^\s"'\x60;&|]+)/g,
    (s) => (isPlaceholder(s) ? 0 : s.length),
  ),
  // .netrc: `machine <host> [login <user>] [account <a>] password <password>`, on one line or several.
  framed(
    'credential',
    /((?:\bmachine[ \t]+\S+|^[ \t]*default)(?:\s+(?:login|account|port)[ \t]+\S+){0,4}\s+password[ \t]+)(\S+)/gm,
    (s) => (isPlaceholder(s) ? 0 : s.length),
  ),
  // Cookie and Set-Cookie header values (`name=value; …`), a header's or a JSON field's.
  framed(
    'cookie',
    new RegExp(
      String.raw`(\b(?:set-)?cookie\\*["']?[ \t]*:[ \t]*\\*["']?)` +
        String.raw`([^\s"'\\]${COOKIE_VALUE_CHAR}{0,${VALUE_SCAN_LIMIT - 1}})`,
      'gi',
    ),
    (s) => (s.includes('=') && !isPlaceholder(s) ? s.length : 0),
    COOKIE_VALUE_REST,
  ),
  // The password may hold an unencoded `#` (`postgres://admin:Pa#ss@db`): the `@` after it says it is no fragment.
  framed('url-password', /(:\/\/[^\s:/?#@"'<>]*:)([^\s/?@"'<>]+)(?=@)/g, (s) => (isPlaceholder(s) ? 0 : s.length)),
  // Signed URLs: an Azure SAS `sig=` (also in a connection string's SharedAccessSignature=), S3 and GCS presigned
  // `X-Amz-Signature=`, `X-Amz-Credential=`, `X-Amz-Security-Token=` (and X-Goog-).
  // A hex `sig=` is a digest (`?exp=…&sig=<sha256>`), not a SAS signature (base64 of an HMAC, never all hex).
  framed('credential', /((?:[?&;]|\bSharedAccessSignature=)sig=)([\w%+/=-]{16,})/gi, (s) =>
    isPlaceholder(s) || /^[0-9a-f]+$/i.test(s) ? 0 : s.length,
  ),
  // S3's SigV2 (`AWSAccessKeyId=…&Signature=`) and CloudFront's signed URLs (`Signature=…&Key-Pair-Id=`).
  {
    kind: 'credential',
    pattern: /([?&]Signature=)([^&\s"'#<>]{8,})/g,
    locate: (m) => {
      const value = m[2] ?? '';
      if (isPlaceholder(value) || !/[?&](?:AWSAccessKeyId|Key-Pair-Id)=/.test(urlAround(m.input, m.index))) return KEEP;
      return { start: m.index + (m[1] ?? '').length, length: value.length };
    },
  },
  framed('credential', /([?&]X-(?:Amz|Goog)-(?:Signature|Credential|Security-Token)=)([^&\s"'#<>]{8,})/gi, (s) =>
    isPlaceholder(s) ? 0 : s.length,
  ),
  // .npmrc's `_auth=<base64 of user:password>` (also `//registry/:_auth=`).
  framed('credential', /((?<![\w-])_auth[ \t]*=[ \t]*["']?)([A-Za-z0-9+/]{8,}={0,2})/g),
  // A password given on a command line: `redis-cli -a PW`, `gh secret set X --body PW`, SQL `IDENTIFIED BY 'PW'`,
  // `echo PW | docker login --password-stdin` (the value before the pipe).
  commandValue(String.raw`\bredis-cli(?:[ \t]+(?!-a[ \t])[^\s;&|]+){0,12}[ \t]+-a[ \t]+`),
  commandValue(String.raw`(?<![\w-])REDISCLI_AUTH=`),
  commandValue(
    String.raw`\bgh[ \t]+secret[ \t]+set\b(?:[ \t]+(?!(?:--body|-b))[^\s;&|]+){0,8}` +
      String.raw`[ \t]+(?:--body(?:[ \t]+|=)|-b(?:[ \t]+|=)?)`,
  ),
  // `-p PW` of the login commands that take a password so: az (a service principal's secret), oc, cf, helm
  // registry, podman, buildah, skopeo, nerdctl, oras (docker's own rule is above).
  // A path there is az's certificate (`-p /tmp/cert.pem`), not a password.
  {
    ...commandValue(
      String.raw`\b(?:az|oc|cf|helm[ \t]+registry|podman|buildah|skopeo|nerdctl|oras)[ \t]+login\b` +
        String.raw`(?:[ \t]+(?!-p\b)[^\s;&|]+){0,12}[ \t]+-p(?:[ \t]+|=)`,
    ),
    locate: (m) => locateValue(m, 1, (v) => (isPlaceholder(v.trim()) || PATH_LIKE.test(v) ? 0 : v.length)),
  },
  sqlIdentifiedBy,
  {
    ...commandValue(
      String.raw`(?:\b(?:echo|printf)[ \t]+(?:-[A-Za-z]+[ \t]+)?(?:(?:'%s'|"%s")[ \t]+)?|\bcat[ \t]+<<<[ \t]*)`,
      '',
      String.raw`(?=[ \t]*\|[ \t]*(?:sudo[ \t]+)?[\w./-]{0,64}` +
        String.raw`\b(?:docker|podman|buildah|nerdctl|helm|oras|crane|skopeo)\b[^\n;&|]{0,200}--password-stdin)`,
    ),
    // A message of small words (`echo "logging in"`) is no password: one word, or a capital, digit or symbol, is.
    locate: (m) =>
      locateValue(m, 1, (v) =>
        isPlaceholder(v.trim()) || /^[a-z]+(?: [a-z]+)+(?:\.{3}|[.!])?$/.test(v) ? 0 : v.length,
      ),
  },
  yamlBlockCredential,
  // Not followed by `[` either: base64 glued to a key (`Basic …TOKEN=value`) would take the key's
  // `=` as padding once the value is a marker, and scrubbing again would redact more.
  framed(
    'basic-auth',
    new RegExp(String.raw`(${AUTH_FRAME}?\bBasic[ \t]+)([A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=[])`, 'gi'),
    (s, frame) => (isAuthFrame(frame) || isBasicCredential(s) ? s.length : 0),
  ),
  framed('bearer-token', new RegExp(String.raw`(${AUTH_FRAME}?\bBearer[ \t]+)([\w.~+/-]+=*)`, 'gi'), (s, frame) => {
    const token = s.replace(TRAILING_DOTS, '');
    // `Authorization: Bearer TOKEN` (docs, tool schemas) names the token; it is none.
    if (isPlaceholder(token)) return 0;
    return (isAuthFrame(frame) ? token.length >= 4 : looksGenerated(token)) ? token.length : 0;
  }),
  framed(
    'authorization',
    new RegExp(
      `(${AUTH_FRAME}(?:(?:token|bot|digest|negotiate|ntlm|apikey|api-key|key|sso-key|splunk|gitlab|pat)` +
        String.raw`[ \t]+)?)(?!(?:Bearer|Basic)\b)(${AUTH_VALUE_CHAR}{1,${VALUE_SCAN_LIMIT}})`,
      'gi',
    ),
    (s) => {
      const token = withoutSurroundings(s);
      return !isPlaceholder(token) && looksGenerated(token) ? token.length : 0;
    },
    AUTH_VALUE_REST,
  ),
  {
    kind: 'credential',
    pattern: new RegExp(
      String.raw`(?<![\w$.\]\\-])(?<!:\d{12}:)\\*["']?([\w$.-]*?(?:${KEY_WORDS})` +
        String.raw`(?:[_.-]?(?:base|value|b64|base64))?)\\*["']?\]?` +
        String.raw`([ \t]*(?::=|=>|=(?!=)|:(?![:/]))[ \t]*)${VALUE}`,
      'gi',
    ),
    locate: (m) => {
      const cls = keyClass(m[1] ?? '');
      if (cls === undefined) return KEEP;
      const sep = m[2] ?? '';
      const form: ValueForm = !HAS_BLANK.test(sep)
        ? sep === '=' && ENV_KEY.test(m[1] ?? '')
          ? 'env'
          : 'tight'
        : sep.trim() === ':'
          ? 'colon'
          : 'assign';
      const key = m[1] ?? '';
      return locateValue(m, 3, (v, quoted) =>
        namesSecretObject(key, quoted ? v : withoutSurroundings(v))
          ? 0
          : credentialValueLength(v, cls, quoted ? 'quoted' : form),
      );
    },
  },
  // A value named by its neighbour: `{"name": "DB_PASSWORD", "value": "…"}`, `- name: DB_PASSWORD⏎  value: …` (the
  // env lists of ECS, Kubernetes and the GitHub API).
  {
    kind: 'credential',
    pattern: new RegExp(
      String.raw`\b(?:name|key)\\*["']?[ \t]*[:=][ \t]*\\*["']?([\w.-]{1,64})\\*["']?[ \t]*(?:,[ \t]*|\r?\n[ \t]*)` +
        String.raw`\\*["']?value\\*["']?[ \t]*([:=])[ \t]*${VALUE}`,
      'gi',
    ),
    locate: (m) => {
      const cls = keyClass(m[1] ?? '');
      if (cls === undefined) return KEEP;
      const form: ValueForm = m[2] === '=' ? 'tight' : 'colon';
      return locateValue(m, 3, (v, quoted) => credentialValueLength(v, cls, quoted ? 'quoted' : form));
    },
  },
  // The same, value first: `{"value": "…", "name": "API_TOKEN"}`.
  {
    kind: 'credential',
    pattern: /("value"[ \t]*:[ \t]*")([^"\\\r\n]{1,256})("[ \t]*,[ \t]*"(?:name|key)"[ \t]*:[ \t]*")([\w.-]{1,64})"/gi,
    locate: (m) => {
      const cls = keyClass(m[4] ?? '');
      const value = m[2] ?? '';
      if (cls === undefined) return KEEP;
      return { start: m.index + (m[1] ?? '').length, length: credentialValueLength(value, cls, 'quoted') };
    },
  },
  {
    kind: 'credential',
    pattern: new RegExp(
      String.raw`(?<![^\s"'])(--?(?=[A-Za-z])[\w-]*?(?:${KEY_WORDS}))[ \t]+` +
        String.raw`(?:\\+"([^"\\\r\n]*)\\+"|"([^"\\\r\n]*)"|'([^'\\\r\n]*)'|((?:[^\s"'\x60;&|]|${VALUE_AMPERSAND})+))`,
      'gi',
    ),
    locate: (m, commands) => {
      const flag = m[1] ?? '';
      const cls = keyClass(flag);
      if (cls === undefined) return KEEP;
      // `mysql -pHunter2Secret mydb`: not a flag named …secret with the value `mydb`, but a glued
      // password, which the rule of short password options redacts (so this keeps nothing it leaves).
      if (
        flag.startsWith('-p') &&
        commands().optionAt(m.index) !== undefined &&
        shortPasswordLength(flag.slice(2), false) > 0
      ) {
        return KEEP;
      }
      return locateValue(m, 2, (v, quoted) => credentialValueLength(v, cls, quoted ? 'quoted' : 'flag'));
    },
  },
  // Not `-u http://app` (az login's service principal): a URL's `//` is no password.
  framed('credential', /(?<![^\s"'])((?:-u|--user)(?:[ \t]+|=)["']?[^\s:"'@/]+:)(?!\/\/)([^\s"'@]+)/g, (s) =>
    isPlaceholder(s) || ONLY_DIGITS.test(s) ? 0 : s.length,
  ),
  // A secret told in prose: "the db password is Tr0ub4dor&3", "login admin with password hunter2x", "pw Xy7kq9zz".
  proseCredential,
  // Last, so that the commands it reads already show every other secret as found.
  {
    kind: 'credential',
    pattern: new RegExp(String.raw`(?<![^\s"'])(-p[ \t]*)${VALUE}`, 'g'),
    locate: (m, commands) => {
      const frame = m[1] ?? '';
      const option = commands().optionAt(m.index);
      if (option === undefined || (option === 'glued' && frame.length > 2)) return KEEP;
      return locateValue(m, 2, shortPasswordLength);
    },
  },
]);

/** One pass over the text that every rule's required literal passes; most texts stop here. */
const PREFILTER = new RegExp(
  'pass|pwd|secret|token|key|credential|auth|bearer|basic|sk[-_]|rk_|gh[pousr]_|github_pat_|akia|asia|' +
    String.raw`eyj|-----begin|xox|xapp-|aiza|npm_|glpat-|hf_|sg\.|hv[sbr]\.|[MNO][\w-]{23,27}\.[\w-]{6}\.|` +
    String.raw`whsec_|hooks\.slack|discord|docker|sig=|x-amz-|x-goog-|redis-cli|identified|[ \t]login\b|` +
    String.raw`cookie|mysql|mariadb|:\/\/[^\s/]*@|(?:^|\s)-u\s|--user|\bpw\b`,
  'i',
);

const EXISTING_MARKER = /\[REDACTED:[a-z-]+\]/g;

// ---------------------------------------------------------------------------------------------
// Finding and replacing

interface Span {
  start: number;
  end: number;
  priority: number;
}

/** Ranges of markers already in the text; a match that touches one is left alone. */
function markerRanges(text: string): readonly (readonly [number, number])[] {
  if (!text.includes(SCRUB_DEFAULTS.markerPrefix)) return [];
  const ranges: [number, number][] = [];
  EXISTING_MARKER.lastIndex = 0;
  for (let m = EXISTING_MARKER.exec(text); m !== null; m = EXISTING_MARKER.exec(text)) {
    ranges.push([m.index, m.index + m[0].length]);
  }
  return ranges;
}

/** All secret spans, unsorted; with `firstOnly`, stops at the first one found. */
function findSpans(text: string, firstOnly: boolean): Span[] {
  const spans: Span[] = [];
  if (!PREFILTER.test(text)) return spans;
  const markers = markerRanges(text);
  for (let priority = 0; priority < RULES.length; priority++) {
    const rule = RULES[priority] as Rule;
    let scanner: CommandScanner | undefined;
    const commands = (): CommandScanner => (scanner ??= new CommandScanner(text, spans));
    const re = rule.pattern;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const matchStart = m.index;
      const matchEnd = matchStart + m[0].length;
      work += 1 + m[0].length;
      const touchesMarker = markers.some(([s, e]) => matchStart < e && matchEnd > s);
      const located = m[0].length === 0 || touchesMarker ? KEEP : rule.locate(m, commands);
      if (located.length === 0) {
        // Rejected: look again from the next character, so a secret inside the rejected match is still found.
        re.lastIndex = m.index + 1;
        continue;
      }
      spans.push({ start: located.start, end: located.start + located.length, priority });
      if (located.resumeAt !== undefined) re.lastIndex = Math.max(re.lastIndex, located.resumeAt);
      if (firstOnly) return spans;
    }
  }
  return spans;
}

/** Sorts spans and merges overlapping ones; a merged span takes the kind of its highest-priority rule. */
function mergeSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start || a.priority - b.priority);
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last !== undefined && span.start < last.end) {
      last.end = Math.max(last.end, span.end);
      last.priority = Math.min(last.priority, span.priority);
    } else {
      merged.push({ ...span });
    }
  }
  return merged;
}

const NO_REDACTIONS: readonly Redaction[] = Object.freeze([]);

const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;
const isHexCode = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/**
 * `text` with each `%XX` escape decoded once (as the byte's Latin-1 character: secrets are ASCII),
 * and where each decoded character came from, so a secret found in the decoded text is redacted in
 * its encoded span (`token%3Dghp_…`, `%67%68%70%5F…` in a fetched URL). Undefined without escapes.
 * One pass, linear; `+` stays `+` (base64 holds it).
 */
function percentDecoded(text: string): { text: string; from: Int32Array; to: Int32Array } | undefined {
  if (!PERCENT_ESCAPE.test(text)) return undefined;
  const n = text.length;
  const from = new Int32Array(n);
  const to = new Int32Array(n);
  const parts: string[] = [];
  let k = 0;
  for (let i = 0; i < n; k++) {
    from[k] = i;
    if (text.charCodeAt(i) === 37 && isHexCode(text.charCodeAt(i + 1)) && isHexCode(text.charCodeAt(i + 2))) {
      parts.push(String.fromCharCode(Number.parseInt(text.slice(i + 1, i + 3), 16)));
      i += 3;
    } else {
      parts.push(text[i] as string);
      i += 1;
    }
    to[k] = i;
  }
  return { text: parts.join(''), from, to };
}

/** The secret spans of `text` and of its percent-decoded reading, in `text`'s offsets. */
function allSpans(text: string, firstOnly: boolean): Span[] {
  const spans = findSpans(text, firstOnly);
  if (firstOnly && spans.length > 0) return spans;
  const decoded = percentDecoded(text);
  if (decoded === undefined) return spans;
  for (const span of findSpans(decoded.text, firstOnly)) {
    spans.push({
      start: decoded.from[span.start] as number,
      end: decoded.to[span.end - 1] as number,
      priority: span.priority,
    });
  }
  return spans;
}

/**
 * Replaces every secret in `text` with `[REDACTED:<kind>]`, keeping the frame around it
 * (`API_KEY=`, `https://user:…@host`, `Bearer `). Returns the text unchanged (same string) and no
 * redactions when nothing is found.
 */
export function scrubText(text: string): ScrubResult {
  const spans = allSpans(text, false);
  if (spans.length === 0) return { text, redactions: NO_REDACTIONS };
  const parts: string[] = [];
  const redactions: Redaction[] = [];
  let cursor = 0;
  let length = 0;
  for (const span of mergeSpans(spans)) {
    const kind = RULES[span.priority]?.kind ?? 'credential';
    const before = text.slice(cursor, span.start);
    const marker = redactionMarker(kind);
    parts.push(before, marker);
    length += before.length;
    redactions.push(Object.freeze({ kind, index: length }));
    length += marker.length;
    cursor = span.end;
  }
  parts.push(text.slice(cursor));
  return { text: parts.join(''), redactions: Object.freeze(redactions) };
}

/**
 * A text as an error message quotes it (`got "…"`): scrubbed, then JSON-quoted, so a message that repeats what it
 * was given never repeats a secret in it (`--as-of "password=[REDACTED:credential]"`). The one helper for it:
 * schemas/format's shownValue and every message that quotes input use it.
 */
export function shownText(text: string): string {
  return JSON.stringify(scrubText(text).text);
}

/** Whether `text` holds anything {@link scrubText} would redact. */
export function containsSecret(text: string): boolean {
  return allSpans(text, true).length > 0;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const AUTHORIZATION_KEY = /^(?:proxy-)?authorization$/i;
const AUTHORIZATION_FRAME = 'Authorization: ';
const COOKIE_KEY = /^(?:set-)?cookie$/i;
const CLI_FLAG = /^--?[A-Za-z][\w-]*$/;

/**
 * Scrubs a string that sits under an object key or after an array item: the key (`password`,
 * `apiKey`, `Authorization`) or a preceding CLI flag (`["--token", "…"]`) is the frame that marks
 * a bare value as a secret, the way `key=` does inside a text.
 */
function scrubInContext(value: string, context: string | undefined): string {
  const scrubbed = scrubText(value).text;
  if (context === undefined || scrubbed !== value) return scrubbed;
  if (COOKIE_KEY.test(context)) return value.includes('=') && !isPlaceholder(value) ? redactionMarker('cookie') : value;
  if (AUTHORIZATION_KEY.test(context)) {
    const framed = scrubText(AUTHORIZATION_FRAME + value).text;
    return framed.startsWith(AUTHORIZATION_FRAME) ? framed.slice(AUTHORIZATION_FRAME.length) : framed;
  }
  // The whole string is the value, as if it were quoted.
  const cls = keyClass(context);
  return cls !== undefined && value.length > 0 && credentialValueLength(value, cls, 'quoted') > 0
    ? redactionMarker('credential')
    : value;
}

/** How deep {@link scrubValue} copies (the levels `mayContainSecret` reads): deeper arrays and objects are not kept. */
export const SCRUB_MAX_DEPTH = 64;

/** Said instead of an array or object nested deeper than {@link SCRUB_MAX_DEPTH} levels. */
export const TOO_DEEP_MARKER = `[not kept: nested deeper than ${SCRUB_MAX_DEPTH} levels]`;

/**
 * An array or object below the depth limit: the marker, nothing of its content. Its JSON text, scrubbed as a
 * text, lost the rules that need the structure (`["--password", "…"]`: the value after a CLI flag) and kept
 * such a secret in clear.
 */
function scrubTooDeep(): string {
  return TOO_DEEP_MARKER;
}

/** Fields that name an entry of a name/value list (ECS, Kubernetes, GitHub, CloudFormation parameters). */
const NAME_FIELD = /^(?:name|key|variable|parameter_?key|option_?name)$/i;
/** The field that holds the entry's value. */
const VALUE_FIELD = /^(?:value|parameter_?value|default_?value)$/i;
/** Fields of a JSON Schema property (or an OpenAPI parameter) that hold a value of it. */
const SCHEMA_VALUE_FIELD = /^(?:default|example|examples|const|value|enum)$/;

/** The credential an object's name field names (`{name: "DB_PASSWORD", value: …}`), if one does. */
function namedCredential(value: Record<string, unknown>): string | undefined {
  for (const key of Object.keys(value)) {
    const name = value[key];
    if (NAME_FIELD.test(key) && typeof name === 'string' && keyClass(name) !== undefined) return name;
  }
  return undefined;
}

function scrubDeep(value: unknown, context: string | undefined, seen: WeakMap<object, unknown>, depth = 0): unknown {
  if (typeof value === 'string') return scrubInContext(value, context);
  if (value === null || typeof value !== 'object') return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    if (depth > SCRUB_MAX_DEPTH) return scrubTooDeep();
    const out: unknown[] = new Array<unknown>(value.length);
    seen.set(value, out);
    for (let i = 0; i < value.length; i++) {
      const previous: unknown = i > 0 ? value[i - 1] : undefined;
      const flag = typeof previous === 'string' && CLI_FLAG.test(previous) ? previous : undefined;
      out[i] = scrubDeep(value[i], flag, seen, depth + 1);
    }
    return out;
  }
  if (!isPlainObject(value)) return value;
  if (depth > SCRUB_MAX_DEPTH) return scrubTooDeep();
  const out = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  seen.set(value, out);
  const named = namedCredential(value);
  const schemaOf = context !== undefined && keyClass(context) !== undefined ? context : undefined;
  for (const key of Object.keys(value)) {
    // A value named by a neighbouring key (`{name: "DB_PASSWORD", value: …}`, an OpenAPI parameter's `{name: "api_key",
    // example: …}`) or an example of a credential property (`properties.password.default`, its `enum`) is framed by
    // that name.
    const frame =
      (named !== undefined && (VALUE_FIELD.test(key) || SCHEMA_VALUE_FIELD.test(key)) ? named : undefined) ??
      (schemaOf !== undefined && SCHEMA_VALUE_FIELD.test(key) ? schemaOf : key);
    const item = value[key];
    // defineProperty, so a JSON key named "__proto__" stays a key and never becomes a prototype.
    const scrubbed =
      frame !== key && Array.isArray(item) && !seen.has(item)
        ? item.map((x: unknown) => scrubDeep(x, frame, seen, depth + 2))
        : scrubDeep(item, frame, seen, depth + 1);
    Object.defineProperty(out, key, { value: scrubbed, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * A deep copy of `value` with every string inside scrubbed: object values and array items at any
 * depth; object keys stay as they are; numbers, booleans, null and undefined are copied as they
 * are. A key that names a credential (`{ password: "…" }`, `{ apiKey: "…" }`,
 * `{ Authorization: "Bearer …" }`) or a CLI flag just before an array item
 * (`["--token", "…"]`) frames a bare string value the way `key=` frames it in text. Plain objects and arrays are copied
 * (never mutated); other objects (Date, Map, class
 * instances) are returned as the same reference, untouched, as inputs are expected to be
 * JSON-like. Cycles and shared references are kept in the copy. Bounded in depth (the recursion never
 * overflows the stack): an array or object more than {@link SCRUB_MAX_DEPTH} levels down becomes
 * {@link TOO_DEEP_MARKER}, which keeps nothing of it.
 */
export function scrubValue<T>(value: T): T {
  return scrubDeep(value, undefined, new WeakMap()) as T;
}

/**
 * Short texts and keys seen to pass neither test: a batch's field names, tool names and statuses repeat in every
 * record (issue 20: 100k calls a batch), and a set lookup is cheaper than the prefilter. Bounded: once full, a new
 * text is tested each time, as before.
 */
const SEEN_CLEAN = { texts: new Set<string>(), keys: new Set<string>() };
const SEEN_MAX = 4096;
const SEEN_LENGTH = 64;

function clean(text: string, seen: Set<string>, test: (text: string) => boolean): boolean {
  if (seen.has(text)) return true;
  if (test(text)) return false;
  if (text.length <= SEEN_LENGTH && seen.size < SEEN_MAX) seen.add(text);
  return true;
}

const textMatches = (text: string): boolean => PREFILTER.test(text) || PERCENT_ESCAPE.test(text);
const keyMatches = (key: string): boolean => PREFILTER.test(key);

function anyMatch(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return !clean(value, SEEN_CLEAN.texts, textMatches);
  if (value === null || typeof value !== 'object' || depth > 64) return depth > 64;
  if (Array.isArray(value)) {
    for (const item of value) if (anyMatch(item, depth + 1)) return true;
    return false;
  }
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) {
    if (!clean(key, SEEN_CLEAN.keys, keyMatches) || anyMatch(value[key], depth + 1)) return true;
  }
  return false;
}

/**
 * Whether `scrubValue(value)` could change anything. Every rule and every credential key needs a
 * literal that the prefilter looks for, so a value none of whose strings or keys passes the
 * prefilter comes out of `scrubValue` equal to itself; a store can then skip the deep copy. Very
 * deep values (over 64 levels) answer true, so the full scrub decides.
 */
export function mayContainSecret(value: unknown): boolean {
  return anyMatch(value, 0);
}
