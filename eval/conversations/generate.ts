/**
 * @module eval/conversations/generate
 * The conversation set (issue 23, Evaluation), generated from a seed: multi-session dialogues between two or three
 * speakers, each session dated; every speaker holds facts (city, employer, editor, a project's main store, a
 * hobby) that change one or two times over the sessions, stated, restated (sometimes word for word: a re-remembered
 * fact) and reacted to by the others, between small talk and other speakers' turns that share the value's words.
 * The questions ask the current value, the value before a change, when a change happened and the value at a month;
 * each carries the ids of the turns that answer it. The same seed gives the same set; the dev seed is tuned on,
 * the held-out seed only measured, and the two draw on disjoint words (templates.ts / held-out-templates.ts); a
 * third seed draws on a third phrasing, never tuned on (third-templates.ts); a fourth seed on a second development
 * phrasing in other styles (fourth-templates.ts); a fifth seed on a third development phrasing, dev 3: changes said
 * without a change word, told by another speaker, corrected, referred to by a pronoun (fifth-templates.ts).
 */
import { mulberry32 } from '../../bench/prng.js';
import { FIFTH_FACTS, FIFTH_HOLDING_ASIDES } from './fifth-templates.js';
import { FOURTH_FACTS, FOURTH_HOLDING_ASIDES } from './fourth-templates.js';
import { HELD_OUT_FACTS } from './held-out-templates.js';
import { THIRD_FACTS } from './third-templates.js';
import { FACT_KINDS, FACTS, PROJECTS, SMALL_TALK, SPEAKERS, type FactKind, type FactTemplates } from './templates.js';

export const DEV_SEED = 23;
export const HELD_OUT_SEED = 2023;
export const THIRD_SEED = 3023;
export const FOURTH_SEED = 4023;
export const FIFTH_SEED = 5023;
export const CONVERSATION_DEFAULTS: { readonly dialogues: number } = Object.freeze({ dialogues: 25 });

const DAY = 86_400_000;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export interface Turn {
  readonly id: string;
  readonly session: number;
  readonly speaker: string;
  /** When the turn was said (ms). */
  readonly at: number;
  readonly text: string;
}

export type QuestionKind = 'current' | 'before' | 'when' | 'at';

export interface Question {
  readonly id: string;
  readonly kind: QuestionKind;
  readonly text: string;
  /** The turns that answer it. */
  readonly relevant: readonly string[];
  /** The answer: a value, or the day (YYYY-MM-DD) of a change. */
  readonly answer: string;
  /** For current-value questions: the turns stating the fact's older values (they must rank below the newest). */
  readonly older: readonly string[];
}

export interface Dialogue {
  readonly id: string;
  readonly speakers: readonly string[];
  readonly sessions: readonly number[];
  readonly turns: readonly Turn[];
  readonly questions: readonly Question[];
  /** When the questions are asked: a week after the last session. */
  readonly now: number;
}

type Random = () => number;
const pick = <T>(rng: Random, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
const int = (rng: Random, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));
function shuffled<T>(rng: Random, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
const fill = (template: string, slots: Record<string, string>): string => {
  const text = template.replace(/\{(\w+)\}/g, (_, name: string) => slots[name] ?? `{${name}}`);
  return text.charAt(0).toUpperCase() + text.slice(1);
};
export const isoDay = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** A turn waiting for its place in a session. */
interface Planned {
  speaker: string;
  text: string;
  /** Set on the fact's turns: which fact and value, so questions can name them. */
  fact?: { key: string; value: number; change: boolean };
  /** A reaction follows the turn before it. */
  follows?: Planned;
}

interface Fact {
  key: string;
  speaker: string;
  kind: FactKind;
  proj: string;
  values: string[];
  /** The session each value was first said in. */
  sessions: number[];
}

export type Bank = Readonly<Record<FactKind, FactTemplates>>;
/**
 * Which words a set draws on: the held-out seed the held-out half, the third seed the third phrasing, the fourth seed
 * the second development phrasing (dev2), the fifth seed the third (dev3), any other seed the dev half.
 */
export type Phrasing = 'dev' | 'held-out' | 'third' | 'dev2' | 'dev3';
const BANKS: Readonly<Record<Phrasing, Bank>> = {
  dev: FACTS,
  'held-out': HELD_OUT_FACTS,
  third: THIRD_FACTS,
  dev2: FOURTH_FACTS,
  dev3: FIFTH_FACTS,
};
const PHRASING_OF: ReadonlyMap<number, Phrasing> = new Map([
  [HELD_OUT_SEED, 'held-out'],
  [THIRD_SEED, 'third'],
  [FOURTH_SEED, 'dev2'],
  [FIFTH_SEED, 'dev3'],
]);

/** Generates `dialogues` dialogues from `seed`, in the words of `phrasing` (or a bank of one's own: a probe's). */
export function generateConversations(
  seed: number,
  dialogues = CONVERSATION_DEFAULTS.dialogues,
  phrasing: Phrasing | Bank = PHRASING_OF.get(seed) ?? 'dev',
): Dialogue[] {
  const rng = mulberry32(seed);
  // The speakers' asides naming a value draw on a stream of their own: the rest of a set is as it was without them.
  const asides = mulberry32(seed + 7919);
  const bank = typeof phrasing === 'string' ? BANKS[phrasing] : phrasing;
  // A half's bank passed as a bank is that half; a probe's own bank takes dev's asides.
  const half =
    typeof phrasing === 'string'
      ? phrasing
      : ((Object.keys(BANKS) as Phrasing[]).find((k) => BANKS[k] === phrasing) ?? 'dev');
  const said = HOLDING_ASIDES[half];
  return Array.from({ length: dialogues }, (_, d) => dialogue(rng, `c${seed}-${d + 1}`, bank, { rng: asides, said }));
}

/**
 * A speaker naming their value and another of its kind with no change said: a comparison, a condition, a plan, a
 * quote, a denial of the other ({v}: the value that holds, {x}: another, {o}: another speaker); or mentioning their
 * value beside something else that changes (a club joined, a colleague who moved, the news). Each half has its own:
 * dev's in the words the rules read (than, if, would, maybe, told me, never), held-out's and third's in others (other
 * hedges and comparisons), so that the rules are measured on words they were not written for. None answers a
 * question, and a holding turn one of them marks older is counted wrongly older.
 */
export const HOLDING_ASIDES: Readonly<Record<Phrasing, readonly string[]>> = {
  dev: [
    'My cousin says {x} is better than {v}, I am not so sure.',
    'If I ever gave up {v} I would pick {x}, probably.',
    'Maybe I will try {x} some day, {v} is fine for now.',
    '{o} told me {x} is the thing to watch, next to {v}.',
    'I never really got into {x}, {v} suits me.',
    'I joined the {v} club at work with {o} last week.',
    'A colleague who loves {v} moved to another team.',
    'There was a piece on {v} in the news today, funny to see.',
  ],
  'held-out': [
    '{x} keeps topping the lists these days; {v} does the job for me.',
    'Sooner or later I may look at {x}; {v} stays put for the moment.',
    '{o} keeps raving about {x}; {v} is where I am.',
    'Compared with {x}, {v} wins for me, hands down.',
    'Tried {x} once and hated it; {v} it is.',
    'Signed up for the {v} club at work with {o} last week.',
    'A colleague who swore by {v} moved to another team.',
    'Saw {v} in the news today, funny to see.',
  ],
  third: [
    'Everybody online hypes {x}; {v} suits me fine.',
    'Who knows, one day {x} gets a go; {v} stays for the moment.',
    '{o} keeps sending me links about {x}; {v} is my pick.',
    '{x} against {v}: {v} wins for me every time.',
    'Gave {x} an afternoon once, meh; {v} it is.',
    '{o} and I started going to a {v} meetup on Thursdays.',
    'My old mentor, a big {v} fan, moved abroad.',
    'The {v} newsletter had a story about our team today.',
  ],
  dev2: FOURTH_HOLDING_ASIDES,
  dev3: FIFTH_HOLDING_ASIDES,
};

function dialogue(rng: Random, id: string, bank: Bank, aside: { rng: Random; said: readonly string[] }): Dialogue {
  const asides = aside.rng;
  const speakers = shuffled(rng, SPEAKERS).slice(0, rng() < 0.5 ? 2 : 3);
  const count = int(rng, 8, 12);
  const start = Date.UTC(2022, 0, 1) + int(rng, 0, 400) * DAY;
  const sessions: number[] = [];
  for (let s = 0, at = start; s < count; s += 1) {
    sessions.push(at + int(rng, 17, 21) * 3_600_000 + int(rng, 0, 59) * 60_000);
    at += int(rng, 9, 45) * DAY;
  }
  const projects = shuffled(rng, PROJECTS);
  const facts: Fact[] = [];
  speakers.forEach((speaker, si) => {
    for (const kind of shuffled(rng, FACT_KINDS).slice(0, int(rng, 3, 4))) {
      const changes = rng() < 0.5 ? 1 : 2;
      const values = shuffled(rng, bank[kind].values).slice(0, changes + 1);
      const first = int(rng, 0, 2);
      const factSessions = [first];
      for (let k = 1; k <= changes; k += 1) {
        const prev = factSessions[k - 1] as number;
        const room = count - 1 - (changes - k) * 2;
        factSessions.push(Math.min(room, int(rng, prev + 2, Math.max(prev + 2, room))));
      }
      facts.push({
        key: `${speaker}/${kind}`,
        speaker,
        kind,
        proj: projects[si] as string,
        values,
        sessions: factSessions,
      });
    }
  });
  // The turns each session must hold.
  const plans: Planned[][] = sessions.map(() => []);
  const others = (speaker: string) => speakers.filter((s) => s !== speaker);
  for (const f of facts) {
    const t = bank[f.kind];
    f.values.forEach((v, k) => {
      const slots = { v, old: f.values[k - 1] ?? '', p: f.speaker, proj: f.proj };
      // A bank with changes told by others (dev 3) draws more; the other banks' streams are as they were.
      const told = k > 0 && t.told !== undefined && rng() < 0.35 ? t.told : undefined;
      const said: Planned = {
        speaker: told === undefined ? f.speaker : pick(rng, others(f.speaker)),
        text: fill(pick(rng, told ?? (k === 0 ? t.state : t.change)), slots),
        fact: { key: f.key, value: k, change: k > 0 },
      };
      const at = f.sessions[k] as number;
      plans[at]?.push(said);
      if (k > 0 && told === undefined && t.followUp !== undefined && rng() < 0.5)
        plans[at]?.push({ speaker: f.speaker, text: fill(pick(rng, t.followUp), slots), follows: said });
      if (rng() < 0.6)
        plans[at]?.push({
          speaker: pick(rng, others(f.speaker)),
          text: fill(pick(rng, t.reaction), slots),
          follows: said,
        });
      // Restated later in the value's time, sometimes twice in the same words (a fact remembered again).
      const end = (f.sessions[k + 1] ?? count) - 1;
      if (end > at && rng() < 0.6) {
        const text = fill(pick(rng, t.state), slots);
        const times = rng() < 0.4 ? 2 : 1;
        for (let r = 0; r < times; r += 1)
          plans[int(rng, at + 1, end)]?.push({
            speaker: f.speaker,
            text,
            fact: { key: f.key, value: k, change: false },
          });
      }
    });
  }
  // Other speakers' turns that share a value's words, and small talk.
  plans.forEach((plan, s) => {
    for (let a = int(rng, 1, 3); a > 0; a -= 1) {
      const f = pick(rng, facts);
      const v = rng() < 0.7 ? pick(rng, f.values) : pick(rng, bank[f.kind].values);
      const speaker = pick(rng, others(f.speaker));
      plan.push({ speaker, text: fill(pick(rng, bank[f.kind].aside), { v, p: f.speaker, proj: f.proj }) });
    }
    for (let c = int(rng, 6, 12); c > 0; c -= 1) {
      const speaker = pick(rng, speakers);
      plan.push({ speaker, text: fill(pick(rng, SMALL_TALK), { p: pick(rng, others(speaker)) }) });
    }
    plans[s] = order(rng, plan);
  });
  for (const f of facts) {
    if (asides() >= 0.5) continue;
    const last = f.values.length - 1;
    const s = int(asides, f.sessions[last] as number, count - 1);
    const slots = {
      v: f.values[last] as string,
      x: pick(
        asides,
        bank[f.kind].values.filter((v) => !f.values.includes(v)),
      ),
      o: pick(asides, others(f.speaker)),
    };
    const plan = plans[s] as Planned[];
    let at = int(asides, 0, plan.length);
    while (plan[at]?.follows !== undefined) at += 1;
    plan.splice(at, 0, { speaker: f.speaker, text: fill(pick(asides, aside.said), slots) });
  }
  const turns: Turn[] = [];
  const turnsOf = new Map<string, { id: string; value: number; change: boolean; at: number; text: string }[]>();
  plans.forEach((plan, s) => {
    plan.forEach((p, i) => {
      const turn: Turn = {
        id: `${id}-s${s + 1}-t${i + 1}`,
        session: s + 1,
        speaker: p.speaker,
        at: (sessions[s] as number) + i * 60_000,
        text: p.text,
      };
      turns.push(turn);
      if (p.fact === undefined) return;
      const list = turnsOf.get(p.fact.key) ?? [];
      list.push({ id: turn.id, value: p.fact.value, change: p.fact.change, at: turn.at, text: turn.text });
      turnsOf.set(p.fact.key, list);
    });
  });
  const now = (sessions[count - 1] as number) + 7 * DAY;
  const questions = facts.flatMap((f) => questionsOf(rng, bank[f.kind], f, turnsOf.get(f.key) ?? [], sessions, count));
  return { id, speakers, sessions, turns, questions: questions.map((q, i) => ({ ...q, id: `${id}-q${i + 1}` })), now };
}

/** The session's turns in a random order, each reaction right after the turn it answers. */
function order(rng: Random, plan: readonly Planned[]): Planned[] {
  const heads = shuffled(
    rng,
    plan.filter((p) => p.follows === undefined),
  );
  return heads.flatMap((h) => [h, ...plan.filter((p) => p.follows === h)]);
}

function questionsOf(
  rng: Random,
  t: FactTemplates,
  f: Fact,
  said: readonly { id: string; value: number; change: boolean; at: number; text: string }[],
  sessions: readonly number[],
  count: number,
): Omit<Question, 'id'>[] {
  const ofValue = (k: number) => said.filter((s) => s.value === k).map((s) => s.id);
  const last = f.values.length - 1;
  const ask = (template: string, v: string, extra: Record<string, string> = {}) =>
    fill(template, { p: f.speaker, proj: f.proj, v, ...extra });
  const out: Omit<Question, 'id'>[] = [
    {
      kind: 'current',
      text: ask(pick(rng, t.current), f.values[last] as string),
      relevant: ofValue(last),
      answer: f.values[last] as string,
      older: said.filter((s) => s.value < last).map((s) => s.id),
    },
  ];
  for (let k = 1; k <= last; k += 1) {
    const change = said.find((s) => s.value === k && s.change);
    // A change that names the value it left ("I relocated from Lisbon to Denver") answers "before Denver?" too.
    const namesOld = change?.text.includes(f.values[k - 1] as string) ? [change.id] : [];
    out.push({
      kind: 'before',
      text: ask(pick(rng, t.before), f.values[k] as string, { new: f.values[k] as string }),
      relevant: [...ofValue(k - 1), ...namesOld],
      answer: f.values[k - 1] as string,
      older: [],
    });
    if (change !== undefined)
      out.push({
        kind: 'when',
        text: ask(pick(rng, t.when), f.values[k] as string),
        relevant: [change.id],
        answer: isoDay(change.at),
        older: [],
      });
  }
  // The value at a month wholly inside its time (after the session that said it, before the next change).
  for (let k = 0; k <= last; k += 1) {
    const from = sessions[f.sessions[k] as number] as number;
    const to =
      f.sessions[k + 1] === undefined
        ? (sessions[count - 1] as number)
        : (sessions[f.sessions[k + 1] as number] as number);
    const months: Date[] = [];
    for (let d = new Date(from); ; ) {
      d = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
      const end = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      if (end > to) break;
      months.push(d);
    }
    if (months.length === 0) continue;
    const m = pick(rng, months);
    const date = `${pick(rng, ['in', 'during', 'back in'])} ${MONTHS[m.getUTCMonth()]} ${m.getUTCFullYear()}`;
    out.push({
      kind: 'at',
      text: ask(pick(rng, t.at), f.values[k] as string, { date }),
      relevant: ofValue(k),
      answer: f.values[k] as string,
      older: [],
    });
  }
  return out.filter((q) => q.relevant.length > 0);
}
