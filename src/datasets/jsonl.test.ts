import { describe, expect, it } from 'vitest';
import { readJsonLines } from './jsonl.js';

describe('readJsonLines', () => {
  it('returns each line as a value with its 1-based line number', () => {
    const { values, errors } = readJsonLines('{"a":1}\n[2]\n"three"\n');
    expect(values).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, value: [2] },
      { line: 3, value: 'three' },
    ]);
    expect(errors).toEqual([]);
  });

  it('skips blank and whitespace-only lines without shifting the numbers of the others', () => {
    const { values } = readJsonLines('\n{"a":1}\n   \n\t\n{"b":2}');
    expect(values.map((v) => v.line)).toEqual([2, 5]);
  });

  it('reports a malformed line with its number and the parser reason and still returns the other lines', () => {
    const { values, errors } = readJsonLines('{"a":1}\n{"a":\n{"c":3}\n');
    expect(values.map((v) => v.value)).toEqual([{ a: 1 }, { c: 3 }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.line).toBe(2);
    let parserReason = '';
    try {
      JSON.parse('{"a":');
    } catch (error) {
      parserReason = (error as Error).message;
    }
    expect(errors[0]?.reason).toBe(parserReason);
  });

  it('accepts CRLF line ends and a leading byte-order mark', () => {
    const { values, errors } = readJsonLines('\uFEFF{"a":1}\r\n{"b":2}\r\n');
    expect(errors).toEqual([]);
    expect(values).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, value: { b: 2 } },
    ]);
  });

  it('gives nothing back for empty text', () => {
    expect(readJsonLines('')).toEqual({ values: [], errors: [] });
  });
});
