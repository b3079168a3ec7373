import { describe, expect, it } from 'vitest';
import { unexpectedErrorSummary } from './error-summary.js';

describe('unexpectedErrorSummary', () => {
  it("names a database error's class and SQLSTATE, never its message or detail", () => {
    const driver = Object.assign(new Error('invalid input syntax for type integer: "sk-secret-value"'), {
      name: 'DatabaseError',
      code: '22P02',
      detail: 'Key (scope, id)=(p, private) already exists.',
    });
    const summary = unexpectedErrorSummary(driver);
    expect(summary).toBe('an internal error (DatabaseError 22P02)');
  });

  it('says only "Error" for a thrown value that is not an Error, or a name or code that is not a plain word', () => {
    expect(unexpectedErrorSummary('boom')).toBe('an internal error (Error)');
    expect(unexpectedErrorSummary(Object.assign(new Error('x'), { name: 'Bad\u001b[31m', code: 'a b' }))).toBe(
      'an internal error (Error)',
    );
    expect(unexpectedErrorSummary(new TypeError('The database connection is not open'))).toBe(
      'an internal error (TypeError)',
    );
  });
});
