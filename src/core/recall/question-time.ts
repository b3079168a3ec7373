/**
 * @module core/recall/question-time
 * The time a question is about (issue 23, item 3): a period it names ("last May", "in 2023", "on 14 May 2023",
 * "two weeks ago", "the summer of 2022"), whether it asks what holds now ("now", "these days", "still") or what held
 * before ("before", "used to", "previously"), and whether it asks when something happened. Pure: `now` is passed in;
 * dates are read in UTC; a period is [from, to) in epoch milliseconds. Recall reads it to measure recency from the
 * period rather than from now (engine/recall).
 */

export interface QuestionPeriod {
  readonly from: number;
  readonly to: number;
  /** The words that named it, as written. */
  readonly text: string;
}

export interface QuestionTime {
  readonly period?: QuestionPeriod;
  /** 'current': asks what holds now; 'past': what held before; absent: neither. */
  readonly tense?: 'current' | 'past';
  /** Asks when something happened ("when did …", "what date …"). */
  readonly asksWhen: boolean;
}

const DAY = 86_400_000;
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH = `(${MONTHS.map((m) => `${m.slice(0, 3)}(?:${m.slice(3)})?`).join('|')})\\.?`;
/** The month a word names (0-11), or -1; "may" must be written "May" (else it is the verb). */
const monthIndex = (word: string): number =>
  /^may$/i.test(word) && word !== 'May' ? -1 : MONTHS.findIndex((m) => m.startsWith(word.toLowerCase().slice(0, 3)));
const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };
const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  'a couple of': 2,
  'a few': 3,
};
const YEAR = '((?:19|20)\\d{2})';

const utc = (y: number, m: number, d = 1): number => Date.UTC(y, m, d);
const monthPeriod = (y: number, m: number, text: string): QuestionPeriod | undefined =>
  m < 0 ? undefined : { from: utc(y, m), to: utc(y, m + 1), text };
const dayPeriod = (y: number, m: number, d: number, text: string): QuestionPeriod | undefined => {
  if (m < 0) return undefined;
  const from = utc(y, m, d);
  return new Date(from).getUTCDate() === d ? { from, to: from + DAY, text } : undefined;
};
/** Monday 00:00 UTC of the week holding `t`. */
const weekStart = (t: number): number => {
  const d = new Date(t);
  const day = (d.getUTCDay() + 6) % 7;
  return utc(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day);
};

type Reader = (m: RegExpExecArray, now: Date) => QuestionPeriod | undefined;

/**
 * What a pattern cannot match without, asked of the question in lower case: a pattern is tried only on a question
 * that has it, so that most questions compile and run few of the patterns (a hook process reads one question:
 * compiling them all was ~2.5 ms of it). A test that fails only skips a pattern that could not have matched; the
 * pattern still decides.
 */
type Need = (lower: string) => boolean;
const hasDigit: Need = (lower) => /\d/.test(lower);
const holds =
  (...words: string[]): Need =>
  (lower) =>
    words.some((w) => lower.includes(w));
const THIS_OR_LAST = holds('last ', 'this ');
const A_MONTH = holds(...MONTHS.map((m) => m.slice(0, 3)));

/** The patterns tried in order, each with the words it needs; the first that matches names the period. */
const READERS: [RegExp, Reader, Need][] = [
  [/\b(\d{4})-(\d{2})-(\d{2})\b/, (m) => dayPeriod(Number(m[1]), Number(m[2]) - 1, Number(m[3]), m[0]), hasDigit],
  [
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?: of)? ${MONTH},? ${YEAR}\\b`, 'i'),
    (m) => dayPeriod(Number(m[3]), monthIndex(m[2] as string), Number(m[1]), m[0]),
    hasDigit,
  ],
  [
    new RegExp(`\\b${MONTH} (\\d{1,2})(?:st|nd|rd|th)?,? ${YEAR}\\b`, 'i'),
    (m) => dayPeriod(Number(m[3]), monthIndex(m[1] as string), Number(m[2]), m[0]),
    hasDigit,
  ],
  [
    new RegExp(`\\b${MONTH},?(?: of)? ${YEAR}\\b`, 'i'),
    (m) => monthPeriod(Number(m[2]), monthIndex(m[1] as string), m[0]),
    hasDigit,
  ],
  [
    new RegExp(`\\b(?:the )?(spring|summer|autumn|fall|winter)(?: of)? ${YEAR}\\b`, 'i'),
    (m) => {
      const start = SEASONS[(m[1] as string).toLowerCase()] as number;
      const y = Number(m[2]);
      return { from: utc(y, start), to: utc(y, start + 3), text: m[0] };
    },
    hasDigit,
  ],
  [
    new RegExp(`\\b(last|this) ${MONTH}`, 'i'),
    (m, now) => {
      const month = monthIndex(m[2] as string);
      const y = now.getUTCFullYear();
      if ((m[1] as string).toLowerCase() === 'this') return monthPeriod(y, month, m[0]);
      return monthPeriod(month < now.getUTCMonth() ? y : y - 1, month, m[0]);
    },
    THIS_OR_LAST,
  ],
  [
    /\b(last|this) (spring|summer|autumn|fall|winter)\b/i,
    (m, now) => {
      const start = SEASONS[(m[2] as string).toLowerCase()] as number;
      const y = now.getUTCFullYear();
      const thisOne = utc(y, start);
      const last = utc(y, start + 3) <= now.getTime() ? thisOne : utc(y - 1, start);
      const from = (m[1] as string).toLowerCase() === 'this' ? thisOne : last;
      const d = new Date(from);
      return { from, to: utc(d.getUTCFullYear(), d.getUTCMonth() + 3), text: m[0] };
    },
    THIS_OR_LAST,
  ],
  [
    new RegExp(`\\b(?:in|during|since|of|back in|around|by) ${YEAR}\\b`, 'i'),
    (m) => ({ from: utc(Number(m[1]), 0), to: utc(Number(m[1]) + 1, 0), text: m[0] }),
    hasDigit,
  ],
  [
    new RegExp(`\\b(?:in|during|back in|around) ${MONTH}(?![\\w-])`, 'i'),
    (m, now) => {
      // A month without a year: the latest one that has begun.
      const month = monthIndex(m[1] as string);
      const y = now.getUTCFullYear();
      return monthPeriod(month <= now.getUTCMonth() ? y : y - 1, month, m[0]);
    },
    A_MONTH,
  ],
  [
    new RegExp(`\\b(${Object.keys(NUMBERS).join('|')}|\\d{1,3}) (day|week|month|year)s? ago\\b`, 'i'),
    (m, now) => {
      const n = NUMBERS[(m[1] as string).toLowerCase()] ?? Number(m[1]);
      const unit = (m[2] as string).toLowerCase();
      const t = now.getTime();
      if (unit === 'day') {
        const d = new Date(t - n * DAY);
        return dayPeriod(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), m[0]);
      }
      if (unit === 'week') {
        const from = weekStart(t - n * 7 * DAY);
        return { from, to: from + 7 * DAY, text: m[0] };
      }
      if (unit === 'month') return monthPeriod(now.getUTCFullYear(), now.getUTCMonth() - n, m[0]);
      return { from: utc(now.getUTCFullYear() - n, 0), to: utc(now.getUTCFullYear() - n + 1, 0), text: m[0] };
    },
    holds(' ago'),
  ],
  [
    /\b(yesterday|today|(?:last|this) (?:week|month|year)|earlier this (?:week|month|year))\b/i,
    (m, now) => {
      const t = now.getTime();
      const y = now.getUTCFullYear();
      const mo = now.getUTCMonth();
      const today = utc(y, mo, now.getUTCDate());
      const text = m[0];
      switch ((m[1] as string).toLowerCase().replace('earlier this', 'this')) {
        case 'yesterday':
          return { from: today - DAY, to: today, text };
        case 'today':
          return { from: today, to: today + DAY, text };
        case 'last week':
          return { from: weekStart(t) - 7 * DAY, to: weekStart(t), text };
        case 'this week':
          return { from: weekStart(t), to: weekStart(t) + 7 * DAY, text };
        case 'last month':
          return monthPeriod(y, mo - 1, text);
        case 'this month':
          return monthPeriod(y, mo, text);
        case 'last year':
          return { from: utc(y - 1, 0), to: utc(y, 0), text };
        default:
          return { from: utc(y, 0), to: utc(y + 1, 0), text };
      }
    },
    holds('yesterday', 'today', 'last ', 'this '),
  ],
];

const CURRENT =
  /\b(now|currently|current|these days|nowadays|at the moment|at present|presently|still|any ?more|latest)\b/i;
const WHEN = /^\s*(?:and |so |but )?when\b|\b(?:what|which) (?:date|day|month|year|time)\b|\bhow long ago\b/i;
const MAY_BE_CURRENT = holds('now', 'current', 'these days', 'at the moment', 'present', 'still', 'any', 'latest');
const MAY_BE_PAST = holds(
  'before',
  'previous',
  'used to',
  'former',
  'earlier',
  'originally',
  'at first',
  'prior',
  'in the past',
  'until',
  ' for ',
);
const MAY_ASK_WHEN = holds('when', 'what ', 'which ', 'how long ago');

/** Words that put a question in the past wherever they stand. */
const PAST_ALWAYS = /\b(?:previously|formerly|originally|in the past)\b/i;
/**
 * A question's own verb in the past ("did", "was", "had"): it asks what held then, not now. Not "used": "which
 * command is used to build the app?" is the present ("used to" + a verb is read by readsPast).
 */
const ASKED_IN_PAST = /\b(?:did|didn't|was|wasn't|were|weren't|had|hadn't)\b/i;
/** A regular verb in the past ("What filled Ben's weekends before …?"), read so only in a question with no present. */
const ED_VERB = /\b(?!(?:need|speed|feed|seed|bed|red|shed|breed|deed|embed|exceed|proceed|succeed)\b)[a-z]{2,}ed\b/i;
/** A verb in the present (or a modal): the question asks about now, whatever adjective it holds. */
const ASKED_IN_PRESENT = new RegExp(
  "\\b(?:is|isn't|are|aren't|am|do|does|don't|doesn't|has|hasn't|have|haven't|can|can't|should|must|will|won't|" +
    "shall)\\b|\\b(?:it|that|what|there|who|where|which|here)'s\\b|'re\\b",
  'i',
);
/** "before", "prior to", "earlier than" and what follows them in their clause. */
const BEFORE = /\b(?:before|prior to|earlier than)\b([^?.!,;:]*)/gi;
/**
 * With a verb in the past, a value left for another is what held until then: "Which hobby did Ben drop for chess?",
 * "Which company did Ana leave for Acme Labs?": the value it was left for ends the question, no pronoun nor article
 * before it ("What did Ben leave for me on the desk?", "Which tasks did we drop for this sprint?" are no change).
 */
const LEFT_FOR = new RegExp(
  '\\b(?:leave|left|drop|dropped|quit|ditch|ditched|swap|swapped|trade|traded|give up|gave up|abandon|abandoned)' +
    '\\b[^?.!,;:]*\\bfor\\s+(?!(?:the|a|an|me|us|you|him|her|them|it|this|that|these|those|my|our|your|his|their|' +
    'its|good|now|today|tonight|tomorrow|lunch|dinner|breakfast|work|school|home)\\b)[\\p{L}\\p{N}][\\p{L}\\p{N}-]*' +
    '(?:\\s+\\p{Lu}[\\p{L}\\p{N}]*)*\\s*\\?*\\s*$',
  'iu',
);
/**
 * A wh-question asking what held until a value ("Where was home for Ana until Denver?", "What was under Ledger until
 * Postgres?"), not until a time ("Did Ben wait until Friday?", "What did we freeze until Friday?").
 */
const UNTIL_VALUE = new RegExp(
  '^\\s*(?:what|which|where|who)\\b.*\\buntil\\s+(?!(?:the|a|an|then|now|today|tonight|tomorrow|yesterday|next|last|' +
    'this|that|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|' +
    'august|september|october|november|december|noon|midnight|morning|evening|\\d)\\b)[\\p{L}\\p{N}]',
  'iu',
);
/** A change as the object of "before": "before the move", "before switching to Zed". */
const A_CHANGE = new RegExp(
  '^(?:(?:the|a|our|their|his|her|its|my|your) )?(?:move|moving|switch|switching|migration|migrating|change|' +
    'changing|joining|leaving|quitting|taking up|starting|upgrade|upgrading|rewrite|rewriting|merger|acquisition|' +
    'rename|renaming|replacing|relocation|relocating)\\b',
  'i',
);
/** A clause in the past as the object of "before": "before it moved", "before we switched". */
const A_PAST_CLAUSE =
  /^(?:it|he|she|they|we|you|i)\s+(?:\w+ed|left|went|took|began|became|got|made|came|quit|ran|built|sold|bought)\b/i;
/** "used to" + a base verb, not after "is/are/get" ("is used to build" is the present, passive). */
const USED_TO = /\b(?:(is|are|am|was|were|be|been|being|get|gets|got|getting)\s+)?used to\s+([\w'-]+)/gi;
const NOT_A_VERB = /^(?:the|a|an|it|this|that|these|those|them|him|her|me|us|you|my|our|your|his|their|its|\w+ing)$/i;

/**
 * Whether a question's words put it in the past (what held before a change), read as:
 * - "previously", "formerly", "originally", "in the past": always;
 * - "before", "prior to", "earlier than": with nothing after them in their clause ("what did Ben use before?"), in
 *   a question whose own verb is in the past ("did", "was", a verb in "-ed" with none in the present), or before a
 *   name ("before Redis"), a change ("before the move", "before switching to Zed") or a clause in the past ("before
 *   it moved"); else they order steps in the present ("what do we run before deploy?", "what happens before the
 *   token expires?");
 * - "used to" followed by a verb, not after "is/are/get" ("which command is used to build the app?" is the present);
 * - "previous", "former", "prior", "at first": only when nothing in it is in the present (a present verb, "now");
 * - "earlier": ending its clause or in a question whose verb is in the past;
 * - with a verb in the past (not "what time"), "until" a value in a wh-question (UNTIL_VALUE), or a value left "for"
 *   another ending the question (LEFT_FOR).
 * A word of the present ("now", "still", "current") wins over all of these (questionTime).
 */
export function readsPast(question: string): boolean {
  const lower = question.toLowerCase();
  if (!MAY_BE_PAST(lower)) return false;
  if (PAST_ALWAYS.test(question)) return true;
  const present = ASKED_IN_PRESENT.test(question) || (MAY_BE_CURRENT(lower) && CURRENT.test(question));
  const pastVerb = ASKED_IN_PAST.test(question) || (!present && ED_VERB.test(question));
  for (const m of question.matchAll(BEFORE)) {
    const object = (m[1] as string).trim();
    if (object === '' || pastVerb || /^[A-Z0-9]/.test(object) || A_CHANGE.test(object) || A_PAST_CLAUSE.test(object))
      return true;
  }
  if (pastVerb && !/^\s*what time\b/i.test(question) && (UNTIL_VALUE.test(question) || LEFT_FOR.test(question)))
    return true;
  for (const m of question.matchAll(USED_TO)) if (m[1] === undefined && !NOT_A_VERB.test(m[2] as string)) return true;
  if (!present && /\b(?:previous|former|at first)\b|\bprior\b(?! to)/i.test(question)) return true;
  return /\bearlier\b(?! than)/i.test(question) && (pastVerb || /\bearlier\s*(?:[?.!,;:]|$)/i.test(question));
}

/** The time `question` is about, read at `now` (epoch ms). */
export function questionTime(question: string, now: number): QuestionTime {
  const at = new Date(now);
  const lower = question.toLowerCase();
  let period: QuestionPeriod | undefined;
  for (const [pattern, read, need] of READERS) {
    if (!need(lower)) continue;
    const m = pattern.exec(question);
    if (m === null) continue;
    // "since 2024" is no period that ended: it runs to now ("Which database do we use since 2024?").
    if (/^since\b/i.test(m[0]) || /\bsince\s+$/i.test(question.slice(0, m.index))) break;
    period = read(m, at);
    if (period !== undefined) break;
  }
  // "today" names a period and a present; a named period otherwise decides the tense.
  const current = MAY_BE_CURRENT(lower) && CURRENT.test(question);
  // A word of the present ("now", "still", "current") wins over one of the past: "is the former CTO still an admin?"
  const tense: QuestionTime['tense'] =
    period !== undefined && period.to <= now ? 'past' : current ? 'current' : readsPast(question) ? 'past' : undefined;
  return {
    ...(period === undefined ? {} : { period }),
    ...(tense === undefined ? {} : { tense }),
    asksWhen: MAY_ASK_WHEN(lower) && WHEN.test(question),
  };
}

/**
 * Whether a question asks for the value held at a time (a period that ended, or a date given): not "before",
 * "used to", "previously" (what held before a change), not "when". Of the turns said by then, the newest goes first.
 */
export function asksValueAsOf(question: string, asked: QuestionTime): boolean {
  return !asked.asksWhen && !readsPast(question) && !boundedBy(question, asked.period);
}
/**
 * Whether the date a question names bounds a time rather than naming it: the word right before it is "after",
 * "since", "until" ("Which database did Lena use after March 2025?"; not "… in March 2025, after the layoffs?").
 */
function boundedBy(question: string, period: QuestionPeriod | undefined): boolean {
  const at = period === undefined ? -1 : question.toLowerCase().indexOf(period.text.toLowerCase());
  return at >= 0 && BOUNDED.test(question.slice(0, at).match(/(\p{L}+)\P{L}*$/u)?.[1] ?? '');
}
const BOUNDED = /^(?:after|since|until|till)$/i;

/**
 * Whether a question asks what holds now: said so ("now", "these days", "still"), or put in the present with no
 * word of the past ("Where does Lena work?"; not "Where did Lena work?", "Which editor was Ben using?"), not "when",
 * not the first, a wish or a choice ("What is the first database we tried?", "What database would Raj pick?").
 */
export function asksPresentValue(question: string, asked: QuestionTime): boolean {
  if (asked.asksWhen || asked.tense === 'past' || NOT_HELD_NOW.test(question)) return false;
  return asked.tense === 'current' || !ASKED_IN_PAST.test(question);
}
/** What is not the value held now: the first one, a wish, a choice ("Where does Lena want to work?"). */
const NOT_HELD_NOW = /\b(?:first|originally|want|wants|wanted|would|picks?)\b/i;

const TIME_WORDS = /\b(?:now|nowadays|these days|at the moment|at present|presently|currently)\b/gi;

/**
 * A question (one sentence ending in "?") without the words that only say it asks about the present ("now", "these
 * days", "currently"): they set recall's recency, and matched as words they find every turn that says "now" ("I
 * live in Lisbon these days" for "What is Elliot's hobby these days?"). In a request of several sentences ("they
 * are currently in primary school") they may say what is asked for, and stay. The text as written when it is no
 * such question or nothing else is left.
 */
export function withoutTimeWords(question: string): string {
  const t = question.trim();
  if (!t.endsWith('?') || /[.!?]\s/.test(t) || !MAY_BE_CURRENT(question.toLowerCase())) return question;
  const rest = question.replace(TIME_WORDS, ' ');
  return /[\p{L}\p{N}]/u.test(rest) ? rest : question;
}

/**
 * How the time a question is about changes recall's recency factor (tuned on the conversation set's dev seed,
 * eval/conversations): a memory written after the period the question names did not exist then (`afterPeriod`);
 * a question about the present weighs recency more (`currentWeight`, half-way at `currentDays`).
 */
export const QUESTION_RECENCY = Object.freeze({ afterPeriod: 0.5, currentWeight: 0.5, currentDays: 30 });

export interface QuestionRecency {
  /** Days from the reference time (now, or the end of the period asked about) back to the memory. */
  readonly ageDays: number;
  readonly factor: number;
  /** What the factor was measured against, when not the plain age from now. */
  readonly basis?: string;
}

/**
 * The recency factor of a memory written at `at` for a question read as `asked`, at `now`. Without a time in the
 * question: the plain factor, 1 − weight × (1 − 0.5^(age / days)). A period: age from its end (capped at now), and
 * `afterPeriod` for a memory written after it. About the present: the same curve with the stronger weight. About
 * the past, or when something happened: 1 (recency does not count).
 */
export function questionRecency(
  at: number,
  now: number,
  asked: QuestionTime,
  base: { weight: number; days: number },
  options: Partial<typeof QUESTION_RECENCY> = {},
): QuestionRecency {
  const o = { ...QUESTION_RECENCY, ...options };
  const curve = (age: number, weight: number, days: number) => 1 - weight * (1 - 0.5 ** (age / days));
  const ageFromNow = Math.max(0, (now - at) / DAY);
  if (asked.period !== undefined) {
    const end = Math.min(asked.period.to, now);
    if (at >= end && asked.period.to <= now)
      return { ageDays: 0, factor: o.afterPeriod, basis: `written after ${asked.period.text}` };
    const ageDays = Math.max(0, (end - at) / DAY);
    return {
      ageDays,
      factor: curve(ageDays, base.weight, base.days),
      basis: `age from the end of ${asked.period.text}`,
    };
  }
  if (asked.tense === 'past' || asked.asksWhen)
    return {
      ageDays: ageFromNow,
      factor: 1,
      basis: asked.asksWhen ? 'asks when: recency off' : 'asks the past: recency off',
    };
  if (asked.tense === 'current')
    return {
      ageDays: ageFromNow,
      factor: curve(ageFromNow, o.currentWeight, o.currentDays),
      basis: 'asks the present: recency weighs more',
    };
  return { ageDays: ageFromNow, factor: curve(ageFromNow, base.weight, base.days) };
}

/**
 * How a question's time changes a superseded memory's standing in recall: a question about a past period judges
 * supersession at the period's end (`asOf`: what was replaced only later was current then); a question about the
 * past with no period ("before it moved", "used to") asks what the superseded memories say (`keepSuperseded`: not
 * demoted, their label kept; still shown as superseded), and so does one asking when something happened (the turn
 * that said a move happened stays the answer after a later move).
 */
export function questionLife(asked: QuestionTime, now: number): { asOf?: number; keepSuperseded: boolean } {
  if (asked.period !== undefined)
    return asked.period.to <= now ? { asOf: asked.period.to, keepSuperseded: false } : { keepSuperseded: false };
  return { keepSuperseded: asked.tense === 'past' || asked.asksWhen };
}
