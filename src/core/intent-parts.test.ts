import { describe, expect, it } from 'vitest';
import { intentParts } from './intent-parts.js';

describe('intentParts', () => {
  it('splits a two-part request at "and"', () => {
    expect(intentParts('find flights to London and a hotel there')).toEqual(['find flights to London', 'a hotel there']);
  });

  it('splits at then, commas and semicolons, and drops parts with no content word', () => {
    expect(intentParts('read the config, parse it; then write it back and')).toEqual(['read the config', 'parse it', 'write it back']);
  });

  it('keeps a one-part intent whole', () => {
    expect(intentParts('Read the deno.json file.')).toEqual(['Read the deno.json file']);
    expect(intentParts('the')).toEqual(['the']);
  });
});
