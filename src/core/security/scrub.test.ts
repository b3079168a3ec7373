import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SCRUB_DEFAULTS,
  SCRUB_MAX_DEPTH,
  SECRET_KINDS,
  TOO_DEEP_MARKER,
  containsSecret,
  mayContainSecret,
  redactionMarker,
  scrubText,
  scrubValue,
  scrubWork,
} from './scrub.js';
import type { SecretKind } from './scrub.js';

// Fake secrets are generated at test time from a seeded generator and assembled by concatenation,
// so the repository holds no secret-shaped literal for a scanner to trip on.
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  const from = (alphabet: string, length: number): string => {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[next() % alphabet.length];
    return out;
  };
  return { from };
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const URLSAFE = ALNUM + '-_';
const B64 = ALNUM + '+/';
const gen = generator(20240601);
/** Random alphanumeric text that is sure to hold a digit and a letter of each case. */
const alnum = (n: number): string => 'a' + gen.from(ALNUM, n - 3) + 'Z7';
const urlsafe = (n: number): string => 'q' + gen.from(URLSAFE, n - 3) + 'X4';
const b64url = (s: string): string => Buffer.from(s).toString('base64url');
const pem = (label: string, lines: number): string =>
  [
    `-----BEGIN ${label}-----`,
    ...Array.from({ length: lines }, () => gen.from(B64, 64)),
    `-----END ${label}-----`,
  ].join('\n');

const fake = {
  openai: 'sk' + '-' + alnum(48),
  openaiProject: 'sk' + '-proj-' + urlsafe(120),
  anthropic: 'sk' + '-ant-api03-' + urlsafe(93) + 'AA',
  anthropic2: 'sk' + '-ant-api03-' + urlsafe(93) + 'AA',
  anthropic3: 'sk' + '-ant-api03-' + urlsafe(93) + 'AA',
  akia2: 'AK' + 'IA' + gen.from(UPPER + DIGITS, 16),
  ghp: 'gh' + 'p_' + alnum(36),
  gho: 'gh' + 'o_' + alnum(36),
  ghu: 'gh' + 'u_' + alnum(36),
  ghs: 'gh' + 's_' + alnum(36),
  ghr: 'gh' + 'r_' + alnum(36),
  githubPat: 'github' + '_pat_' + '11A' + gen.from(UPPER + DIGITS, 19) + '_' + alnum(59),
  akia: 'AK' + 'IA' + gen.from(UPPER + DIGITS, 16),
  asia: 'AS' + 'IA' + gen.from(UPPER + DIGITS, 16),
  awsSecret1: 'w' + gen.from(B64, 37) + 'K9',
  awsSecret2: 'R' + gen.from(B64, 37) + 'p2',
  awsSecret3: 'j' + gen.from(B64, 37) + 'Q5',
  jwt:
    b64url('{"alg":"HS256","typ":"JWT"}') +
    '.' +
    b64url('{"sub":"1234567890","name":"Ada","iat":1516239022}') +
    '.' +
    urlsafe(43),
  jwt2: b64url('{"alg":"RS256","kid":"k1"}') + '.' + b64url('{"sub":"svc","exp":1900000000}') + '.' + urlsafe(86),
  rsaKey: pem('RSA PRIVATE KEY', 6),
  opensshKey: pem('OPENSSH PRIVATE KEY', 4),
  ecKey: pem('EC PRIVATE KEY', 3),
  pkcs8Key: pem('PRIVATE KEY', 5),
  opaqueBearer: alnum(40),
  bareBearer: urlsafe(32),
  basic: Buffer.from('deploy:' + alnum(14)).toString('base64'),
  urlPassword1: 'S3cr3t' + alnum(10),
  urlPassword2: 'p4ss' + alnum(12),
  urlPassword3: alnum(20),
  dbPassword: 'hunter2' + alnum(6),
  yamlPasswd: 'tr0ub4dor' + alnum(4),
  iniSecret: alnum(24),
  apiKeyJson: alnum(32),
  apiKeyTs: urlsafe(28),
  queryToken: alnum(30),
  accessToken: urlsafe(64),
  clientSecret: urlsafe(40),
  githubTokenEnv: alnum(40),
  cliPassword: 'hunter2',
  cliToken: alnum(32),
  passphrase: 'correct horse battery staple',
  slack: 'xo' + 'xb-' + gen.from(DIGITS, 12) + '-' + gen.from(DIGITS, 13) + '-' + alnum(24),
  stripe: 'sk' + '_live_' + alnum(32),
  stripeRestricted: 'rk' + '_live_' + alnum(32),
  google: 'AI' + 'za' + 'Sy' + gen.from(URLSAFE, 31) + 'x9',
  npm: 'np' + 'm_' + alnum(36),
  curlUserPassword: 'hunter2' + alnum(5),
  rawAuthorization: alnum(36),
  xApiKey: alnum(32),
  environApiKey: 'sk' + '-' + alnum(48),
  dockerPassword: 'pg' + alnum(14),
  gcpKey: pem('PRIVATE KEY', 3).replace(/\n/g, '\\n') + '\\n',
  sessionToken: urlsafe(1200),
  longRawAuthorization: alnum(3000),
  pgPassword: 'pa55' + alnum(8),
  pgPasswordQuoted: 'pa55' + alnum(9),
  dbPasswordGlued: alnum(16),
  adminPassword: 'adm1n' + alnum(8),
  npmTokenEnv: alnum(36),
  mysqlPwd: 'my' + alnum(10),
  dbPass: alnum(14),
  sshpassEnv: alnum(12),
  keystorePass: 'st0re' + alnum(7),
  sshpassSpaced: 'Hunter2' + alnum(6),
  sshpassGlued: 'S5h' + alnum(8),
  mysqlGlued: 'Hunter2' + alnum(8),
  mariadbGlued: 'topsecret' + gen.from(LOWER, 6),
  mysqldumpQuoted: alnum(10) + ' ' + alnum(6),
  ampersandPassword: 'Tr0ub' + alnum(6) + '&3',
  ampersandBeforeOperator: 'Tr0ub' + alnum(7) + '&x9',
  ampersandFlag: alnum(8) + '&' + alnum(5),
  vault: 'hv' + 's.' + 'CAES' + alnum(40),
  discord: 'MT' + 'A5ODc2NTQzMjEwOTg3NjU0' + '.' + 'GaBcDe' + '.' + alnum(33),
  gitlab: 'gl' + 'pat-' + urlsafe(20),
  huggingface: 'h' + 'f_' + gen.from(UPPER + LOWER, 34),
  sendgrid: 'S' + 'G.' + urlsafe(22) + '.' + urlsafe(43),
  slackWebhook: 'T' + gen.from(UPPER + DIGITS, 8) + '/B' + gen.from(UPPER + DIGITS, 10) + '/' + alnum(24),
  sessionCookie: 'sid=' + alnum(32) + '; csrftoken=' + alnum(24),
};

interface SecretCase {
  readonly name: string;
  readonly kind: SecretKind;
  readonly secret: string;
  /** The context; `{S}` marks where the secret goes. */
  readonly context: string;
  /** Parts of the context that must survive the scrubbing. */
  readonly keep?: readonly string[];
}

const SECRETS: readonly SecretCase[] = [
  {
    name: 'GitLab personal access token in a clone URL',
    kind: 'gitlab-token',
    secret: fake.gitlab,
    context: 'GITLAB={S} glab repo list',
    keep: [' glab repo list'],
  },
  {
    name: 'Hugging Face token in a CLI call',
    kind: 'huggingface-token',
    secret: fake.huggingface,
    context: 'huggingface-cli login --add-to-git-credential {S}',
  },
  {
    name: 'SendGrid key in a curl header',
    kind: 'sendgrid-key',
    secret: fake.sendgrid,
    context: 'curl -H "X-Key: {S}" https://api.sendgrid.com/v3/mail/send',
    keep: ['https://api.sendgrid.com/v3/mail/send'],
  },
  {
    name: 'Slack webhook URL',
    kind: 'webhook-url',
    secret: fake.slackWebhook,
    context: 'curl -X POST https://hooks.slack.com/services/{S} -d @msg.json',
    keep: ['https://hooks.slack.com/services/', ' -d @msg.json'],
  },
  {
    name: 'Cookie header of a request',
    kind: 'cookie',
    secret: fake.sessionCookie,
    context: 'GET / HTTP/1.1\nCookie: {S}\nAccept: */*',
    keep: ['Cookie: ', 'Accept: */*'],
  },
  {
    name: 'OpenAI key in an export line',
    kind: 'openai-key',
    secret: fake.openai,
    context: 'export OPENAI_API_KEY={S}',
    keep: ['export OPENAI_API_KEY='],
  },
  {
    name: 'OpenAI project key in Python code',
    kind: 'openai-key',
    secret: fake.openaiProject,
    context: 'client = OpenAI(api_key="{S}")\nclient.models.list()',
    keep: ['client = OpenAI(api_key="', '")'],
  },
  {
    name: 'Anthropic key in a JSON tool input',
    kind: 'anthropic-key',
    secret: fake.anthropic,
    context: '{"url":"https://api.anthropic.com/v1/messages","headers":{"x-api-key":"{S}"}}',
    keep: ['"x-api-key":"'],
  },
  {
    name: 'OpenAI key assigned through os.environ',
    kind: 'openai-key',
    secret: fake.environApiKey,
    context: 'os.environ["OPENAI_API_KEY"] = "{S}"',
  },
  {
    name: 'GitHub ghp_ token as URL user',
    kind: 'github-token',
    secret: fake.ghp,
    context: 'git clone https://{S}@github.com/acme/infra.git',
    keep: ['git clone https://', '@github.com/acme/infra.git'],
  },
  {
    name: 'GitHub gho_ token in a log line',
    kind: 'github-token',
    secret: fake.gho,
    context: '2024-05-01T12:00:00Z INFO oauth exchange ok token={S} scope=repo',
  },
  {
    name: 'GitHub ghu_ token in a .env file',
    kind: 'github-token',
    secret: fake.ghu,
    context: 'NODE_ENV=production\nGH_USER_TOKEN={S}\nPORT=3000',
    keep: ['NODE_ENV=production', 'PORT=3000'],
  },
  {
    name: 'GitHub ghs_ token in an Authorization token header',
    kind: 'github-token',
    secret: fake.ghs,
    context: 'curl -H "Authorization: token {S}" https://api.github.com/repos/acme/app',
  },
  {
    name: 'GitHub ghr_ token in JSON',
    kind: 'github-token',
    secret: fake.ghr,
    context: '{"refresh_token": "{S}", "expires_in": 15811200}',
    keep: ['"expires_in": 15811200'],
  },
  {
    name: 'GitHub fine-grained PAT in a shell here-string',
    kind: 'github-token',
    secret: fake.githubPat,
    context: 'gh auth login --with-token <<< {S}',
  },
  {
    name: 'AWS access key id in aws configure',
    kind: 'aws-access-key-id',
    secret: fake.akia,
    context: 'aws configure set aws_access_key_id {S} --profile prod',
    keep: ['--profile prod'],
  },
  {
    name: 'Anthropic key glued to a session name by a hyphen',
    kind: 'anthropic-key',
    secret: fake.anthropic2,
    context: '{"speaker":"alice","session":"s-{S}","text":"The deploy region is eu-west-1."}',
    keep: ['"session":"s-'],
  },
  {
    name: 'Anthropic key glued to a lower-case tag',
    kind: 'anthropic-key',
    secret: fake.anthropic3,
    context: 'tags: deploy,tag{S}',
    keep: ['tags: deploy,tag'],
  },
  {
    name: 'AWS access key id glued to a lower-case tag',
    kind: 'aws-access-key-id',
    secret: fake.akia2,
    context: 'tags: deploy,tag{S}',
    keep: ['tags: deploy,tag'],
  },
  {
    name: 'AWS temporary key id in STS JSON',
    kind: 'aws-access-key-id',
    secret: fake.asia,
    context: '{"Credentials": {"AccessKeyId": "{S}", "Expiration": "2024-05-01T13:00:00Z"}}',
  },
  {
    name: 'AWS secret key in an env assignment',
    kind: 'aws-secret-key',
    secret: fake.awsSecret1,
    context: 'AWS_SECRET_ACCESS_KEY={S} aws s3 ls',
    keep: ['AWS_SECRET_ACCESS_KEY=', ' aws s3 ls'],
  },
  {
    name: 'AWS secret key in ~/.aws/credentials',
    kind: 'aws-secret-key',
    secret: fake.awsSecret2,
    context: '[default]\naws_access_key_id = AKIA_NOT_A_KEY\naws_secret_access_key = {S}\nregion = eu-west-1',
    keep: ['region = eu-west-1'],
  },
  {
    name: 'AWS secret key in STS JSON',
    kind: 'aws-secret-key',
    secret: fake.awsSecret3,
    context: '{"SecretAccessKey": "{S}", "SessionToken": "abc"}',
  },
  {
    name: 'AWS session token in an env file',
    kind: 'credential',
    secret: fake.sessionToken,
    context: 'AWS_SESSION_TOKEN={S}',
  },
  {
    name: 'JWT in an Authorization Bearer header',
    kind: 'jwt',
    secret: fake.jwt,
    context: 'GET /v1/me HTTP/1.1\nAuthorization: Bearer {S}\nAccept: application/json',
    keep: ['Authorization: Bearer ', 'Accept: application/json'],
  },
  {
    name: 'JWT in a cookie in a log line',
    kind: 'jwt',
    secret: fake.jwt2,
    context: '[api] 200 GET /dashboard cookie=session={S}; Path=/',
  },
  {
    name: 'RSA private key block across lines',
    kind: 'private-key',
    secret: fake.rsaKey,
    context: 'cat ~/.ssh/deploy_rsa\n{S}\n$ ls',
  },
  {
    name: 'OpenSSH private key block in tool output',
    kind: 'private-key',
    secret: fake.opensshKey,
    context: 'Output:\n{S}\n',
  },
  {
    name: 'EC private key block in a heredoc',
    kind: 'private-key',
    secret: fake.ecKey,
    context: "cat > key.pem <<'EOF'\n{S}\nEOF",
  },
  {
    name: 'PKCS#8 private key block in a TypeScript string',
    kind: 'private-key',
    secret: fake.pkcs8Key,
    context: 'const key = `{S}`;',
  },
  {
    name: 'private key in a GCP service-account JSON with escaped newlines',
    kind: 'private-key',
    secret: fake.gcpKey,
    context: '{"type": "service_account", "private_key": "{S}", "client_email": "x@p.iam.gserviceaccount.com"}',
    keep: ['"client_email": "x@p.iam.gserviceaccount.com"'],
  },
  {
    name: 'opaque Bearer token in a curl header',
    kind: 'bearer-token',
    secret: fake.opaqueBearer,
    context: "curl -s -H 'Authorization: Bearer {S}' https://api.example.com/v2/items",
    keep: ['Authorization: Bearer ', 'https://api.example.com/v2/items'],
  },
  {
    name: 'bare Bearer token in a log line',
    kind: 'bearer-token',
    secret: fake.bareBearer,
    context: 'retrying request with Bearer {S} after 401',
    keep: ['with Bearer ', ' after 401'],
  },
  {
    name: 'Basic credentials in an HTTP header',
    kind: 'basic-auth',
    secret: fake.basic,
    context: 'Authorization: Basic {S}',
    keep: ['Authorization: Basic '],
  },
  {
    name: 'password in a postgres URL',
    kind: 'url-password',
    secret: fake.urlPassword1,
    context: 'psql postgres://app:{S}@db.internal:5432/app',
    keep: ['postgres://app:', '@db.internal:5432/app'],
  },
  {
    name: 'password in a redis URL without user',
    kind: 'url-password',
    secret: fake.urlPassword2,
    context: '{"REDIS_URL": "redis://:{S}@cache:6379/0"}',
    keep: ['redis://:', '@cache:6379/0'],
  },
  {
    name: 'password in an https git URL',
    kind: 'url-password',
    secret: fake.urlPassword3,
    context: 'git clone https://ci-bot:{S}@git.example.org/acme/app.git',
    keep: ['https://ci-bot:', '@git.example.org/acme/app.git'],
  },
  {
    name: 'DB_PASSWORD in a .env file',
    kind: 'credential',
    secret: fake.dbPassword,
    context: 'DB_HOST=localhost\nDB_PASSWORD={S}\nDB_PORT=5432',
    keep: ['DB_PASSWORD=', 'DB_HOST=localhost', 'DB_PORT=5432'],
  },
  {
    name: 'passwd in YAML',
    kind: 'credential',
    secret: fake.yamlPasswd,
    context: 'database:\n  user: app\n  passwd: {S}\n',
    keep: ['passwd: ', 'user: app'],
  },
  {
    name: 'secret in an INI file',
    kind: 'credential',
    secret: fake.iniSecret,
    context: '[oauth]\nsecret={S}\ncallback=/auth/cb',
    keep: ['secret=', 'callback=/auth/cb'],
  },
  {
    name: 'api_key in a JSON tool input',
    kind: 'credential',
    secret: fake.apiKeyJson,
    context: '{"tool":"http_get","api_key": "{S}","q":"weather"}',
    keep: ['"api_key": "', '"q":"weather"'],
  },
  {
    name: 'apiKey in a TypeScript object literal',
    kind: 'credential',
    secret: fake.apiKeyTs,
    context: "const client = new Client({ apiKey: '{S}', timeout: 5000 });",
    keep: ["apiKey: '", 'timeout: 5000'],
  },
  {
    name: 'token in a URL query string',
    kind: 'credential',
    secret: fake.queryToken,
    context: 'GET https://api.example.com/feed?token={S}&page=2',
    keep: ['?token=', '&page=2'],
  },
  {
    name: 'access_token in a JSON response',
    kind: 'credential',
    secret: fake.accessToken,
    context: '{"access_token":"{S}","token_type":"bearer","expires_in":3600}',
    keep: ['"token_type":"bearer"'],
  },
  {
    name: 'client_secret in a Python dict',
    kind: 'credential',
    secret: fake.clientSecret,
    context: "payload = {'client_id': 'web-app', 'client_secret': '{S}'}",
    keep: ["'client_id': 'web-app'"],
  },
  {
    name: 'GITHUB_TOKEN exported in a shell',
    kind: 'credential',
    secret: fake.githubTokenEnv,
    context: 'export GITHUB_TOKEN={S} && gh pr list',
    keep: ['export GITHUB_TOKEN=', ' && gh pr list'],
  },
  {
    name: 'password given as a CLI flag',
    kind: 'credential',
    secret: fake.cliPassword,
    context: 'mysql -h db -u root --password {S} -e "select 1"',
    keep: ['--password ', '-e "select 1"'],
  },
  {
    name: 'token given as a CLI flag with =',
    kind: 'credential',
    secret: fake.cliToken,
    context: 'vault login --token={S} -method=token',
    keep: ['--token=', '-method=token'],
  },
  {
    name: 'passphrase with spaces in JSON',
    kind: 'credential',
    secret: fake.passphrase,
    context: '{"username": "ada", "password": "{S}"}',
    keep: ['"username": "ada"'],
  },
  { name: 'Slack bot token in a config', kind: 'slack-token', secret: fake.slack, context: 'slack:\n  bot: {S}' },
  {
    name: 'Stripe live secret key in code',
    kind: 'stripe-key',
    secret: fake.stripe,
    context: 'stripe = Stripe("{S}")',
  },
  {
    name: 'Stripe restricted key in an env file',
    kind: 'stripe-key',
    secret: fake.stripeRestricted,
    context: 'STRIPE_RESTRICTED={S}',
  },
  {
    name: 'Google API key in a maps URL',
    kind: 'google-api-key',
    secret: fake.google,
    context: 'https://maps.googleapis.com/maps/api/geocode/json?address=Paris&k={S}',
    keep: ['address=Paris'],
  },
  {
    name: 'npm token in .npmrc',
    kind: 'npm-token',
    secret: fake.npm,
    context: '//registry.npmjs.org/:_authToken={S}',
    keep: ['//registry.npmjs.org/:_authToken='],
  },
  {
    name: 'user:password given to curl -u',
    kind: 'credential',
    secret: fake.curlUserPassword,
    context: 'curl -u admin:{S} https://jenkins.example.com/api/json',
    keep: ['-u admin:', 'https://jenkins.example.com/api/json'],
  },
  {
    name: 'raw token in an Authorization header',
    kind: 'authorization',
    secret: fake.rawAuthorization,
    context: 'headers = {"Authorization": "{S}"}',
    keep: ['"Authorization": "'],
  },
  {
    name: 'X-Api-Key header',
    kind: 'credential',
    secret: fake.xApiKey,
    context: 'X-Api-Key: {S}\nContent-Type: application/json',
    keep: ['X-Api-Key: ', 'Content-Type: application/json'],
  },
  {
    name: 'very long raw token in an Authorization header',
    kind: 'authorization',
    secret: fake.longRawAuthorization,
    context: 'Proxy-Authorization: {S}\nHost: x',
    keep: ['Proxy-Authorization: ', 'Host: x'],
  },
  {
    name: 'POSTGRES_PASSWORD passed to docker run',
    kind: 'credential',
    secret: fake.dockerPassword,
    context: 'docker run -e POSTGRES_PASSWORD={S} -p 5432:5432 postgres:16',
    keep: ['-p 5432:5432 postgres:16'],
  },
  // Credential words glued to a prefix, the short -p of mysql, mariadb and sshpass, and `&` inside a value.
  {
    name: 'PGPASSWORD before psql',
    kind: 'credential',
    secret: fake.pgPassword,
    context: 'PGPASSWORD={S} psql -h db -U app app',
    keep: ['PGPASSWORD=', ' psql -h db -U app app'],
  },
  {
    name: 'quoted PGPASSWORD before pg_dump',
    kind: 'credential',
    secret: fake.pgPasswordQuoted,
    context: 'PGPASSWORD="{S}" pg_dump -h db app > app.sql',
    keep: ['PGPASSWORD="', '" pg_dump -h db app > app.sql'],
  },
  {
    name: 'DBPASSWORD in a .env file',
    kind: 'credential',
    secret: fake.dbPasswordGlued,
    context: 'DBHOST=db\nDBPASSWORD={S}\nDBPORT=5432',
    keep: ['DBHOST=db', 'DBPASSWORD=', 'DBPORT=5432'],
  },
  {
    name: 'lowercase adminpassword in a config',
    kind: 'credential',
    secret: fake.adminPassword,
    context: '[admin]\nadminuser=root\nadminpassword={S}',
    keep: ['adminuser=root', 'adminpassword='],
  },
  {
    name: 'NPMTOKEN before npm publish',
    kind: 'credential',
    secret: fake.npmTokenEnv,
    context: 'NPMTOKEN={S} npm publish --access public',
    keep: ['NPMTOKEN=', ' npm publish --access public'],
  },
  {
    name: 'MYSQL_PWD before mysql',
    kind: 'credential',
    secret: fake.mysqlPwd,
    context: 'MYSQL_PWD={S} mysql -u root app -e "show tables"',
    keep: ['MYSQL_PWD=', ' mysql -u root app -e "show tables"'],
  },
  {
    name: 'DBPASS exported in a shell',
    kind: 'credential',
    secret: fake.dbPass,
    context: "export DBPASS='{S}'",
    keep: ["export DBPASS='", "'"],
  },
  {
    name: 'SSHPASS before sshpass -e',
    kind: 'credential',
    secret: fake.sshpassEnv,
    context: 'SSHPASS={S} sshpass -e ssh deploy@web-1 uptime',
    keep: ['SSHPASS=', ' sshpass -e ssh deploy@web-1 uptime'],
  },
  {
    name: 'keytool -storepass',
    kind: 'credential',
    secret: fake.keystorePass,
    context: 'keytool -list -keystore app.jks -storepass {S} -v',
    keep: ['-storepass ', ' -v'],
  },
  {
    name: 'password given to sshpass -p',
    kind: 'credential',
    secret: fake.sshpassSpaced,
    context: 'sshpass -p {S} ssh deploy@web-1 "sudo systemctl restart app"',
    keep: ['sshpass -p ', ' ssh deploy@web-1 "sudo systemctl restart app"'],
  },
  {
    name: 'quoted password glued to sshpass -p after another option',
    kind: 'credential',
    secret: fake.sshpassGlued,
    context: "sshpass -v -p'{S}' scp build.tgz deploy@web-1:/srv",
    keep: ["sshpass -v -p'", "' scp build.tgz deploy@web-1:/srv"],
  },
  {
    name: 'password glued to mysql -p before the database',
    kind: 'credential',
    secret: fake.mysqlGlued,
    context: 'mysql -u root -p{S} mydb < schema.sql',
    keep: ['mysql -u root -p', ' mydb < schema.sql'],
  },
  {
    name: 'word password glued to mariadb -p in docker exec',
    kind: 'credential',
    secret: fake.mariadbGlued,
    context: 'docker exec -it db mariadb -uroot -p{S} shop',
    keep: ['docker exec -it db mariadb -uroot -p', ' shop'],
  },
  {
    name: 'quoted passphrase glued to mysqldump -p',
    kind: 'credential',
    secret: fake.mysqldumpQuoted,
    context: 'mysqldump -uroot -p"{S}" shop > shop.sql',
    keep: ['mysqldump -uroot -p"', '" shop > shop.sql'],
  },
  {
    name: 'password with & given as --password=',
    kind: 'credential',
    secret: fake.ampersandPassword,
    context: 'mysql --password={S} -h db -e "select 1"',
    keep: ['--password=', ' -h db -e "select 1"'],
  },
  {
    name: 'password with & before a shell &&',
    kind: 'credential',
    secret: fake.ampersandBeforeOperator,
    context: 'deploy --password={S} && systemctl restart app',
    keep: ['--password=', ' && systemctl restart app'],
  },
  {
    name: 'password with & after a spaced --password flag',
    kind: 'credential',
    secret: fake.ampersandFlag,
    context: 'app-cli login --password {S} --user ada',
    keep: ['--password ', ' --user ada'],
  },
  {
    name: 'HashiCorp Vault token',
    kind: 'vault-token',
    secret: fake.vault,
    context: 'vault login {S} && vault kv get secret/db',
    keep: ['vault login ', ' && vault kv get secret/db'],
  },
  {
    name: 'Discord bot token',
    kind: 'discord-token',
    secret: fake.discord,
    context: 'client.login("{S}")',
    keep: ['client.login("', '")'],
  },
];

const place = (c: SecretCase): string => c.context.split('{S}').join(c.secret);

const LOOK_ALIKES: readonly [string, string][] = [
  ['a page id in kebab case', 'open sk-admin-dashboard-settings-navigation-page and locale sk-proj-onboarding-notes'],
  ['a snake_case word holding ghs_', 'laughs_abcdefghijklmnopqrstuvwxyz0123456789'],
  ['a 40-hex git SHA', 'commit 3f786850e387550fdab836ed7e6dc881de23001b\nAuthor: Ada <ada@example.com>'],
  ['a short git SHA', 'HEAD is now at 3f78685 fix: handle empty input'],
  ['a UUID', 'created run 123e4567-e89b-12d3-a456-426614174000 for session 9b2f0c4e-1d7a-4f3e-8a6b-5c9d2e1f0a7b'],
  ['a sha256 digest', 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  node-v20.tar.gz'],
  ['an md5 digest', 'md5sum: d41d8cd98f00b204e9800998ecf8427e'],
  ['base64 image data', 'data:image/png;base64,iVBORw0KGgo' + gen.from(B64, 4000) + '=='],
  ['a token assigned from a call', 'const token = getToken()'],
  ['an api key read from config', 'const apiKey = config.apiKey;'],
  ['a password read from the environment', 'password = os.environ.get("DB_PASSWORD")'],
  ['object shorthand with a variable', 'return { token: userToken, password: hashedPassword };'],
  ['a comparison with an empty password', "if (password === '') return;"],
  ['an empty password', "password: ''"],
  ['a typed field', 'interface Login { password: string; token?: string | undefined }'],
  ['a placeholder', 'password: ${DB_PASSWORD}\ntoken: "{{ secrets.GITHUB_TOKEN }}"\napi_key: <your-api-key>'],
  ['the word secret in prose', 'The secret to good tests is that they fail for one reason. Keep the secret safe.'],
  ['npm package names', 'npm install @types/node left-pad secret-handshake token-types keytar'],
  ['file paths', 'edit src/auth/token-store.ts and /home/ada/.ssh/id_ed25519.pub'],
  ['a URL without credentials', 'see https://github.com/org/repo and ssh://git@github.com/org/repo.git'],
  ['an ISO timestamp', '2024-05-01T12:34:56.789Z'],
  ['a semver string', 'upgraded typescript from 5.4.5 to 7.0.2-beta.1+build.20240501'],
  ['Bearer in prose', 'The bearer of this letter is a friend. Bearer tokens are described in RFC 6750.'],
  ['max_tokens and token counts', '{"model": "claude", "max_tokens": 4096, "input_tokens": 1234567890}'],
  ['token_type in a response', '{"token_type": "bearer", "scope": "repo"}'],
  ['the shell working directory', 'PWD=/home/ada/projects/credence OLDPWD=/home/ada'],
  [
    'docker login reading a password from stdin',
    'echo "$PW" | docker login --password-stdin -u ada registry.example.com',
  ],
  ['Basic in prose', 'Basic usage: run credence init, then credence recall.'],
  ['an Authorization header mentioned in prose', 'The Authorization: header is required for admin routes.'],
  ['a tokenizer', 'tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")'],
  ['a git remote over ssh', 'git@github.com:acme/app.git'],
  ['a localhost URL with a port', 'http://localhost:8080/api/v1/items?page=2&limit=50'],
  ['a key that is not a credential', 'primary_key = "id"\nsort_key: created_at\ncache_key=user-42'],
  ['docker run with uid:gid', 'docker run -u 1000:1000 node:20 npm test'],
  ['a masked value', 'password: ********'],
  ['words that end in pass', 'bypass=proxy01 compass=north42 surpass=level9 trespass=no'],
  ['max_tokens assignments', 'max_tokens=1000 maxtokens=2048 MAX_TOKENS=4096'],
  ['a keypass setting', 'keypass_enabled=false'],
  ['the previous directory', 'OLDPWD=/home/ada/projects/credence'],
  ['mysql prompting for a password', 'mysql -u root -p mydb'],
  ['-p options of other commands', 'ssh -p 2222 deploy@host && mkdir -p build/out && docker run -p 8080:80 nginx'],
  ['a container named mysql', 'docker run --name mysql -p3306:3306 -d mysql:8'],
  ['a psql port next to a mysql host', 'psql -h mysql -p5432 app'],
  [
    'sshpass with the password in a variable or a file',
    'sshpass -p "$SSHPASS" ssh host && sshpass -f ~/.pw ssh -p 2222 host',
  ],
  ['mysql with the password in a variable', 'mysql -u root -p"$MYSQL_PASSWORD" app && mysqldump -p$PW shop'],
  ['a token budget and a password policy', 'The token budget for this run is 128000; the password policy is NIST800.'],
];

/** 300 KB of `unit` repeated is read a bounded number of times per character; scrubbing the result changes nothing. */
function expectBoundedWork(unit: string): void {
  const text = unit.repeat(Math.ceil(300_000 / unit.length));
  const before = scrubWork();
  const once = scrubText(text).text;
  expect(scrubWork() - before).toBeLessThan(512 * text.length);
  expect(scrubText(once).text).toBe(once);
}

describe('scrubText on the secret corpus', () => {
  it('has at least 40 secrets and 20 look-alikes, every fake secret distinct', () => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(40);
    expect(LOOK_ALIKES.length).toBeGreaterThanOrEqual(20);
    expect(new Set(SECRETS.map((c) => c.secret)).size).toBe(SECRETS.length);
  });

  it('exercises every secret kind', () => {
    expect(new Set(SECRETS.map((c) => c.kind))).toEqual(new Set(SECRET_KINDS));
  });

  for (const c of SECRETS) {
    it(`removes the ${c.name} and reports it as ${c.kind}`, () => {
      const input = place(c);
      expect(input).toContain(c.secret);
      const out = scrubText(input);
      expect(out.text).not.toContain(c.secret);
      expect(out.redactions.map((r) => r.kind)).toContain(c.kind);
      expect(out.text).toContain(redactionMarker(c.kind));
      for (const part of c.keep ?? []) expect(out.text).toContain(part);
      expect(containsSecret(input)).toBe(true);
    });
  }

  it('removes every secret when they all appear in one text', () => {
    const input = SECRETS.map(place).join('\n---\n');
    const out = scrubText(input);
    for (const c of SECRETS) expect(out.text).not.toContain(c.secret);
    expect(out.redactions.length).toBeGreaterThanOrEqual(SECRETS.length);
  });
});

describe('scrubText on look-alikes', () => {
  for (const [name, text] of LOOK_ALIKES) {
    it(`leaves ${name} unchanged`, () => {
      const out = scrubText(text);
      expect(out.text).toBe(text);
      expect(out.redactions).toEqual([]);
      expect(containsSecret(text)).toBe(false);
    });
  }
});

describe('scrubText frames and markers', () => {
  it('keeps the assignment key and redacts only the value', () => {
    const value = alnum(24);
    expect(scrubText('API_KEY=' + value).text).toBe('API_KEY=[REDACTED:credential]');
  });

  it('keeps the user and host of a URL and redacts only the password', () => {
    const pw = alnum(12);
    expect(scrubText(`https://ada:${pw}@example.com/x`).text).toBe('https://ada:[REDACTED:url-password]@example.com/x');
  });

  it('keeps the Bearer scheme and redacts only the token', () => {
    expect(scrubText('Authorization: Bearer ' + alnum(30)).text).toBe('Authorization: Bearer [REDACTED:bearer-token]');
  });

  it('reports each redaction at the offset of its marker in the scrubbed text', () => {
    const input = `user=ada password=${fake.dbPassword} key=${fake.ghp} url=https://a:${fake.urlPassword1}@h`;
    const out = scrubText(input);
    expect(out.redactions.map((r) => r.kind)).toEqual(['credential', 'github-token', 'url-password']);
    for (const r of out.redactions) expect(out.text.startsWith(redactionMarker(r.kind), r.index)).toBe(true);
  });

  it('names the most specific kind when a vendor token sits in a credential assignment', () => {
    const out = scrubText(`OPENAI_API_KEY="${fake.openai}"`);
    expect(out.text).toBe('OPENAI_API_KEY="[REDACTED:openai-key]"');
    expect(out.redactions).toEqual([{ kind: 'openai-key', index: 16 }]);
  });

  it('redacts an unterminated private key block to the end of the text', () => {
    const cut = fake.rsaKey.slice(0, 120);
    const out = scrubText('key:\n' + cut);
    expect(out.text).toBe('key:\n[REDACTED:private-key]');
  });

  it('returns the very same string when nothing is found', () => {
    const text = 'plain words with a key and a pass';
    expect(scrubText(text).text).toBe(text);
  });

  it('uses the marker format of SCRUB_DEFAULTS, which cannot be changed at run time', () => {
    expect(redactionMarker('jwt')).toBe(`${SCRUB_DEFAULTS.markerPrefix}jwt${SCRUB_DEFAULTS.markerSuffix}`);
    expect(Object.isFrozen(SCRUB_DEFAULTS)).toBe(true);
    expect(Object.isFrozen(SECRET_KINDS)).toBe(true);
  });

  it('does not take a function call, member path or variable as a credential value', () => {
    for (const text of [
      'token = jwt.sign(payload, key)',
      'api_key = args.api_key',
      'self.password = password',
      'export GITHUB_TOKEN=$(gh auth token)',
      'secret: process.env.SESSION_SECRET!',
      'password=$DB_PASSWORD',
      'const secret = randomSecret;',
      'const secret = generated;',
      'lastToken = match[0];',
      'export type DotToken = Token<SyntaxKind.DotToken>;',
      '(params: P, token: CancellationToken): HandlerResult<R, E>;',
      'options.onToken = function (token) { return tokens.push(token); };',
      '{ pass: "passed", token: "GITHUB_TOKEN" }',
    ]) {
      expect(scrubText(text).text).toBe(text);
    }
  });

  it('takes short quoted and digit-bearing values after a credential key as secrets', () => {
    expect(scrubText('password = "hunter2"').text).toBe('password = "[REDACTED:credential]"');
    expect(scrubText('password: hunter2').text).toBe('password: [REDACTED:credential]');
    expect(scrubText('password: letmeinplease').text).toBe('password: [REDACTED:credential]');
    expect(scrubText('DB_PASSWORD=Hunter2!').text).toBe('DB_PASSWORD=[REDACTED:credential]');
    expect(scrubText('{pw:x, password:abc123}').text).toBe('{pw:x, password:[REDACTED:credential]}');
  });
});

describe('scrubText on glued keys, short password options and & in values', () => {
  const pw = 'Hunter2' + 'Secret';

  it('redacts a credential word glued to a prefix, quoted or not, and keeps the key', () => {
    const v = 'pa55' + 'word';
    expect(scrubText(`PGPASSWORD=${v} psql`).text).toBe('PGPASSWORD=[REDACTED:credential] psql');
    expect(scrubText(`PGPASSWORD="${v}" psql`).text).toBe('PGPASSWORD="[REDACTED:credential]" psql');
    expect(scrubText(`DBPASSWORD=${v}`).text).toBe('DBPASSWORD=[REDACTED:credential]');
    expect(scrubText(`adminpassword=${v}`).text).toBe('adminpassword=[REDACTED:credential]');
    expect(scrubText(`NPMTOKEN=${v}`).text).toBe('NPMTOKEN=[REDACTED:credential]');
    expect(scrubText(`MYSQL_PWD=${v}`).text).toBe('MYSQL_PWD=[REDACTED:credential]');
    expect(scrubText(`clientsecret: ${v}`).text).toBe('clientsecret: [REDACTED:credential]');
    expect(scrubText(`DBPASS=${v} SSHPASS=${v}`).text).toBe(
      'DBPASS=[REDACTED:credential] SSHPASS=[REDACTED:credential]',
    );
  });

  it('does not take a glued pass that ends an ordinary word, nor a count of tokens, as a credential key', () => {
    for (const text of [
      'bypass=Hunter22',
      'compass=Hunter22',
      'encompass: Hunter22',
      'max_tokens=1000',
      'keypass_enabled=false',
      'OLDPWD=Hunter22',
    ]) {
      expect(scrubText(text).text).toBe(text);
    }
  });

  it('redacts the value after sshpass -p, spaced or glued, and not the -p of the command it runs', () => {
    expect(scrubText(`sshpass -p ${pw} ssh host`).text).toBe('sshpass -p [REDACTED:credential] ssh host');
    expect(scrubText(`sshpass -p${pw} ssh host`).text).toBe('sshpass -p[REDACTED:credential] ssh host');
    expect(scrubText(`sshpass -v -p "${pw}" ssh host`).text).toBe('sshpass -v -p "[REDACTED:credential]" ssh host');
    expect(scrubText(`sshpass -p ${pw} ssh -p 2222 host`).text).toBe(
      'sshpass -p [REDACTED:credential] ssh -p 2222 host',
    );
  });

  it('redacts a password glued to mysql -p and keeps the database; the prompting -p stays', () => {
    expect(scrubText(`mysql -u root -p${pw} mydb`).text).toBe('mysql -u root -p[REDACTED:credential] mydb');
    expect(scrubText('mysql -u root -psupersecret mydb').text).toBe('mysql -u root -p[REDACTED:credential] mydb');
    expect(scrubText(`mysqldump -uroot -p'${pw}' shop > shop.sql`).text).toBe(
      "mysqldump -uroot -p'[REDACTED:credential]' shop > shop.sql",
    );
    expect(scrubText(`/usr/bin/mariadb -uroot -p${pw} -e "select 1"`).text).toBe(
      '/usr/bin/mariadb -uroot -p[REDACTED:credential] -e "select 1"',
    );
    expect(scrubText(`mysql -p${pw} app; ls -p${pw}`).text).toBe(`mysql -p[REDACTED:credential] app; ls -p${pw}`);
    expect(scrubText('mysql -u root -p mydb').text).toBe('mysql -u root -p mydb');
    expect(scrubValue(['mysql -u root -p mydb', `mysql -uroot -p${pw} mydb`])).toEqual([
      'mysql -u root -p mydb',
      'mysql -uroot -p[REDACTED:credential] mydb',
    ]);
  });

  it('takes & inside an unquoted value as part of it, unless it starts a shell operator or the next parameter', () => {
    const v = 'Tr0ub4dor';
    expect(scrubText(`--password=${v}&3`).text).toBe('--password=[REDACTED:credential]');
    expect(scrubText(`--password ${v}&3 -v`).text).toBe('--password [REDACTED:credential] -v');
    expect(scrubText(`cmd --password=${v} && next`).text).toBe('cmd --password=[REDACTED:credential] && next');
    expect(scrubText(`cmd --password=${v}&& next`).text).toBe('cmd --password=[REDACTED:credential]&& next');
    expect(scrubText(`cmd --password=${v}& next`).text).toBe('cmd --password=[REDACTED:credential]& next');
    expect(scrubText(`cmd --password=${v}&>/dev/null`).text).toBe('cmd --password=[REDACTED:credential]&>/dev/null');
    expect(scrubText(`cmd --password=${v}&`).text).toBe('cmd --password=[REDACTED:credential]&');
    expect(scrubText(`/feed?token=${v}1&page=2`).text).toBe('/feed?token=[REDACTED:credential]&page=2');
    expect(scrubText(`/feed?token=${v}1&amp;page=2`).text).toBe('/feed?token=[REDACTED:credential]&amp;page=2');
  });

  it('decides a -p the same way when the text is scrubbed again', () => {
    // A `&`, `;`, newline or client word inside a secret is gone once the secret is a marker, so it
    // must count for nothing the first time either.
    const texts = [
      `mysql --password=Tr0ub${alnum(6)}&3 -h db -e "select 1"export OPENAI_API_KEY=${fake.openai}` +
        `mysqldump -uroot -p"${alnum(8)} ${alnum(6)}" shop`,
      `mysql --password="a;${alnum(6)}" -p${pw} db`,
      `mysql -p"a;${alnum(6)}" -p"c|${alnum(6)}" db`,
      `mysql -u root ${fake.pkcs8Key}sshpass -p${pw} ssh host`,
      `token="x mysql" -ppassword mydb`,
      `sshpass -p${pw} mysql -uroot -p${pw}1 db`,
    ];
    for (const text of texts) {
      const once = scrubText(text).text;
      expect(once).not.toContain(pw);
      expect(scrubText(once).text).toBe(once);
    }
  });

  it('does not take the = of a key glued to a Basic token as padding once its value is redacted', () => {
    const text = `Authorization: Basic ${fake.basic}NPMTOKEN=${fake.npmTokenEnv} npm publish`;
    const once = scrubText(text).text;
    expect(once).toBe(`Authorization: Basic ${fake.basic}NPMTOKEN=[REDACTED:credential] npm publish`);
    expect(scrubText(once).text).toBe(once);
  });

  it('is idempotent on commands mixing clients, -p options, breaks and secrets', () => {
    const pieces = fc.constantFrom(
      'mysql',
      'mariadb',
      'sshpass',
      'mysqldump',
      ' ',
      '\n',
      ';',
      '&',
      '&&',
      '|',
      '"',
      "'",
      '=',
      '-',
      ' -p',
      ' -p ',
      ` -p${pw}`,
      ' -p"a;b c1"',
      " -p'x|y z2'",
      ' -ppassword',
      ' -psupersecret',
      ' mydb',
      ' --name ',
      ' -h ',
      ' -it ',
      '--password=',
      'token=',
      'PGPASSWORD=',
      ' --password ',
      'Tr0ub&3',
      '&3',
      'https://u:pa;ss1@h',
      fake.openai,
      fake.pkcs8Key,
      ' -u a:b;c1 ',
      '/usr/bin/mysql',
      'mysql:8',
      ' -v',
      ' ssh',
      '$PW',
      'abc123',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, pieces, fc.string({ maxLength: 6 })), { maxLength: 14 }), (parts) => {
        const once = scrubText(parts.join('')).text;
        expect(scrubText(once).text).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });

  it('takes a glued credential key as the frame of a bare string value', () => {
    expect(
      scrubValue({ PGPASSWORD: 'pa55' + 'word', NPMTOKEN: alnum(20), bypass: 'proxy01', max_tokens: '1000' }),
    ).toEqual({
      PGPASSWORD: '[REDACTED:credential]',
      NPMTOKEN: '[REDACTED:credential]',
      bypass: 'proxy01',
      max_tokens: '1000',
    });
  });

  it('stays linear on repeated -p options, client words and & in values', () => {
    const inputs = [
      ' -pa'.repeat(250_000),
      'mysql -p '.repeat(100_000),
      'mysql' + ' -p'.repeat(300_000),
      'mysql' + ' -pHunter2Secret x'.repeat(50_000),
      'sshpass -p '.repeat(80_000),
      'sshpass' + ' -x/sshpass'.repeat(90_000) + ' -p x',
      ' --name mysql'.repeat(70_000) + ' -pabc',
      'password=a&'.repeat(90_000),
      'token=' + '&b'.repeat(400_000),
      'token='.repeat(40) + '&' + 'b'.repeat(1_000_000),
      'PGPASSWORD='.repeat(80_000),
    ];
    // No wall-clock assertion (it would flake on a loaded machine): catastrophic backtracking
    // shows as the test's own timeout, and each input must still come out scrubbed and idempotent.
    for (const input of inputs) {
      const once = scrubText(input).text;
      expect(scrubText(once).text).toBe(once);
    }
  });
});

describe('scrubText idempotence', () => {
  it('changes nothing when a scrubbed corpus text is scrubbed again', () => {
    for (const c of SECRETS) {
      const once = scrubText(place(c)).text;
      const twice = scrubText(once);
      expect(twice.text).toBe(once);
      expect(twice.redactions).toEqual([]);
      expect(containsSecret(once)).toBe(false);
    }
  });

  it('is idempotent on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const once = scrubText(s).text;
        expect(scrubText(once).text).toBe(once);
      }),
    );
  });

  it('is idempotent on secrets mixed into arbitrary text', () => {
    const pieces = fc.constantFrom(
      ...SECRETS.map(place),
      ' ',
      '\n',
      '=',
      ':',
      '"',
      'password',
      'Bearer ',
      '://u:',
      '@h',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string({ maxLength: 12 })), { maxLength: 8 }), (parts) => {
        const once = scrubText(parts.join('')).text;
        expect(scrubText(once).text).toBe(once);
      }),
    );
  });
});

describe('scrubText properties', () => {
  it('leaves text made only of lowercase words and spaces unchanged', () => {
    const words = fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { maxLength: 40 });
    fc.assert(
      fc.property(words, fc.constantFrom(' ', '  '), (ws, gap) => {
        const text = ws.join(gap);
        expect(scrubText(text).text).toBe(text);
        expect(containsSecret(text)).toBe(false);
      }),
    );
  });

  it('leaves lowercase prose that names secrets unchanged', () => {
    const words = fc.array(
      fc.constantFrom(
        'the',
        'password',
        'token',
        'secret',
        'bearer',
        'basic',
        'api',
        'key',
        'is',
        'of',
        'authorization',
        'credentials',
        'pass',
      ),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(words, (ws) => {
        expect(scrubText(ws.join(' ')).text).toBe(ws.join(' '));
      }),
    );
  });
});

describe('scrubText performance', () => {
  it('scrubs a megabyte of base64 and adversarial repetitions in linear time', () => {
    const inputs = [
      'data:image/png;base64,' + gen.from(B64, 1_000_000),
      'a.'.repeat(200_000),
      '"password": "' + 'a'.repeat(200_000),
      'token='.repeat(50_000),
      'Authorization: '.repeat(20_000),
      '://:'.repeat(50_000),
      '-----BEGIN PRIVATE KEY-----'.repeat(10_000),
      'eyJ' + 'a'.repeat(100_000) + '.',
      'password-'.repeat(50_000),
      'token=$a'.repeat(25_000),
      'bypass='.repeat(30_000),
      'token=a('.repeat(25_000),
      'authorization:-'.repeat(15_000),
      "token: \"x token: 'y' ".repeat(10_000),
    ];
    // No wall-clock assertion (it would flake on a loaded machine): catastrophic backtracking
    // shows as the test's own timeout, and each input must still come out scrubbed and idempotent.
    for (const input of inputs) {
      const once = scrubText(input).text;
      expect(scrubText(once).text).toBe(once);
    }
  });

  it('leaves ordinary text as the very same string', () => {
    const text = 'Ran the test suite; 42 tests passed in 1.2 s on node 20.\n'.repeat(100);
    const result = scrubText(text);
    expect(result.text).toBe(text);
    expect(result.redactions).toEqual([]);
    expect(containsSecret(text)).toBe(false);
  });
});

describe('scrubValue', () => {
  const toolInput = () => ({
    tool_name: 'Bash',
    tool_input: {
      command: `curl -H "Authorization: Bearer ${fake.opaqueBearer}" https://api.example.com`,
      description: 'call the API',
      timeout: 30_000,
      env: { OPENAI_API_KEY: fake.openai, DEBUG: true, retries: null },
      args: ['--token', fake.ghp, ['nested', `password=${fake.dbPassword}`]],
    },
    [`password=${fake.dbPassword}`]: 'keys are left as they are',
    count: 3,
    missing: undefined,
  });

  it('scrubs every string at any depth and leaves keys and non-strings as they are', () => {
    const out = scrubValue(toolInput());
    expect(out.tool_input.command).toBe(
      'curl -H "Authorization: Bearer [REDACTED:bearer-token]" https://api.example.com',
    );
    expect(out.tool_input.env.OPENAI_API_KEY).toBe('[REDACTED:openai-key]');
    expect(out.tool_input.args[1]).toBe('[REDACTED:github-token]');
    expect(out.tool_input.args[2]).toEqual(['nested', 'password=[REDACTED:credential]']);
    expect(out.tool_input.timeout).toBe(30_000);
    expect(out.tool_input.env.DEBUG).toBe(true);
    expect(out.tool_input.env.retries).toBeNull();
    expect(out.count).toBe(3);
    expect('missing' in out && out.missing === undefined).toBe(true);
    expect(Object.keys(out)).toEqual(Object.keys(toolInput()));
    expect(JSON.stringify(out)).not.toContain(fake.opaqueBearer);
    expect(JSON.stringify(out.tool_input)).not.toContain(fake.openai);
  });

  it('never mutates its input and returns new containers', () => {
    const input = toolInput();
    const before = structuredClone(input);
    const out = scrubValue(input);
    expect(input).toEqual(before);
    expect(out).not.toBe(input);
    expect(out.tool_input).not.toBe(input.tool_input);
    expect(out.tool_input.args).not.toBe(input.tool_input.args);
  });

  it('is idempotent', () => {
    const once = scrubValue(toolInput());
    expect(scrubValue(once)).toEqual(once);
  });

  it('returns non-string scalars and a plain string as they would be scrubbed', () => {
    expect(scrubValue(42)).toBe(42);
    expect(scrubValue(null)).toBeNull();
    expect(scrubValue(undefined)).toBeUndefined();
    expect(scrubValue(`token=${fake.queryToken}`)).toBe('token=[REDACTED:credential]');
  });

  it('copies cycles and shared references without looping', () => {
    interface Node {
      name: string;
      self?: Node;
      items: unknown[];
    }
    const node: Node = { name: `password=${fake.dbPassword}`, items: [] };
    node.self = node;
    node.items.push(node, node.items);
    const out = scrubValue(node);
    expect(out.name).toBe('password=[REDACTED:credential]');
    expect(out.self).toBe(out);
    expect(out.items[0]).toBe(out);
    expect(out.items[1]).toBe(out.items);
    expect(node.name).toContain(fake.dbPassword);
  });

  it('stays bounded in depth: a value deeper than the limit becomes the marker; no stack overflow', () => {
    // Before: a tool_input nested 5,000 deep overflowed the stack ("Maximum call stack size exceeded") in the hook.
    const nest = (levels: number, leaf: unknown, array = false): unknown => {
      let v = leaf;
      for (let i = 0; i < levels; i += 1) v = array ? [v] : { a: v };
      return v;
    };
    const down = (v: unknown, levels: number): unknown => {
      let at = v;
      for (let i = 0; i < levels; i += 1) at = Array.isArray(at) ? at[0] : (at as { a: unknown }).a;
      return at;
    };
    const shallow = nest(SCRUB_MAX_DEPTH, `password=${fake.dbPassword}`);
    expect(down(scrubValue(shallow), SCRUB_MAX_DEPTH)).toBe('password=[REDACTED:credential]');
    const deeper = nest(SCRUB_MAX_DEPTH + 3, { token: fake.ghp });
    const out = scrubValue(deeper);
    expect(down(out, SCRUB_MAX_DEPTH + 1)).toBe(TOO_DEEP_MARKER);
    expect(JSON.stringify(out)).not.toContain(fake.ghp);
    expect(scrubValue(out)).toEqual(out);
    for (const [levels, array] of [
      [5_000, false],
      [200_000, true],
    ] as const) {
      const huge = scrubValue(nest(levels, fake.ghp, array));
      expect(down(huge, SCRUB_MAX_DEPTH + 1)).toBe(TOO_DEEP_MARKER);
      expect(JSON.stringify(huge).length).toBeLessThan(levels * 8);
    }
    expect(down(scrubValue(nest(200_000, 'x', true)), SCRUB_MAX_DEPTH + 1)).toBe(TOO_DEEP_MARKER);
  });

  it('keeps no secret of a value deeper than the limit that a shallow one would lose (flags and keys, 70 deep)', () => {
    // Before: below the limit the value was scrubbed as its JSON text, where a bare value after a CLI flag
    // (`["--password", "hunter2hunter2"]`) is no longer framed: it was stored in clear.
    const nest = (levels: number, leaf: unknown, array: boolean): unknown => {
      let v = leaf;
      for (let i = 0; i < levels; i += 1) v = array ? [v] : { a: v };
      return v;
    };
    const secret = 'hunter2hunter2';
    const forms: unknown[] = [
      ['mysql', '--password', secret],
      ['--token', secret],
      ['--api-key', secret],
      { password: secret },
      { apiKey: secret },
      { client_secret: secret },
      { Authorization: `Bearer ${secret}` },
      { cookie: `session=${secret}` },
    ];
    for (const form of forms) {
      for (const array of [false, true]) {
        const shallow = JSON.stringify(scrubValue(nest(3, form, array)));
        expect(shallow, JSON.stringify(form)).not.toContain(secret);
        const deep = JSON.stringify(scrubValue(nest(70, form, array)));
        expect(deep, JSON.stringify(form)).not.toContain(secret);
        expect(deep).toContain(TOO_DEEP_MARKER);
      }
    }
  });

  it('keeps a "__proto__" key as a plain key', () => {
    const input = JSON.parse('{"__proto__": {"token": "abc12345xyz"}, "a": 1}') as Record<string, unknown>;
    const out = scrubValue(input);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"token":"[REDACTED:credential]"},"a":1}');
  });

  it('takes a credential key or a preceding CLI flag as the frame of a bare string value', () => {
    const out = scrubValue({
      password: 'hunter2',
      apiKey: fake.apiKeyTs,
      client_secret: fake.clientSecret,
      openai_api_key: fake.openai,
      headers: { Authorization: 'Bearer ' + alnum(20), 'proxy-authorization': 'Basic ' + fake.basic },
      args: ['mysql', '--password', 'hunter2', '--user', 'root', '--token', alnum(24)],
    });
    expect(out).toEqual({
      password: '[REDACTED:credential]',
      apiKey: '[REDACTED:credential]',
      client_secret: '[REDACTED:credential]',
      openai_api_key: '[REDACTED:openai-key]',
      headers: {
        Authorization: 'Bearer [REDACTED:bearer-token]',
        'proxy-authorization': 'Basic [REDACTED:basic-auth]',
      },
      args: ['mysql', '--password', '[REDACTED:credential]', '--user', 'root', '--token', '[REDACTED:credential]'],
    });
  });

  it('leaves values under ordinary keys and placeholder credentials as they are', () => {
    const input = {
      max_tokens: 4096,
      token_type: 'bearer',
      password: '',
      token: '${GITHUB_TOKEN}',
      primary_key: 'id',
      commit: '3f786850e387550fdab836ed7e6dc881de23001b',
      args: ['--verbose', 'build', '--password-stdin'],
    };
    expect(scrubValue(input)).toEqual(input);
  });

  it('returns non-plain objects as the same reference', () => {
    const date = new Date(0);
    const out = scrubValue({ at: date });
    expect(out.at).toBe(date);
  });
});

describe('mayContainSecret on glued keys and short password options', () => {
  it('is true for a mysql or sshpass password and a glued credential key', () => {
    expect(mayContainSecret({ command: 'mysql -uroot -pZx9kQ2mW app' })).toBe(true);
    expect(mayContainSecret({ command: 'mariadb -uroot -pZx9kQ2mW app' })).toBe(true);
    expect(mayContainSecret(['sshpass -p Zx9kQ2mW ssh host'])).toBe(true);
    expect(mayContainSecret({ NPMTOKEN: 'Zx9kQ2mW' })).toBe(true);
  });

  it('never says false for such a value that scrubValue changes', () => {
    const secretish = fc.constantFrom(
      'mysql -u root -pZx9kQ2mW db',
      'MARIADB -pZx9kQ2mW',
      'sshpass -p Zx9kQ2mW ssh h',
      'PGPASSWORD=Zx9kQ2mW',
      '--password=Tr0ub4dor&3',
      ' -p',
      'plain words only',
    );
    const leaf = fc.oneof(
      fc.string(),
      secretish,
      fc.array(secretish, { maxLength: 3 }).map((xs) => xs.join(' ')),
    );
    const key = fc.oneof(fc.string(), fc.constantFrom('PGPASSWORD', 'NPMTOKEN', 'bypass', 'adminpassword', 'name'));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(key, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        if (JSON.stringify(scrubValue(v)) !== JSON.stringify(v)) expect(mayContainSecret(v)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('mayContainSecret', () => {
  it('is false for a record whose strings and keys hold nothing the rules look for', () => {
    expect(
      mayContainSecret({
        task: 'rename variables',
        evidence: ['CI green after commit'],
        n: 3,
        nested: [{ file: 'src/a.ts' }],
      }),
    ).toBe(false);
  });

  it('is true when a string or a key could hold a secret', () => {
    expect(mayContainSecret({ note: `deploy with ${'ghp_' + 'x'.repeat(36)}` })).toBe(true);
    expect(mayContainSecret({ password: 'hunter22' })).toBe(true);
    expect(mayContainSecret(['--token', 'abc'])).toBe(true);
  });

  it('never says false for a value that scrubValue changes', () => {
    const secretish = fc.constantFrom(
      'password=Zx9!kQ2#mW',
      'Authorization: Bearer ' + 'a1B2c3D4e5F6g7H8i9J0',
      'sk-' + 'proj-' + 'Q'.repeat(40),
      'https://me:S3cretPw9@host.example/x',
      'plain words only',
    );
    const leaf = fc.oneof(fc.string(), secretish);
    const key = fc.oneof(fc.string(), fc.constantFrom('password', 'apiKey', 'Authorization', 'token', 'name'));
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(key, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        if (JSON.stringify(scrubValue(v)) !== JSON.stringify(v)) expect(mayContainSecret(v)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

/** Every byte as `%XX`: a secret fully percent-encoded. */
const encodeAll = (s: string): string =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
/** `%XX` decoded once, as the scrubber reads it. */
const decodeOnce = (s: string): string =>
  s.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));

describe('percent-encoded secrets (issue 17, red-team 3)', () => {
  for (const c of SECRETS) {
    it(`removes the ${c.name} when percent-encoded in a URL and when fully encoded`, () => {
      for (const input of [`https://example.com/fetch?q=${encodeURIComponent(place(c))}&page=2`, encodeAll(place(c))]) {
        const out = scrubText(input).text;
        expect(decodeOnce(out)).not.toContain(c.secret);
        expect(out).toContain(redactionMarker(c.kind));
        expect(scrubText(out).text).toBe(out);
      }
    });
  }

  it('keeps the encoded frame and the rest of the URL', () => {
    const token = fake.ghp;
    expect(scrubText(`https://api.example.com/x?token%3D${token}%26page%3D2`).text).toBe(
      `https://api.example.com/x?token%3D${redactionMarker('github-token')}%26page%3D2`,
    );
    expect(scrubText(`GET /x?${encodeAll(token)}&page=2`).text).toBe(
      `GET /x?${redactionMarker('github-token')}&page=2`,
    );
  });

  it('leaves percent-encoded text without secrets as it is', () => {
    for (const text of [
      'https://example.com/search?q=hello%20world%2Fpath&lang=en',
      'file%20name%2B1.txt',
      '100%25 done, 50%',
      '%E2%9C%93 passed',
    ]) {
      expect(scrubText(text).text).toBe(text);
    }
  });
});

/** The formats the red-team found uncovered (issue 17, red-team 3): each plain and percent-encoded. */
const FORMATS: readonly SecretCase[] = [
  {
    name: 'docker config.json auth',
    kind: 'credential',
    secret: Buffer.from('ada:' + alnum(16)).toString('base64'),
    context: '{"auths": {"registry.example.com": {"auth": "{S}"}}}',
    keep: ['"auth": "', '"}}}'],
  },
  {
    name: 'docker config.json identitytoken',
    kind: 'credential',
    secret: urlsafe(40),
    context: '{"auths":{"r.example.com":{"identitytoken":"{S}"}}}',
    keep: ['"identitytoken":"'],
  },
  {
    name: 'AWS credentials CSV secret column',
    kind: 'aws-secret-key',
    secret: 'k' + gen.from(B64, 37) + 'Z1',
    context: `Access key ID,Secret access key\n${fake.akia},{S}\n`,
    keep: ['Access key ID,Secret access key'],
  },
  {
    name: 'Set-Cookie header',
    kind: 'cookie',
    secret: 'session=' + alnum(40) + '; Path=/; HttpOnly',
    context: 'HTTP/1.1 200 OK\nSet-Cookie: {S}\nContent-Type: text/html',
    keep: ['Set-Cookie: ', 'Content-Type: text/html'],
  },
  {
    name: 'docker login -p',
    kind: 'credential',
    secret: 'Dk' + alnum(14),
    context: 'docker login -u ada -p {S} registry.example.com',
    keep: ['docker login -u ada -p ', ' registry.example.com'],
  },
  {
    name: 'docker login --password',
    kind: 'credential',
    secret: 'Dp' + alnum(14),
    context: 'docker login --username ada --password {S} ghcr.io',
    keep: [' ghcr.io'],
  },
  {
    name: 'docker login --password=',
    kind: 'credential',
    secret: 'De' + alnum(14),
    context: 'docker login --password={S} ghcr.io',
    keep: [' ghcr.io'],
  },
  {
    name: '.netrc on one line',
    kind: 'credential',
    secret: 'Nr' + alnum(12),
    context: 'machine api.example.com login ada password {S}\n',
    keep: ['machine api.example.com login ada password '],
  },
  {
    name: '.netrc on several lines',
    kind: 'credential',
    secret: 'Nm' + alnum(12),
    context: 'machine git.example.com\n  login ada\n  password {S}\n',
    keep: ['  login ada\n'],
  },
  {
    name: 'GitLab token',
    kind: 'gitlab-token',
    secret: 'gl' + 'pat-' + urlsafe(20),
    context: 'git clone https://oauth2:{S}@gitlab.com/acme/app.git',
  },
  {
    name: 'Hugging Face token',
    kind: 'huggingface-token',
    secret: 'h' + 'f_' + gen.from(UPPER + LOWER, 34),
    context: 'HF_TOKEN={S} python train.py',
    keep: [' python train.py'],
  },
  {
    name: 'SendGrid key',
    kind: 'sendgrid-key',
    secret: 'S' + 'G.' + urlsafe(22) + '.' + urlsafe(43),
    context: 'sg = SendGridAPIClient("{S}")',
  },
  {
    name: 'Stripe webhook secret',
    kind: 'stripe-key',
    secret: 'wh' + 'sec_' + alnum(32),
    context: 'stripe listen --forward-to localhost:3000 # {S}',
  },
  {
    name: 'Slack webhook',
    kind: 'webhook-url',
    secret: 'T' + gen.from(UPPER + DIGITS, 8) + '/B' + gen.from(UPPER + DIGITS, 10) + '/' + alnum(24),
    context: 'SLACK_URL=https://hooks.slack.com/services/{S}',
    keep: ['https://hooks.slack.com/services/'],
  },
  {
    name: 'Discord webhook',
    kind: 'webhook-url',
    secret: gen.from(DIGITS, 18) + '/' + urlsafe(68),
    context: 'curl -d "{}" https://discord.com/api/webhooks/{S}',
    keep: ['https://discord.com/api/webhooks/'],
  },
  {
    name: 'Discord webhook on discordapp.com',
    kind: 'webhook-url',
    secret: gen.from(DIGITS, 18) + '/' + urlsafe(68),
    context: 'POST https://discordapp.com/api/webhooks/{S} 204',
    keep: [' 204'],
  },
];

describe('formats the red-team found uncovered (issue 17, red-team 3)', () => {
  for (const c of FORMATS) {
    it(`removes the ${c.name} (${c.kind}), plain and percent-encoded`, () => {
      const out = scrubText(place(c));
      expect(out.text).not.toContain(c.secret);
      expect(out.redactions.map((r) => r.kind)).toContain(c.kind);
      for (const part of c.keep ?? []) expect(out.text).toContain(part);
      expect(scrubText(out.text).text).toBe(out.text);
      for (const encoded of [encodeURIComponent(place(c)), encodeAll(place(c))])
        expect(decodeOnce(scrubText(encoded).text)).not.toContain(c.secret);
    });
  }

  it('scrubs a Cookie and a Set-Cookie under their JSON keys', () => {
    const value = 'sid=' + alnum(30);
    expect(scrubValue({ headers: { Cookie: value, 'set-cookie': value, accept: 'text/html' } })).toEqual({
      headers: { Cookie: redactionMarker('cookie'), 'set-cookie': redactionMarker('cookie'), accept: 'text/html' },
    });
  });

  it.each([
    ['a cookie in prose', 'Cookie: a small sweet cake. The cookie consent banner is shown once.'],
    [
      'docker login without a password',
      'docker login registry.example.com && docker login -u ada --password-stdin ghcr.io',
    ],
    ['machine learning prose', 'The machine learning team reset the password policy last week.'],
    ['hf_ inside a word and short', 'pdf_hf_parser and hf_hub are modules; hf_token_path=~/.hf'],
    ['SG. as a file name', 'open SG.ts and SG.config.json'],
    ['glpat- alone', 'tokens start with glpat- on GitLab'],
    [
      'a Discord channel link and a Slack page',
      'https://discord.com/channels/123/456 and https://hooks.slack.com/ docs',
    ],
    ['a CSV of key ids without secrets', 'Access key ID,Status\nAKIA_NOT_A_KEY,Active'],
    ['a whsec_ mention', 'the secret starts with whsec_ in the dashboard'],
  ])('leaves %s alone', (_, text) => {
    expect(scrubText(text).text).toBe(text);
  });
});

describe('the scrubber on long adversarial texts (issue 17, red-team 1)', () => {
  // Each family repeats what a rule's frame starts with and never completes it. A linear scrubber
  // reads 400 KB of it in well under a second; a rule that read on from each repetition to the
  // end of the text would take minutes. The bound leaves a margin of 10× either way.
  const families = [
    'cookie: ',
    'docker login ',
    'machine a ',
    'token%3D',
    '%',
    'hooks.slack.com/services/',
    'password=$a ',
    '"auth": "',
    'AKIA0123456789ABCDEF,',
    'sk-',
    'sk-proj-',
    's-sk-ant-',
    'xsk-ant-api03-',
    ' -p ',
    'Bearer ',
  ];
  it.each(families)('reads 400 KB of %j in linear time', (unit) => {
    const text = unit.repeat(Math.ceil(400_000 / unit.length));
    const started = performance.now();
    scrubText(text);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('scrubText on a secret told in prose', () => {
  const secrets: [string, string][] = [
    ['the db password is Tr0ub4dor&3walk6', 'Tr0ub4dor&3walk6'],
    ['login is admin with password hunter2walk6secret', 'hunter2walk6secret'],
    ['The office VPN passphrase is correcthorsezebra42.', 'correcthorsezebra42'],
    ['the password for staging is staging-2026, ask Ana', 'staging-2026'],
    ['the password was changed to Abc!defGh yesterday', 'Abc!defGh'],
    ['pw Xy7kq9zz', 'Xy7kq9zz'],
    ['my token is abcd1234efgh', 'abcd1234efgh'],
    ['the secret is now s3cr3tsauce', 's3cr3tsauce'],
    ['the password is "Tr0ub4dor&3"', 'Tr0ub4dor&3'],
    ["the password is 'hunter2x'", 'hunter2x'],
    ['the password is `Hunter22x`', 'Hunter22x'],
    ['the password is “hunter22”', 'hunter22'],
    ['the db password is "correct horse"', 'correct horse'],
    ['password is: hunter22', 'hunter22'],
    ['the password is 12345678', '12345678'],
    ['the pw for wifi is CoffeeShop!', 'CoffeeShop'],
    ['api token is ABCDEFGHIJKLMNOP', 'ABCDEFGHIJKLMNOP'],
  ];
  it("keeps the quotes and the sentence's `!` out of the value", () => {
    expect(scrubText('the password is "Tr0ub4dor&3"').text).toBe(`the password is "${redactionMarker('credential')}"`);
    expect(scrubText('the pw for wifi is CoffeeShop!').text).toBe(
      `the pw for wifi is ${redactionMarker('credential')}!`,
    );
  });
  it.each(secrets)('removes the value after the cue: %s', (text, secret) => {
    const out = scrubText(text);
    expect(out.text).not.toContain(secret);
    expect(out.text).toContain(redactionMarker('credential'));
    expect(out.redactions).toHaveLength(1);
  });
  it.each([
    'the password reset flow is broken on Safari',
    'password is required',
    'the password is correct',
    'Password is stored hashed with sha256',
    'password policy v2.1 applies from the 3rd',
    'max tokens 4096 per call',
    'the token for gpt-4o is cheap',
    'the secret is out: we ship on fridays',
    'the password is in 1Password',
    'set the password to $DB_PASSWORD',
    'Passwords were rotated on 2026-03-01',
    'tokens are base64-encoded JWT3 strings',
    'pin the token to x86_64 builds',
    'the token is i18n-ready',
    'the secret is k8s-managed now',
    'the token was sha256-hashed',
    'Password is bcrypt12 hashed',
    'move the refresh token to utf8mb4 columns',
    'The token is Expired!',
    'the token is 4096 bytes long',
    'the password is "$DB_PASSWORD"',
  ])('keeps prose that names a credential without giving one: %s', (text) => {
    expect(scrubText(text).text).toBe(text);
  });
});

describe('scrubText on a dotted value after a credential key (walk 10, item 1)', () => {
  const dotted = 'Winter' + '2026.Spring';
  it.each([
    [`DB_PASSWORD=${dotted}`, 'DB_PASSWORD=[REDACTED:credential]'],
    [`export VAULT_TOKEN=${fake.vault}`, 'export VAULT_TOKEN=[REDACTED:vault-token]'],
    [`token = ${fake.vault}`, 'token = [REDACTED:vault-token]'],
    [`DISCORD_BOT_TOKEN=${fake.discord}`, 'DISCORD_BOT_TOKEN=[REDACTED:discord-token]'],
    ['api_key: ak.' + 'Zx9Pw7Rt5Yv1Nb4Kc6', 'api_key: [REDACTED:credential]'],
    [`password: ${dotted}\nuser: ana`, 'password: [REDACTED:credential]\nuser: ana'],
  ])('takes the whole value of %j as the secret', (text, scrubbed) => {
    expect(scrubText(text).text).toBe(scrubbed);
  });

  it('still keeps a member path that reads as code', () => {
    for (const text of [
      'api_key = args.api_key',
      'const apiKey = config.apiKey;',
      'password = settings.db2.password',
      'token: this.oauth2.accessToken',
      'secret = app.config.secret',
    ]) {
      expect(scrubText(text).text).toBe(text);
    }
  });

  it('keeps a version, a host name and dotted words that only look like a token shape', () => {
    for (const text of ['hvs.short', 'Node.js v20.11.1', 'MyComponent.render.default']) {
      expect(scrubText(text).text).toBe(text);
    }
  });
});

describe('scrubText on ordinary text that looked like a secret (walk 10, item 7)', () => {
  it.each([
    'git checkout -b sk-4821-fix-payment-retry-logic',
    'git push origin feature/sk-1093-add-retry-backoff-tests',
    'the release token is v2.14.3-rc1',
    'the secret is 3.0.0-rc.2 now',
    'region ASIAPACIFICSOUTHEAST and AKIAEXAMPLEONLYWORDS',
    'docker build --secret id=npm,src=/home/ana/.npmrc -t api .',
    'docker buildx build --secret type=env,id=GH_TOKEN .',
    'aws secretsmanager describe-secret --secret-id arn:aws:secretsmanager:us-east-1:123456789012:secret:db-AbCdEf',
    'az login --service-principal -u http://app -p /tmp/cert.pem --tenant acme',
  ])('leaves %j alone', (text) => {
    expect(scrubText(text).text).toBe(text);
  });

  it('still takes the real shapes next to them', () => {
    const key = 'sk' + '-' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv';
    const project = 'sk' + '-proj-' + 'Xy7' + 'ab'.repeat(12) + 'CD9';
    const akia = 'AK' + 'IA' + 'EXAMPLE7EXAMPLE7';
    const pw = 'Sw0rd' + 'fish42';
    expect(scrubText(`export OPENAI=${key}`).text).toBe('export OPENAI=[REDACTED:openai-key]');
    expect(scrubText(`use ${project} here`).text).toBe('use [REDACTED:openai-key] here');
    expect(scrubText(`key id ${akia}`).text).toBe('key id [REDACTED:aws-access-key-id]');
    expect(scrubText(`the release token is ${pw}`).text).toBe('the release token is [REDACTED:credential]');
    expect(scrubText(`app deploy --secret ${pw}`).text).toBe('app deploy --secret [REDACTED:credential]');
    expect(scrubText(`config secret: ${pw}`).text).toBe('config secret: [REDACTED:credential]');
    expect(scrubText(`curl -u admin:${pw} https://x.io`).text).toBe('curl -u admin:[REDACTED:credential] https://x.io');
  });
});

describe('scrubText through any depth of JSON escaping (walk 10, item 4)', () => {
  const pw = 'Triple' + 'Nest3dPw9';
  const nest = (text: string, depth: number): string => {
    let t = text;
    for (let i = 0; i < depth; i++) t = JSON.stringify({ tool_input: t });
    return t;
  };

  it.each([1, 2, 3, 4, 5])('redacts a password in JSON nested %i levels deep in JSON strings', (depth) => {
    const text = nest(JSON.stringify({ password: pw, user: 'ana' }), depth);
    const out = scrubText(text).text;
    expect(out).not.toContain(pw);
    expect(out).toContain('[REDACTED:credential]');
    expect(out).toContain('user');
    expect(scrubText(out).text).toBe(out);
    // The frame stays intact: unescaping every level gives the object back with the marker as the value.
    let back: unknown = out;
    for (let i = 0; i < depth; i++) back = (JSON.parse(back as string) as { tool_input: string }).tool_input;
    expect(JSON.parse(back as string)).toEqual({ password: '[REDACTED:credential]', user: 'ana' });
  });

  it.each([0, 1, 2, 3])('redacts a quoted prose credential inside JSON %i levels deep', (depth) => {
    const phrase = 'purple monkey ' + 'dishwasher';
    const text = nest(JSON.stringify({ note: `I set the VPN passphrase to "${phrase}"` }), depth);
    const out = scrubText(text).text;
    expect(out).not.toContain(phrase);
    let back: unknown = out;
    for (let i = 0; i < depth; i++) back = (JSON.parse(back as string) as { tool_input: string }).tool_input;
    expect(JSON.parse(back as string)).toEqual({ note: 'I set the VPN passphrase to "[REDACTED:credential]"' });
  });

  // The amount the rules read, not a clock: quadratic work on these 300 KB texts would be thousands of times
  // their length; a linear scrubber reads each character a bounded number of times.
  const B = '\\';
  it.each([
    ['a run of backslashes', B.repeat(300_000)],
    ['escaped keys with no value', `{${B.repeat(7)}"password${B.repeat(7)}":`],
    ['escaped values never closed', `password:${B.repeat(15)}"x`],
    ['escaped prose quotes never opened', `passphrase to ${B.repeat(7)}`],
    ['escaped prose quotes never closed', `the token is ${B.repeat(3)}"abc`],
    ['assignments of backslashes', `token=${B.repeat(5)}`],
    ['escaped Authorization frames', `Authorization${B.repeat(9)}": `],
    ['escaped cookie frames', `cookie${B.repeat(9)}`],
    ['rejected pairs', 'token=$a'],
  ])('reads 300 KB of %s a bounded number of times per character', (_, unit) => {
    expectBoundedWork(unit);
  });
});

describe('scrubText on signed URLs, command-line passwords and YAML blocks (walk 10, item 3)', () => {
  const sig = 'Xk7pQ2mZr9Lw4Tv8' + 'Yn1Bc5Hd3Jf6Ks0G';
  const hex = '5d41402abc4b2a76' + 'b9719d911017c592e4da3f2b1c0d9e8f';
  const pw = 'R3dis' + 'CliPw77';
  const auth = Buffer.from('ci-bot:' + pw).toString('base64');
  const R = '[REDACTED:credential]';
  it.each([
    [
      `BlobEndpoint=https://acme.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&sp=r&sig=${sig}%3D`,
      `BlobEndpoint=https://acme.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&sp=r&sig=${R}`,
    ],
    [
      `https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&sig=${sig}`,
      `https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&sig=${R}`,
    ],
    [
      `https://b.s3.amazonaws.com/db.tar?X-Amz-Expires=604800&X-Amz-Signature=${hex}&X-Amz-Security-Token=IQo${sig}`,
      `https://b.s3.amazonaws.com/db.tar?X-Amz-Expires=604800&X-Amz-Signature=${R}&X-Amz-Security-Token=${R}`,
    ],
    [
      `https://b.s3.amazonaws.com/k?X-Amz-Credential=ci%2F20261128%2Fus-east-1`,
      `https://b.s3.amazonaws.com/k?X-Amz-Credential=${R}`,
    ],
    [`registry=https://npm.acme.io/\n_auth=${auth}\n`, `registry=https://npm.acme.io/\n_auth=${R}\n`],
    [`//npm.acme.io/:_auth="${auth}"`, `//npm.acme.io/:_auth="${R}"`],
    [`redis-cli -h cache.acme.io -p 6380 -a ${pw} ping`, `redis-cli -h cache.acme.io -p 6380 -a ${R} ping`],
    [`redis-cli --pass ${pw} ping`, `redis-cli --pass ${R} ping`],
    [`CREATE USER 'app'@'%' IDENTIFIED BY '${pw}';`, `CREATE USER 'app'@'%' IDENTIFIED BY '${R}';`],
    [
      `alter user app identified with mysql_native_password by "${pw}"`,
      `alter user app identified with mysql_native_password by "${R}"`,
    ],
    [`gh secret set DEPLOY_KEY --body "${pw}"`, `gh secret set DEPLOY_KEY --body "${R}"`],
    [`gh secret set DEPLOY_KEY --repo acme/api -b ${pw}`, `gh secret set DEPLOY_KEY --repo acme/api -b ${R}`],
    [
      `echo "${pw}!8" | docker login registry.acme.io -u ci --password-stdin`,
      `echo "${R}" | docker login registry.acme.io -u ci --password-stdin`,
    ],
    [
      `printf '%s' ${pw} | helm registry login r.io --username ci --password-stdin`,
      `printf '%s' ${R} | helm registry login r.io --username ci --password-stdin`,
    ],
    [`smtp:\n  password: |\n    ${pw}\n  host: mail\n`, `smtp:\n  password: |\n    ${R}\n  host: mail\n`],
    [`- api_token: >-\n    ${pw}\n    ${sig}\nnext: 1`, `- api_token: >-\n    ${R}\nnext: 1`],
    [
      `psql postgres://admin:Pa#ss9${pw}@db.acme.io/app`,
      'psql postgres://admin:[REDACTED:url-password]@db.acme.io/app',
    ],
    [
      `mysql -h db.acme.io -u root \\\n  -p${pw} shop < dump.sql`,
      `mysql -h db.acme.io -u root \\\n  -p${R} shop < dump.sql`,
    ],
    [`mysql -h db -u root \\\r\n  -p${pw} shop`, `mysql -h db -u root \\\r\n  -p${R} shop`],
  ])('redacts the secret of %j', (text, scrubbed) => {
    const out = scrubText(text).text;
    expect(out).toBe(scrubbed);
    expect(scrubText(out).text).toBe(out);
  });

  it.each([
    'https://acme.blob.core.windows.net/c?sv=2022-11-02&sig=short',
    'https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=604800&X-Amz-Date=20261128T000000Z',
    'always-auth=true\n_auth=${NPM_AUTH}',
    'redis-cli -a "$REDIS_PASSWORD" ping && redis-cli -h cache ping',
    'docker run -a stdout redis-cli-image',
    "CREATE USER app IDENTIFIED BY '$APP_PW'; -- identified by the team",
    'gh secret set DEPLOY_KEY < key.pem && gh secret set X --body "$VALUE"',
    'echo "$PW" | docker login --password-stdin -u ada registry.example.com',
    'echo building | tee log.txt',
    'smtp:\n  password: |\n    {{ .Values.smtpPassword }}\n',
    'description: |\n  The password is rotated monthly by ops.\n',
    'mysql -h db -u root \\\n  -p shop < dump.sql',
    'mysql -u root shop\nmkdir -p build',
    'see https://example.com/docs#install and mail admin@example.com',
  ])('leaves %j alone', (text) => {
    expect(scrubText(text).text).toBe(text);
  });
});

describe('secrets of the same families (review B, item 4)', () => {
  const pw = 'Zq8x' + 'Vt3mPw';
  const sig = 'Xk7pQ2mZr9Lw4Tv8' + 'Yn1Bc5Hd3Jf6Ks0G';
  const R = '[REDACTED:credential]';
  it.each([
    [`az login --service-principal -u http://app -p ${pw} --tenant t`, `-u http://app -p ${R} --tenant t`],
    [`oc login -u dev -p ${pw} https://api.acme.io:6443`, `oc login -u dev -p ${R} https://api.acme.io:6443`],
    [`ALTER USER 'app'@'%' IDENTIFIED BY '${pw}''x${pw}';`, `IDENTIFIED BY '${R}';`],
    [`CREATE USER app IDENTIFIED BY ${pw};`, `CREATE USER app IDENTIFIED BY ${R};`],
    [`grant all on *.* to app identified by '${pw}'`, `identified by '${R}'`],
    [
      `https://b.s3.amazonaws.com/k?AWSAccessKeyId=AKIAIOSFODNN7EXAMPLE&Signature=${sig}%2B%3D&Expires=1700000000`,
      `&Signature=${R}&Expires=1700000000`,
    ],
    [`https://x.cloudfront.net/a.mp4?Policy=eyJ&Signature=${sig}~&Key-Pair-Id=K2JCJ`, `&Signature=${R}&Key-Pair-Id=`],
    [`gh secret set API_KEY -b"${pw}"`, `gh secret set API_KEY -b"${R}"`],
    [`gh secret set API_KEY -b${pw}`, `gh secret set API_KEY -b${R}`],
    [`REDISCLI_AUTH=${pw} redis-cli ping`, `REDISCLI_AUTH=${R} redis-cli ping`],
    [`cat <<< ${pw} | docker login --password-stdin -u me`, `cat <<< ${R} | docker login`],
    [`{"value":"${pw}4Lk9","name":"API_TOKEN"}`, `{"value":"${R}","name":"API_TOKEN"}`],
    [`key ${'AKIA' + 'QWRTZXCVBNMLKJHG'} here`, 'key [REDACTED:aws-access-key-id] here'],
    [`the password is 2.0.0-${pw}9`, `the password is ${R}`],
    ['DB_PASSWORD=correct.horse.battery', `DB_PASSWORD=${R}`],
  ])('redacts the secret of %j', (text, part) => {
    const out = scrubText(text).text;
    expect(out).toContain(part);
    expect(out).not.toContain(pw);
    expect(scrubText(out).text).toBe(out);
  });

  it('reads a YAML block scalar whole, however long', () => {
    const lines = Array.from({ length: 360 }, (_, i) => `  ${pw}${String(i).padStart(4, '0')}`);
    const text = `kubeconfig_token: |\n${lines.join('\n')}\nnext: 1\n`;
    expect(text.length).toBeGreaterThan(4096);
    expect(scrubText(text).text).toBe(`kubeconfig_token: |\n  ${R}\nnext: 1\n`);
  });

  it.each([
    'region ASIAPACIFICSOUTHEAST',
    'password = config.db.password',
    'the release is 2.0.0-rc1 and the password is in the vault',
    'az login --service-principal -u http://app -p /tmp/cert.pem --tenant acme',
    'https://x/y?exp=1700000000&sig=0a1b2c3d4e5f60718293a4b5c6d7e8f9',
  ])('leaves %j alone', (text) => {
    expect(scrubText(text).text).toBe(text);
  });
});

describe('scrubValue on schema values of a credential (review B, item 4)', () => {
  const pw = 'Zq8x' + 'Vt3mPw';
  const R = '[REDACTED:credential]';
  it("redacts a credential property's enum and an OpenAPI parameter's example", () => {
    expect(scrubValue({ properties: { password: { type: 'string', enum: [pw, `${pw}9`] } } })).toEqual({
      properties: { password: { type: 'string', enum: [R, R] } },
    });
    expect(scrubValue({ parameters: [{ name: 'api_key', in: 'query', example: `${pw}4Lk9` }] })).toEqual({
      parameters: [{ name: 'api_key', in: 'query', example: R }],
    });
  });

  it('keeps the enum of a property that only names a kind of credential', () => {
    const schema = { properties: { token_type: { enum: ['access_token', 'refresh_token'] } } };
    expect(scrubValue(schema)).toEqual(schema);
  });
});

describe('IDENTIFIED BY only in SQL, and what is no secret kept (review B, item 5)', () => {
  it.each([
    "the campaign identified by 'coNIibMvf2w' between March 1 and 2",
    'users are identified by "email"',
    "Files identified by 'hash' are skipped",
    'echo "logging in" | docker login --password-stdin',
    'https://cdn.acme.io/f.zip?exp=1700000000&sig=5d41402abc4b2a76b9719d911017c592',
    'Additional headers to be sent with the request (e.g., Authorization: Bearer TOKEN)',
  ])('leaves %j alone', (text) => {
    expect(scrubText(text).text).toBe(text);
    expect(scrubValue({ query: text })).toEqual({ query: text });
  });
});

describe('the rules of walk 10 item 3 on long adversarial texts', () => {
  it.each([
    'redis-cli -h a ',
    'gh secret set X --repo a ',
    'echo x | docker ',
    "IDENTIFIED BY '",
    'password: |\n',
    '  password: >\n',
    '&sig=',
    '?X-Amz-Signature=',
    '_auth=',
    'mysql \\\n',
    '://a:#',
    'az login -u a ',
    'cat <<< x ',
    "CREATE USER a IDENTIFIED BY 'x''",
    '&Signature=',
    'REDISCLI_AUTH=',
    '{"value":"x","name":',
    'the password is 2.0.0-',
  ])('scans 300 KB of %j in its rules a bounded number of times per character (bench: scrub times it)', (unit) => {
    expectBoundedWork(unit);
  });
});

describe('a value named by a neighbouring key (walk 10, item 2)', () => {
  const pw = 'EcsEnv' + 'Passw0rd42';
  const R = '[REDACTED:credential]';

  it('scrubValue redacts the value of a name/value entry that names a credential, and only that one', () => {
    const task = {
      family: 'api',
      containerDefinitions: [
        {
          name: 'api',
          environment: [
            { name: 'DB_PASSWORD', value: pw },
            { name: 'LOG_LEVEL', value: 'debug' },
          ],
        },
      ],
    };
    expect(scrubValue(task)).toEqual({
      family: 'api',
      containerDefinitions: [
        {
          name: 'api',
          environment: [
            { name: 'DB_PASSWORD', value: R },
            { name: 'LOG_LEVEL', value: 'debug' },
          ],
        },
      ],
    });
    expect(scrubValue({ ParameterKey: 'DbPassword', ParameterValue: pw })).toEqual({
      ParameterKey: 'DbPassword',
      ParameterValue: R,
    });
    expect(scrubValue({ key: 'GITHUB_TOKEN', value: '${{ secrets.GITHUB_TOKEN }}' })).toEqual({
      key: 'GITHUB_TOKEN',
      value: '${{ secrets.GITHUB_TOKEN }}',
    });
    const ref = { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db-creds', key: 'password' } } };
    expect(scrubValue(ref)).toEqual(ref);
  });

  it('scrubValue redacts the default, example, examples and const of a credential property of a JSON Schema', () => {
    const schema = {
      type: 'object',
      properties: {
        password: { type: 'string', default: pw, example: `${pw}x`, examples: [`${pw}y`], const: `${pw}z` },
        user: { type: 'string', default: 'admin', examples: ['ana'] },
        auth_mode: { type: 'string', enum: ['basic', 'oauth'] },
      },
    };
    expect(scrubValue(schema)).toEqual({
      type: 'object',
      properties: {
        password: { type: 'string', default: R, example: R, examples: [R], const: R },
        user: { type: 'string', default: 'admin', examples: ['ana'] },
        auth_mode: { type: 'string', enum: ['basic', 'oauth'] },
      },
    });
  });

  it.each([
    [
      JSON.stringify({ environment: [{ name: 'DB_PASSWORD', value: pw }] }),
      JSON.stringify({ environment: [{ name: 'DB_PASSWORD', value: R }] }),
    ],
    [`env:\n  - name: DB_PASSWORD\n    value: "${pw}"\n`, `env:\n  - name: DB_PASSWORD\n    value: "${R}"\n`],
    [`env:\n- name: API_TOKEN\n  value: ${pw}\n`, `env:\n- name: API_TOKEN\n  value: ${R}\n`],
    [JSON.stringify({ note: JSON.stringify({ name: 'SECRET_KEY', value: pw }) }), 'escaped'],
  ])('scrubText redacts the value of a name/value pair in %j', (text, scrubbed) => {
    const out = scrubText(text).text;
    expect(out).not.toContain(pw);
    if (scrubbed !== 'escaped') expect(out).toBe(scrubbed);
  });

  it.each([
    'env:\n  - name: LOG_LEVEL\n    value: debug\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef: {}',
    '{"name": "API_TOKEN", "value": "${API_TOKEN}"}',
    '- name: PASSWORD_MIN_LENGTH\n  value: "12"',
    '{"name": "password", "value": "string"}',
  ])('scrubText leaves %j alone', (text) => {
    expect(scrubText(text).text).toBe(text);
  });
});

describe('the name/value rule on long adversarial texts', () => {
  it.each(['name: DB_PASSWORD\n', '{"name":"TOKEN","value":', '- name: a\n  value: b\n', 'key=PASS,'])(
    'reads 300 KB of %j a bounded number of times per character',
    (unit) => {
      expectBoundedWork(unit);
    },
  );
});

describe('scrubText on keys and passwords told in longer prose (walk 16, item 1)', () => {
  const key = 'Zk82' + 'hQ9xLm4PwR7tYv3N';
  const hex = '9f8e7d6c' + '5b4a39281706f5e4d3c2b1a0';
  const mailgun = 'key-' + '3ax6xnjp29jd6fds4gc373sgvjxteol0';
  const pw = 'Tr0ub4dor' + '-3xyz';
  const C = '[REDACTED:credential]';
  it.each([
    [`The API key for the billing service is ${key}.`, `The API key for the billing service is ${C}.`],
    [`The API key (billing) is ${key}`, `The API key (billing) is ${C}`],
    [`API key, for reference: ${key}`, `API key, for reference: ${C}`],
    [`The API key was rotated to ${key} yesterday.`, `The API key was rotated to ${C} yesterday.`],
    [`The key for the analytics API is ${hex}`, `The key for the analytics API is ${C}`],
    [`my key is ${key}`, `my key is ${C}`],
    [`Our key was ${hex}, now rotated`, `Our key was ${C}, now rotated`],
    [`Mailgun key is ${mailgun}`, `Mailgun key is ${C}`],
    [`The password for the staging database is ${pw}`, `The password for the staging database is ${C}`],
    [`The root password of the new box is ${pw}`, `The root password of the new box is ${C}`],
    // A key file's or a key chord's shape keeps only what a user calls "my key", never a password or a named key
    // (walk 20, item 1), and a chord ends on one key's name.
    [`The password to the staging box is Alt+${key}`, `The password to the staging box is ${C}`],
    [`the vpn password is ${key}.key`, `the vpn password is ${C}`],
    [`The API key is ctrl+${key}`, `The API key is ${C}`],
    [`the password is id_rsa_${key}`, `the password is ${C}`],
    [`my key is ctrl+${key}`, `my key is ${C}`],
  ])('redacts the secret in %j', (text, scrubbed) => {
    const out = scrubText(text).text;
    expect(out).toBe(scrubbed);
    expect(scrubText(out).text).toBe(out);
  });

  it.each([
    'the key for the analytics API is required',
    'the primary key for the users service is user_id2',
    'the password for the staging database is required',
    'The root password of the new box is in the vault',
    'The API key (see the vault) is required',
    'API key, for reference: see the vault',
    'the key for this release is 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a',
    'my key is the blue one on the hook',
    'my key is xk42',
    // A key's file and a key chord are what a user needs kept (review G, item 8).
    'my key is id_ed25519_github.pub',
    'my key is deploy-prod.pem',
    'my key is SHIFT+CTRL+ALT+F12',
    'the monkey is 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a',
    'a key-value store keyed by key-abcdefghijklmnopqrstuvwxyzabcdef',
  ])('leaves %j alone', (text) => {
    expect(scrubText(text).text).toBe(text);
  });

  it.each(['the API key for a b c d is ', 'key for a b c ', 'API key (x) ', 'API key, a b c d ', 'key-'])(
    'reads 300 KB of %j a bounded number of times per character',
    (unit) => {
      expectBoundedWork(unit);
    },
  );
});

describe('scrubText on a credential word, a clause about it, then its value (review F, item 1)', () => {
  const pw = 'Xk9#' + 'mP2vLq7w';
  const key = 'Zk82' + 'mQp4Lx9vB7nR2tYw';
  const C = '[REDACTED:credential]';
  it.each([
    [`The password to the staging box is ${pw}`, `The password to the staging box is ${C}`],
    [`The password to the VPN is ${pw}`, `The password to the VPN is ${C}`],
    [`The wifi password at the office is ${pw}`, `The wifi password at the office is ${C}`],
    [
      `The password of the admin account on the new box is ${pw}`,
      `The password of the admin account on the new box is ${C}`,
    ],
    [
      `The password for our shiny new staging database server is ${pw}`,
      `The password for our shiny new staging database server is ${C}`,
    ],
    [`The password we use for the staging database is ${pw}`, `The password we use for the staging database is ${C}`],
    [`The admin password, for reference, is ${pw}`, `The admin password, for reference, is ${C}`],
    [`The API key has been rotated to ${key}`, `The API key has been rotated to ${C}`],
    [`The API key has been updated to ${key}`, `The API key has been updated to ${C}`],
    [
      `The token issued by the vendor for Ana's db2 is ${key}.`,
      `The token issued by the vendor for Ana's db2 is ${C}.`,
    ],
    [
      `set the password to ${pw} because the box is unavailable`,
      `set the password to ${C} because the box is unavailable`,
    ],
    // A colon or `=` right after the clause, as notes write it (walk 20, item 2).
    [`Password for staging: ${pw}`, `Password for staging: ${C}`],
    [`API key for staging: ${key}`, `API key for staging: ${C}`],
    [`password for the db: ${pw}`, `password for the db: ${C}`],
    [`# Ops notes\nDB password for prod: ${pw}\n`, `# Ops notes\nDB password for prod: ${C}\n`],
    [`password for staging = ${pw}`, `password for staging = ${C}`],
  ])('redacts the secret in %j', (text, scrubbed) => {
    const out = scrubText(text).text;
    expect(out).toBe(scrubbed);
    expect(scrubText(out).text).toBe(out);
  });

  // The credential word as a modifier (the subject is the budget, the policy, the id), or a clause with its own verb.
  it.each([
    'The token budget for this run is 128000',
    'The token count for request 42 is 1048576',
    'the password field on the login page is input2',
    'The password policy for new accounts is NIST800-63b',
    'The secret manager we use in production is Vault2',
    'The token ID for the NFT is 1234567890',
    'the token expiry, in seconds, is 3600000',
    'The user ID for whom the token needs to be generated is CvqlHp7gnz.',
    'The password to the staging box is in the vault',
    'The password for the new box. The build is 1234567',
    'the password for the db: see the vault',
    'Password for staging: required',
    'The token budget for this run: 128000',
    'the token for the user: user_id',
  ])('leaves %j alone', (text) => {
    expect(scrubText(text).text).toBe(text);
  });

  it.each([
    'the password to a b c d e f g h ',
    'password, for a, b, c ',
    'token (x) for a (y) b ',
    'the secret we x1 y2 z3 a.b.c ',
    'password password ',
    "key for Ana's a-b ",
    'password for a b c: ',
    'token for a : = ',
  ])('reads 300 KB of %j a bounded number of times per character', (unit) => {
    expectBoundedWork(unit);
  });
});

describe('scrubText on keys told in prose and AWS secret keys beside what names them (walk 15, item 2)', () => {
  const key = 'Zk82' + 'HfQa91LmPq0rTs7Vw';
  const secret = fake.awsSecret1;
  const C = '[REDACTED:credential]';
  const S = '[REDACTED:aws-secret-key]';
  const I = '[REDACTED:aws-access-key-id]';
  it.each([
    [`The API key is ${key}`, `The API key is ${C}`],
    [`The access key for prod is ${key}`, `The access key for prod is ${C}`],
    [`Use the API key ${key} for the staging Mapbox account.`, `Use the API key ${C} for the staging Mapbox account.`],
    [`the api_key is ${key}.`, `the api_key is ${C}.`],
    [`The signing keys are ${key}`, `The signing keys are ${C}`],
    [`The AWS secret key is ${secret}`, `The AWS secret key is ${S}`],
    [`AWS key ${fake.akia} and secret ${secret} here.`, `AWS key ${I} and secret ${S} here.`],
    [`secret access key: ${secret}`, `secret access key: ${S}`],
    [`${fake.akia} ${secret}`, `${I} ${S}`],
    [`credentials: "${secret}"`, `credentials: "${S}"`],
    // A named key before a colon, an equals sign or a comma (review E).
    [`API key: ${key}`, `API key: ${C}`],
    [`Signing key: ${key}`, `Signing key: ${C}`],
    [`API key = ${key}`, `API key = ${C}`],
    [`The API key, ${key}, goes in the header`, `The API key, ${C}, goes in the header`],
  ])('redacts the key in %j', (text, scrubbed) => {
    const out = scrubText(text).text;
    expect(out).toBe(scrubbed);
    expect(scrubText(out).text).toBe(out);
  });

  it.each([
    'the key is to keep it simple',
    'The API key, which we rotate monthly, lives in vault',
    'API key: see the vault',
    'primary key: user_id',
    'api key: <your-key-here>',
    'the primary key is user_id',
    'the primary key is id2 and the sort key is created_at2',
    'The key is 42 characters long',
    'the shortcut key is F12',
    'the API key is required for all requests',
    'the API key is stored in the vault under kv/mapbox',
    'rotate the API key every 90 days',
    'the secret key is the one in 1Password',
    'send the API key header X-Api-Key',
    'add the private key id_ed25519 to the agent',
    'the private key is id_ed25519',
    'the API key is sha256-hashed',
    'Use the API key rotation script rotate_keys_2024.sh',
    'the key commit is 3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a',
    'The secret to good tests is that they fail for one reason.',
  ])('leaves %j alone', (text) => {
    expect(scrubText(text).text).toBe(text);
  });

  it('takes no 40-character run beside a marker for a word that names it', () => {
    // Markers hold `key` and `credential`: they name nothing, so scrubbing again changes nothing.
    for (const text of [`[REDACTED:openai-key] ${secret}`, `[REDACTED:credential] ${secret}`]) {
      expect(scrubText(text).text).toBe(text);
    }
  });

  it.each(['secret key is ', 'API key ', 'key a b c ', `${fake.akia} and `, 'secret: '])(
    'reads 300 KB of %j a bounded number of times per character',
    (unit) => {
      expectBoundedWork(unit);
    },
  );
});

describe('a value of small letters that contains a credential word (walk 17, item 2)', () => {
  it.each([
    ['JWT_SECRET=mysupersecretjwtkey', 'JWT_SECRET=[REDACTED:credential]'],
    ['JWT_SECRET=secretkey', 'JWT_SECRET=[REDACTED:credential]'],
    ['secret: mysecretvalue', 'secret: [REDACTED:credential]'],
    // A key that names a Secret object still holds no password: one there is redacted.
    ['passwordSecret: Hunter2xyz', 'passwordSecret: [REDACTED:credential]'],
    ['--set auth.passwordSecret=Hunter2xyz', '--set auth.passwordSecret=[REDACTED:credential]'],
    ['auth.password=myredissecret', 'auth.password=[REDACTED:credential]'],
    ['clientSecret: mysupersecretvalue', 'clientSecret: [REDACTED:credential]'],
    ['SESSION_KEY: "plainwordsecret"', 'SESSION_KEY: "[REDACTED:credential]"'],
    [
      'DB_PASSWORD=correcthorsebattery\nJWT_SECRET=supersecretkey\n',
      'DB_PASSWORD=[REDACTED:credential]\nJWT_SECRET=[REDACTED:credential]\n',
    ],
  ])('is the secret in %j', (text, scrubbed) => {
    expect(scrubText(text).text).toBe(scrubbed);
  });

  it.each([
    'password=passwd',
    'auth: credentials',
    'token: "passwords"',
    'token: accesstoken',
    'DB_PASSWORD=password',
    'export GITHUB_TOKEN=$GH_TOKEN',
    'SESSION_KEY: "SESSION_SECRET"',
    // The name of a Kubernetes Secret object, under the Helm keys that name one (review G, item 8).
    'existingSecret: myredissecret',
    'passwordSecret: pgpasswords',
    'auth:\n  existingSecret: "redis-credentials"',
    // Helm's own forms, a dotted values path before the key (walk 20, item 6).
    'helm install r bitnami/redis --set auth.existingSecret=myredissecret',
    'global.postgresql.auth.existingSecret: pg-credentials',
  ])('stays a name in %j', (text) => {
    expect(scrubText(text).text).toBe(text);
  });
});
