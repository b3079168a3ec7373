import { describe, expect, it } from 'vitest';
import {
  DEV_SEED,
  FIFTH_SEED,
  FOURTH_SEED,
  generateConversations,
  HELD_OUT_SEED,
  HOLDING_ASIDES,
  isoDay,
  THIRD_SEED,
} from '../eval/conversations/generate.js';
import { FIFTH_FACTS, FIFTH_HOLDING_ASIDES } from '../eval/conversations/fifth-templates.js';
import { FOURTH_FACTS, FOURTH_HOLDING_ASIDES } from '../eval/conversations/fourth-templates.js';
import { HELD_OUT_FACTS } from '../eval/conversations/held-out-templates.js';
import { FACT_KINDS, FACTS } from '../eval/conversations/templates.js';
import { THIRD_FACTS } from '../eval/conversations/third-templates.js';

describe('eval/conversations: the generated conversation set (issue 23)', () => {
  const dev = generateConversations(DEV_SEED);

  it('is the same for the same seed and differs between the dev and held-out seeds', () => {
    expect(generateConversations(DEV_SEED)).toEqual(dev);
    const held = generateConversations(HELD_OUT_SEED);
    expect(held.map((d) => d.turns.map((t) => t.text))).not.toEqual(dev.map((d) => d.turns.map((t) => t.text)));
  });

  it("draws the held-out seed's facts from words the dev half never uses", () => {
    const held = generateConversations(HELD_OUT_SEED);
    const devTexts = new Set(dev.flatMap((d) => d.turns.map((t) => t.text)));
    const devQuestions = new Set(dev.flatMap((d) => d.questions.map((q) => q.text)));
    for (const kind of FACT_KINDS)
      for (const field of Object.keys(FACTS[kind]) as (keyof (typeof FACTS)[typeof kind])[]) {
        const shared = (FACTS[kind][field] ?? []).filter((x) => (HELD_OUT_FACTS[kind][field] ?? []).includes(x));
        expect(shared, `${kind}.${field}`).toEqual([]);
      }
    const heldValues = new Set(FACT_KINDS.flatMap((k) => HELD_OUT_FACTS[k].values));
    const heldFactTurns = held.flatMap((d) => d.turns).filter((t) => [...heldValues].some((v) => t.text.includes(v)));
    expect(heldFactTurns.length).toBeGreaterThan(500);
    for (const t of heldFactTurns) expect(devTexts.has(t.text), t.text).toBe(false);
    for (const q of held.flatMap((d) => d.questions)) expect(devQuestions.has(q.text), q.text).toBe(false);
  });

  it('asks the third seed in the third phrasing, questions no other half asks', () => {
    const third = generateConversations(THIRD_SEED);
    expect(third).toEqual(generateConversations(THIRD_SEED, undefined, THIRD_FACTS));
    const others = new Set(
      [...dev, ...generateConversations(HELD_OUT_SEED)].flatMap((d) => d.questions.map((q) => q.text)),
    );
    const asked = third.flatMap((d) => d.questions.map((q) => q.text));
    expect(asked.length).toBeGreaterThanOrEqual(1000);
    expect(asked.filter((q) => !others.has(q)).length / asked.length).toBeGreaterThan(0.9);
  });

  it('asks the fourth seed in the second development phrasing, with values and asides of its own', () => {
    const fourth = generateConversations(FOURTH_SEED);
    expect(fourth).toEqual(generateConversations(FOURTH_SEED, undefined, FOURTH_FACTS));
    expect(HOLDING_ASIDES.dev2).toBe(FOURTH_HOLDING_ASIDES);
    const devAsked = new Set(dev.flatMap((d) => d.questions.map((q) => q.text)));
    const asked = fourth.flatMap((d) => d.questions.map((q) => q.text));
    expect(asked.length).toBeGreaterThanOrEqual(1000);
    expect(asked.filter((q) => devAsked.has(q))).toEqual([]);
    for (const kind of FACT_KINDS)
      expect(FOURTH_FACTS[kind].values.filter((v) => FACTS[kind].values.includes(v))).toEqual([]);
  });

  it('asks the fifth seed in the third development phrasing, with changes told by others and follow-ups', () => {
    const fifth = generateConversations(FIFTH_SEED);
    expect(fifth).toEqual(generateConversations(FIFTH_SEED, undefined, FIFTH_FACTS));
    expect(HOLDING_ASIDES.dev3).toBe(FIFTH_HOLDING_ASIDES);
    const devAsked = new Set(
      [...dev, ...generateConversations(FOURTH_SEED)].flatMap((d) => d.questions.map((q) => q.text)),
    );
    const asked = fifth.flatMap((d) => d.questions.map((q) => q.text));
    expect(asked.length).toBeGreaterThanOrEqual(1000);
    expect(asked.filter((q) => devAsked.has(q))).toEqual([]);
    for (const kind of FACT_KINDS) {
      const taken = [...FACTS[kind].values, ...FOURTH_FACTS[kind].values];
      expect(FIFTH_FACTS[kind].values.filter((v) => taken.includes(v))).toEqual([]);
    }
    // Some changes are told by a speaker other than the one whose fact it is ({p}), and they answer "when".
    const toldAs = new RegExp(
      FACT_KINDS.flatMap((k) => FIFTH_FACTS[k].told ?? [])
        .map(
          (a) =>
            `^${a
              .replace(/[.?*+()[\]\\^$|]/g, '\\$&')
              .replace(/\{p\}/g, '(\\w+)')
              .replace(/\{\w+\}/g, '.+')}$`,
        )
        .join('|'),
    );
    let told = 0;
    for (const d of fifth) {
      const byId = new Map(d.turns.map((t) => [t.id, t]));
      for (const q of d.questions) {
        for (const id of q.relevant) {
          const turn = byId.get(id);
          if (q.kind === 'when') expect(isoDay(turn?.at ?? 0)).toBe(q.answer);
          else expect(turn?.text, q.text).toContain(q.answer);
          const about = turn?.text
            .match(toldAs)
            ?.slice(1)
            .find((x) => x !== undefined);
          if (q.kind !== 'when' || about === undefined) continue;
          expect(turn?.speaker).not.toBe(about);
          told += 1;
        }
      }
    }
    expect(told).toBeGreaterThan(50);
    // A speaker's follow-up naming no value comes right after their change.
    const followUp = new Set(FACT_KINDS.flatMap((k) => FIFTH_FACTS[k].followUp ?? []));
    const followUps = fifth.flatMap((d) => d.turns.filter((t) => followUp.has(t.text)));
    expect(followUps.length).toBeGreaterThan(50);
  });

  it('holds at least 20 dialogues of dated sessions between two or more speakers, and 1,000 questions', () => {
    expect(dev.length).toBeGreaterThanOrEqual(20);
    expect(dev.reduce((n, d) => n + d.questions.length, 0)).toBeGreaterThanOrEqual(1000);
    for (const d of dev) {
      expect(d.speakers.length).toBeGreaterThanOrEqual(2);
      expect(new Set(d.turns.map((t) => t.speaker)).size).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < d.sessions.length; i += 1)
        expect(d.sessions[i] as number).toBeGreaterThan(d.sessions[i - 1] as number);
      expect(new Set(d.turns.map((t) => t.id)).size).toBe(d.turns.length);
    }
  });

  it("names answering turns that exist, hold the answer's words, and come before the questions", () => {
    for (const d of [...dev, ...generateConversations(HELD_OUT_SEED)]) {
      const byId = new Map(d.turns.map((t) => [t.id, t]));
      for (const q of d.questions) {
        expect(q.relevant.length).toBeGreaterThan(0);
        for (const id of q.relevant) {
          const turn = byId.get(id);
          expect(turn, `${q.id} names ${id}`).toBeDefined();
          expect(turn?.at ?? Infinity).toBeLessThan(d.now);
          if (q.kind === 'when') expect(isoDay(turn?.at ?? 0)).toBe(q.answer);
          else expect(turn?.text, q.text).toContain(q.answer);
        }
      }
    }
  });

  it('asks the current value of facts that changed: its turns come after every turn of an older value', () => {
    const current = dev.flatMap((d) => d.questions.filter((q) => q.kind === 'current').map((q) => ({ d, q })));
    expect(current.length).toBeGreaterThan(100);
    for (const { d, q } of current) {
      expect(q.older.length).toBeGreaterThan(0);
      const at = (id: string) => d.turns.find((t) => t.id === id)?.at ?? Number.NaN;
      const firstCurrent = Math.min(...q.relevant.map(at));
      for (const id of q.older) expect(at(id)).toBeLessThan(firstCurrent);
    }
    const kinds = new Set(dev.flatMap((d) => d.questions.map((q) => q.kind)));
    expect([...kinds].sort()).toEqual(['at', 'before', 'current', 'when']);
  });

  it('held-out and third asides are phrased in none of the words the older-turn rules read', () => {
    const ruleWords = /\b(?:than|if|would|maybe|told me|says|never|not|for now)\b/i;
    for (const half of ['held-out', 'third'] as const)
      for (const a of HOLDING_ASIDES[half]) {
        expect(a, a).not.toMatch(ruleWords);
        expect(HOLDING_ASIDES.dev).not.toContain(a);
      }
  });

  it('every half has speakers naming their current value beside another with no change said, answering nothing', () => {
    const halves = [
      [DEV_SEED, 'dev'],
      [HELD_OUT_SEED, 'held-out'],
      [THIRD_SEED, 'third'],
    ] as const;
    for (const [seed, half] of halves) {
      const set = generateConversations(seed);
      const aside = new RegExp(
        HOLDING_ASIDES[half]
          .map((a) => `^${a.replace(/[.?*+()[\]\\^$|]/g, '\\$&').replace(/\{[vxo]\}/g, '.+')}$`)
          .join('|'),
      );
      const asides = set.flatMap((d) => d.turns.filter((t) => aside.test(t.text)).map((t) => ({ d, t })));
      expect(asides.length).toBeGreaterThan(50);
      for (const { d, t } of asides) {
        expect(
          d.questions.some((q) => q.relevant.includes(t.id)),
          t.text,
        ).toBe(false);
        // Naming the value a current-value question of the speaker's fact asks.
        const speakerOf = (id: string) => d.turns.find((x) => x.id === id)?.speaker;
        const named = d.questions.filter(
          (q) =>
            q.kind === 'current' && t.text.includes(q.answer) && q.relevant.every((id) => speakerOf(id) === t.speaker),
        );
        expect(named.length, t.text).toBeGreaterThan(0);
      }
    }
  });
});
