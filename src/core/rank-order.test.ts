import { describe, expect, it } from 'vitest';
import { byScoreThenRun, byScoreThenText, byScoreThenTool, compareCodePoints } from './rank-order.js';

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

  it('orders a character beyond U+FFFF after U+FF5E, by code point (UTF-16 units put it before)', () => {
    const items: Item[] = [
      { score: 0.5, text: '😀', id: 'x' },
      { score: 0.5, text: '\uff5e', id: 'y' },
    ];
    expect(items.sort(order).map((i) => i.text)).toEqual(['\uff5e', '😀']);
  });
});

describe('compareCodePoints', () => {
  it("orders strings as their UTF-8 bytes do (the stores' order), astral characters after U+E000 and up", () => {
    const units = ['a', 'b', 'Z', 'é', '\ud7ff', '\ue000', '\uffee', '𝒳', '😀', ''];
    let seed = 3;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const word = () =>
      Array.from({ length: Math.floor(next() * 4) }, () => units[Math.floor(next() * units.length)]).join('');
    for (let i = 0; i < 2000; i += 1) {
      const a = word();
      const b = word();
      expect(Math.sign(compareCodePoints(a, b)), `${a} vs ${b}`).toBe(
        Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))),
      );
    }
  });
});

describe('byScoreThenTool', () => {
  it('orders a tie by the tool name by code point', () => {
    const tools = [
      { score: 0.4, tool: '😀_emoji' },
      { score: 0.4, tool: '\uff5e_wide' },
      { score: 0.9, tool: 'z' },
    ];
    expect(tools.sort(byScoreThenTool).map((t) => t.tool)).toEqual(['z', '\uff5e_wide', '😀_emoji']);
  });
});

describe('byScoreThenRun', () => {
  interface Run {
    score: number;
    startedAt: number;
    intent: string;
    tools: string[];
    id: string;
  }
  const byRun = byScoreThenRun<Run>(
    (r) => r.score,
    (r) => r,
    (r) => r.tools,
  );
  const runs = (ids: string[]): Run[] => [
    { score: 0.5, startedAt: 1, intent: 'ship', tools: ['build', 'test'], id: ids[0] as string },
    { score: 0.5, startedAt: 1, intent: 'ship', tools: ['build'], id: ids[1] as string },
    { score: 0.5, startedAt: 2, intent: 'ship', tools: ['lint'], id: ids[2] as string },
    { score: 0.5, startedAt: 1, intent: 'alpha', tools: ['zip'], id: ids[3] as string },
    { score: 0.7, startedAt: 0, intent: 'zzz', tools: ['zip'], id: ids[4] as string },
  ];
  it('orders a tie newest first, then by intent, then by tool sequence, whatever the ids', () => {
    const order = (ids: string[]) =>
      runs(ids)
        .sort(byRun)
        .map((r) => `${r.intent}:${r.tools.join('+')}`);
    const want = ['zzz:zip', 'ship:lint', 'alpha:zip', 'ship:build', 'ship:build+test'];
    expect(order(['a', 'b', 'c', 'd', 'e'])).toEqual(want);
    expect(order(['e', 'd', 'c', 'b', 'a'])).toEqual(want);
  });
  it('orders runs equal in all but id by id', () => {
    const same = (id: string): Run => ({ score: 0.5, startedAt: 1, intent: 'ship', tools: ['build'], id });
    expect([same('b'), same('a')].sort(byRun).map((r) => r.id)).toEqual(['a', 'b']);
  });
});
