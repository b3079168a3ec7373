import { describe, expect, it } from 'vitest';
import { redactHttpUrl, redactUrl, urlProblem, withSchema } from './redact-url.js';

describe('redactUrl', () => {
  it('hides the password of the user part', () => {
    expect(redactUrl('postgres://team:s3cret@db.example:5432/credence')).toBe(
      'postgres://team:***@db.example:5432/credence',
    );
  });

  it('hides password, sslpassword and any query parameter named like a secret, and keeps the others', () => {
    const shown = redactUrl(
      'postgresql://team@db.example/credence?sslmode=require&password=s3cret&sslpassword=k3y&schema=team' +
        '&api_token=t0k&client_secret=c5&sslkey=/home/me/k.pem&vectors=node',
    );
    expect(shown).toBe(
      'postgresql://team@db.example/credence?sslmode=require&password=***&sslpassword=***&schema=team' +
        '&api_token=***&client_secret=***&sslkey=***&vectors=node',
    );
    for (const secret of ['s3cret', 'k3y', 't0k', 'c5', 'k.pem']) expect(shown).not.toContain(secret);
  });

  it('hides every value of a repeated parameter, and a name in any case', () => {
    expect(redactUrl('postgres://db.example/c?PassWord=a&password=b')).toBe(
      'postgres://db.example/c?PassWord=***&password=***',
    );
  });

  it('hides the password of a URL it cannot parse, and of text that is no URL with an authority', () => {
    const shown: Record<string, string> = {
      'postgres://team:s3cret@[bad': 'postgres://team:***@[bad',
      'postgres:credence:s3cret@127.0.0.1:55435/credence': 'postgres:credence:***@127.0.0.1:55435/credence',
      'postgresql:u:s3cret@h/db': 'postgresql:u:***@h/db',
      'postgres:/u:s3cret@h/db': 'postgres:/u:***@h/db',
      'u:s3cret@h:5432/db': 'u:***@h:5432/db',
      'pg:u:s3cret@h/db': 'pg:***@h/db',
      'postgres://u:s3c@r/t#x?y@h:54x/db': 'postgres://u:***@h:54x/db',
      'postgres://u:12#s3cret@h/db': 'postgres://u:***@h/db',
      'postgres://u:5432/s3cret@h/db': 'postgres://u:***@h/db',
      'postgres://u:1?s3cret@h/db': 'postgres://u:***@h/db',
      // Reviews C and D: digits, `?`, then text holding `=`: parsed as host team, port 2024 and a query.
      'postgres://team:2024?Tr0ub=s3cret@db.example/credence': 'postgres://team:***@db.example/credence',
      'postgres://team:2024?Tr0ub=s3cret@db.example': 'postgres://team:***@db.example',
      'postgres://team:2024?Tr0ub=s3cret@db.example:5432': 'postgres://team:***@db.example:5432',
      'postgres://team:2024?Tr0ub=s3cret@db.example?sslmode=require': 'postgres://team:***@db.example?sslmode=require',
      'postgres://u:pw@/db?host=/run/pg&password=s3cret': 'postgres://u:***@/db?host=/run/pg&password=***',
      "host=h user=u password='s3 cret' sslkey=/k/s3cret dbname=d": 'host=h user=u password=*** sslkey=*** dbname=d',
    };
    for (const [url, expected] of Object.entries(shown)) {
      expect(redactUrl(url)).toBe(expected);
      expect(redactUrl(url)).not.toMatch(/s3c|pw|x\?y/);
    }
  });

  it('shows a user with no password, and an @ in a query value, as they are', () => {
    expect(redactUrl('postgres:team@h/db')).toBe('postgres:team@h/db');
    expect(redactUrl('postgres://h/db?application_name=me@laptop')).toBe('postgres://h/db?application_name=me@laptop');
  });
});

describe('withSchema', () => {
  it('names the schema as ?schema=, in place of one the URL names', () => {
    expect(withSchema('postgres://team:***@db.example/credence', 'team_b')).toBe(
      'postgres://team:***@db.example/credence?schema=team_b',
    );
    expect(withSchema('postgres://db.example/credence?sslmode=require&schema=a', 'team_b')).toBe(
      'postgres://db.example/credence?sslmode=require&schema=team_b',
    );
  });
});

describe('urlProblem', () => {
  it('finds nothing wrong with a URL the driver reads', () => {
    for (const url of [
      'postgres://team:s3cret@db.example:5432/credence?sslmode=require',
      'postgres://u:p@ss@h/db',
      'postgres://u:p w@h/db',
      'postgres://u:50%off@h/db',
      'postgres://u:pw@/db?host=/run/postgresql',
      'postgres://h/db?application_name=me@laptop',
      // Review D: no user, an `@` then `/` in a query value (a socket folder under a home named with @).
      'postgresql:///credence?host=/home/ana@corp.example/pgsock',
      'postgres://db.example/credence?application_name=me@laptop/x',
    ]) {
      expect(urlProblem(url)).toBeUndefined();
    }
  });

  it('says to percent-encode @ / # ? in a password, and that a port must be a number, naming no secret', () => {
    const encode = 'a user name or password holding @ / # ? must have them percent-encoded (%40 %2F %23 %3F)';
    expect(urlProblem('postgres://u:s3/cret@h/db')).toBe(encode);
    expect(urlProblem('postgres://u:s3#cret@h/db')).toBe(encode);
    expect(urlProblem('postgres://u:s3?cret@h/db')).toBe(encode);
    expect(urlProblem('postgres://u:12#cret@h/db')).toBe(encode);
    expect(urlProblem('postgres://u:5432/cret@h/db')).toBe(encode);
    expect(urlProblem('postgres://u:1?cret@h/db')).toBe(encode);
    expect(urlProblem('postgres://u:pw@h:54x/db')).toBe('its port "54x" is not a number from 1 to 65535');
    expect(urlProblem('postgres://u:pw@h:99999/db')).toBe('its port "99999" is not a number from 1 to 65535');
    expect(urlProblem('postgres://u:pw@[::1/db')).toBe('it is not a URL that can be read');
  });
});

// Review C (walk 7): a token as the user name, a percent-encoded user:password, a key in the fragment or under a
// name like auth were printed whole in embeddings messages.
describe('redactHttpUrl', () => {
  it('hides the whole user part, leaves out the fragment and hides every query value but a version or model', () => {
    const shown: Record<string, string> = {
      'https://ghp_s3cret@api.example.com/v1': 'https://***@api.example.com/v1',
      'http://alice%3As3cret@h/v1': 'http://***@h/v1',
      'http://alice:s3cret@h/v1': 'http://***@h/v1',
      'http://h/v1#key=s3cret': 'http://h/v1',
      'http://h/v1?auth=s3cret&api-version=2024-02&model=m&v=2': 'http://h/v1?auth=***&api-version=2024-02&model=m&v=2',
      'http://h/v1?sig=s3cret&sig=s3cret2': 'http://h/v1?sig=***',
      'http://a:s3c@r/t@h/v1?x=s3cret#k=s3cret': 'http://***@h/v1?x=***',
      'not a url s3cret@h?auth=s3cret#k=s3cret': '***@h?auth=***',
    };
    for (const [url, expected] of Object.entries(shown)) {
      expect(redactHttpUrl(url)).toBe(expected);
      expect(redactHttpUrl(url)).not.toMatch(/s3c|alice|ghp/);
    }
  });
});
