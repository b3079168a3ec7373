import { describe, expect, it } from 'vitest';
import { byScoreThenText } from './rank-order.js';

interface Item {
  score: number;
  text: string;
  id: string;
}
const order = byScoreThenText<Item>(
  (i) => i.score,
  (i) => i.text,
  (i) => i.id,
);

describe('byScoreThenText', () => {
  it('puts the higher score first whatever the text and id', () => {
    const items: Item[] = [
      { score: 0.2, text: 'a', id: 'a' },
      { score: 0.9, text: 'z', id: 'z' },
    ];
    expect(items.sort(order).map((i) => i.score)).toEqual([0.9, 0.2]);
  });

  it('orders a tie by text before id, so random ids do not decide it', () => {
    const tie = (ids: [string, string]): string[] =>
      [
        { score: 0.5, text: 'ship web then api', id: ids[0] },
        { score: 0.5, text: 'ship api then web', id: ids[1] },
      ]
        .sort(order)
        .map((i) => i.text);
    expect(tie(['id-1', 'id-2'])).toEqual(['ship api then web', 'ship web then api']);
    expect(tie(['id-2', 'id-1'])).toEqual(['ship api then web', 'ship web then api']);
  });

  it('orders the same text by id, by code point', () => {
    const items: Item[] = [
      { score: 0.5, text: 't', id: 'b' },
      { score: 0.5, text: 't', id: 'B' },
      { score: 0.5, text: 't', id: 'a' },
    ];
    expect(items.sort(order).map((i) => i.id)).toEqual(['B', 'a', 'b']);
  });
});
