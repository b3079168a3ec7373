import { describe, expect, it } from 'vitest';
import { observationTerms } from './pattern-grouping.js';
import { surfaceWords } from './surface-words.js';

describe('the words behind stemmed terms', () => {
  it('gives each term the word written, an identifier read in its parts', () => {
    const texts = ['Use camelCase for variables', 'Name variables in camel case', 'camel-cased variables please'];
    const terms = ['camel', 'cas', 'variabl'];
    // The terms the report found shared: each is in every wording's terms.
    for (const t of terms) for (const x of texts) expect(observationTerms(x)).toContain(t);
    expect(surfaceWords(terms, texts)).toEqual(['camel', 'case', 'variables']);
  });

  it('takes the word written most often, and keeps a term no word gives', () => {
    expect(surfaceWords(['test'], ['run the tests', 'tests first', 'testing later'])).toEqual(['tests']);
    expect(surfaceWords(['zzz'], ['nothing here'])).toEqual(['zzz']);
    expect(surfaceWords(['max', 'retri'], ['Changed max_retries to maxRetries'])).toEqual(['max', 'retries']);
  });
});
