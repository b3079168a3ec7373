import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

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

  it('shows no part of a URL it cannot parse', () => {
    expect(redactUrl('postgres://team:s3cret@[bad')).toBe('(unparseable PostgreSQL URL)');
  });
});
