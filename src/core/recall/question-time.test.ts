import { describe, expect, it } from 'vitest';
import {
  asksPresentValue,
  asksValueAsOf,
  QUESTION_RECENCY,
  questionLife,
  questionRecency,
  questionTime,
  withoutTimeWords,
} from './question-time.js';

const NOW = Date.parse('2026-06-10T12:00:00Z');
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const period = (q: string, now = NOW) => {
  const p = questionTime(q, now).period;
  return p === undefined
    ? undefined
    : [new Date(p.from).toISOString().slice(0, 10), new Date(p.to).toISOString().slice(0, 10)];
};

describe('questionTime: the period a question names', () => {
  it('reads absolute days, months, seasons and years', () => {
    expect(period('What happened on 2023-05-14?')).toEqual(['2023-05-14', '2023-05-15']);
    expect(period('Where was she on 14 May 2023?')).toEqual(['2023-05-14', '2023-05-15']);
    expect(period('Where was she on the 3rd of March, 2024?')).toEqual(['2024-03-03', '2024-03-04']);
    expect(period('What did he do on September 9th, 2022?')).toEqual(['2022-09-09', '2022-09-10']);
    expect(period('Which editor did Ravi use back in February 2022?')).toEqual(['2022-02-01', '2022-03-01']);
    expect(period('Where did Maya live during Dec 2021?')).toEqual(['2021-12-01', '2022-01-01']);
    expect(period('What did they build in the summer of 2023?')).toEqual(['2023-06-01', '2023-09-01']);
    expect(period('Which store did we use in 2023?')).toEqual(['2023-01-01', '2024-01-01']);
  });

  it('reads periods relative to now', () => {
    expect(period('What did we decide last May?')).toEqual(['2026-05-01', '2026-06-01']);
    expect(period('What did we decide last July?')).toEqual(['2025-07-01', '2025-08-01']);
    expect(period('What did we decide last March?')).toEqual(['2026-03-01', '2026-04-01']);
    expect(period('What did we say in April?')).toEqual(['2026-04-01', '2026-05-01']);
    expect(period('What did we say in September?')).toEqual(['2025-09-01', '2025-10-01']);
    expect(period('What happened yesterday?')).toEqual(['2026-06-09', '2026-06-10']);
    expect(period('What broke last week?')).toEqual(['2026-06-01', '2026-06-08']);
    expect(period('What changed last month?')).toEqual(['2026-05-01', '2026-06-01']);
    expect(period('What changed last year?')).toEqual(['2025-01-01', '2026-01-01']);
    expect(period('What did we pick two weeks ago?')).toEqual(['2026-05-25', '2026-06-01']);
    expect(period('What did we pick 3 days ago?')).toEqual(['2026-06-07', '2026-06-08']);
    expect(period('What did we pick a couple of months ago?')).toEqual(['2026-04-01', '2026-05-01']);
    expect(period('Where did she go last summer?')).toEqual(['2025-06-01', '2025-09-01']);
  });

  it('names no period where there is none, nor in the verb "may", nor in an impossible day', () => {
    expect(period('Where does Maya live now?')).toBeUndefined();
    expect(period('this may take a while, which store do we use?')).toBeUndefined();
    expect(period('what changed on 2023-02-30?')).toBeUndefined();
    expect(period('we bought 2023 widgets')).toBeUndefined();
  });

  it('reads whether it asks about the present, the past, or when', () => {
    expect(questionTime('Where does Maya live now?', NOW)).toEqual({ tense: 'current', asksWhen: false });
    expect(questionTime('Which editor does Ravi use these days?', NOW).tense).toBe('current');
    expect(questionTime('What editor did Ravi use before switching to Zed?', NOW).tense).toBe('past');
    expect(questionTime('Where did Maya live back in May 2022?', NOW).tense).toBe('past');
    expect(questionTime('When did Maya move to Denver?', NOW)).toEqual({ asksWhen: true });
    expect(questionTime('On what date did we migrate?', NOW).asksWhen).toBe(true);
    expect(questionTime('Which database does the billing service use?', NOW)).toEqual({ asksWhen: false });
  });
  it('reads "before", "used to", "previous", "earlier" in a question about the present as the present', () => {
    const present = [
      'what do we run before deploy?',
      'which command is used to build the app?',
      'what tool is used to deploy?',
      'what is the previous step in the release checklist?',
      'what must pass prior to merging?',
      'which checks run earlier in the pipeline?',
      'how do we roll back to the previous release?',
      'what should I do at first when onboarding?',
      'what happens before the token expires?',
      'which editor does Ana use until the update ships?',
      'what did Ben pay for lunch?',
      'what did we leave out of the release?',
      'where does Ana work until Friday?',
      'which bug did we leave open for the release?',
      'what did Ben leave for me on the desk?',
      'which tasks did we drop for this sprint?',
      'did Ben wait until the end?',
      'what did we decide about the freeze until the launch?',
    ];
    for (const q of present) expect([q, questionTime(q, NOW).tense]).toEqual([q, undefined]);
    // A word of the present wins over one of the past.
    expect(questionTime('is the former CTO still an admin?', NOW).tense).toBe('current');
    expect(questionTime('which store do we use now, before the cache?', NOW).tense).toBe('current');
  });
  it('reads "before" with nothing after it, a name, a change or a clause in the past, and "used to" + verb', () => {
    const past = [
      'where did Lena work before Globex?',
      'what editor did Ben use before?',
      'which database was the main store on before?',
      'what did we use to store sessions before Redis?',
      'which store before Postgres?',
      'which store before the migration?',
      'which editor before switching to Zed?',
      'where is the office before it moved?',
      'where did Ben used to live?',
      'what was the previous database?',
      'which team previously owned billing?',
      'what did you say earlier?',
      'where was home for Ana until Denver?',
      'what was under the billing service until Postgres?',
      'which hobby did Ben drop for chess?',
      'which company did Ana leave for Helix Labs?',
      'what did Lena give up for pottery?',
    ];
    for (const q of past) expect([q, questionTime(q, NOW).tense]).toEqual([q, 'past']);
  });
  it('reads a question written in capitals as it reads it in lower case', () => {
    const questions = [
      'WHAT HAPPENED ON 2023-05-14?',
      'WHERE WAS SHE ON 14 JUNE 2023?',
      'WHAT DID WE SHIP LAST JUNE?',
      'WHO LED IT IN THE SUMMER OF 2022?',
      'WHAT DID I FIX TWO WEEKS AGO?',
      'WHAT WAS DONE EARLIER THIS MONTH?',
      'WHERE DOES IT RUN PRESENTLY?',
      'WHAT DID THEY USE FORMERLY?',
      'WHICH YEAR DID IT MOVE?',
    ];
    for (const q of questions) {
      const upper = questionTime(q, NOW);
      const lower = questionTime(q.toLowerCase(), NOW);
      expect({ ...upper, period: upper.period?.from }).toEqual({ ...lower, period: lower.period?.from });
      expect(upper.period !== undefined || upper.tense !== undefined || upper.asksWhen).toBe(true);
    }
  });
});

describe('questionRecency: recall recency for the time a question is about', () => {
  const base = { weight: 0.1, days: 90 };
  const plain = (ageDays: number) => 1 - 0.1 * (1 - 0.5 ** (ageDays / 90));
  const at = day('2025-06-10');

  it('is the plain curve from now when the question names no time', () => {
    const r = questionRecency(at, NOW, questionTime('Which database do we use?', NOW), base);
    expect(r.factor).toBe(plain((NOW - at) / 86_400_000));
    expect(r.basis).toBeUndefined();
  });

  it('measures from the end of a named period and demotes what was written after it', () => {
    const asked = questionTime('Where did Maya live in May 2025?', NOW);
    const before = questionRecency(day('2025-04-20'), NOW, asked, base);
    expect(before.factor).toBeCloseTo(plain(42), 12);
    expect(before.basis).toContain('May 2025');
    const after = questionRecency(day('2025-07-01'), NOW, asked, base);
    expect(after.factor).toBe(QUESTION_RECENCY.afterPeriod);
    expect(after.basis).toContain('after');
    expect(after.factor).toBeLessThan(before.factor);
  });

  it('weighs recency more for the present, and not at all for the past or a "when"', () => {
    const now = questionRecency(at, NOW, questionTime('Where does Maya live now?', NOW), base);
    expect(now.factor).toBeLessThan(plain(365));
    const fresh = questionRecency(NOW, NOW, questionTime('Where does Maya live now?', NOW), base);
    expect(fresh.factor).toBe(1);
    expect(questionRecency(at, NOW, questionTime('Where did Maya live before Osaka?', NOW), base).factor).toBe(1);
    expect(questionRecency(at, NOW, questionTime('When did Maya move to Osaka?', NOW), base).factor).toBe(1);
  });
});

describe('questionLife: a superseded memory for a question about the past', () => {
  it('judges supersession at the end of a past period, keeps superseded memories for "before", else as is', () => {
    expect(questionLife(questionTime('Where did Maya live in May 2025?', NOW), NOW)).toEqual({
      asOf: Date.parse('2025-06-01T00:00:00Z'),
      keepSuperseded: false,
    });
    expect(questionLife(questionTime('Where did Maya live before Osaka?', NOW), NOW)).toEqual({ keepSuperseded: true });
    expect(questionLife(questionTime('Where does Maya live now?', NOW), NOW)).toEqual({ keepSuperseded: false });
    expect(questionLife(questionTime('What did we do this month?', NOW), NOW)).toEqual({ keepSuperseded: false });
  });

  it('keeps superseded memories for "when": the turn that said a move stays its answer after a later move', () => {
    expect(questionLife(questionTime('When did Maya move to Osaka?', NOW), NOW)).toEqual({ keepSuperseded: true });
  });
});

describe('withoutTimeWords: the words that only say "now" are not searched for', () => {
  it('drops now, these days, currently; keeps the question when nothing else is left', () => {
    expect(withoutTimeWords("What is Elliot's hobby these days?").replace(/\s+/g, ' ')).toBe(
      "What is Elliot's hobby ?",
    );
    expect(withoutTimeWords('Where does Ana live now?').replace(/\s+/g, ' ')).toBe('Where does Ana live ?');
    expect(withoutTimeWords('the current weather, nowhere')).toBe('the current weather, nowhere');
    expect(withoutTimeWords('now?')).toBe('now?');
    // Not a question of one sentence: a request's words stay.
    const request = 'Find schools. The student is currently in primary school.';
    expect(withoutTimeWords(request)).toBe(request);
  });
});

describe('asksPresentValue / asksValueAsOf: which questions order a speaker’s values newest first (issue 23)', () => {
  const now = Date.parse('2025-06-01T00:00:00Z');
  const present = (q: string) => asksPresentValue(q, questionTime(q, now));
  const asOf = (q: string) => asksValueAsOf(q, questionTime(q, now));
  it('the present, said or put in the present tense; not the past, not "when"', () => {
    expect(present('Where does Lena work now?')).toBe(true);
    expect(present('Which editor does Ben use?')).toBe(true);
    expect(present('Where did Lena work?')).toBe(false);
    expect(present('Which editor was Ben using before Vim?')).toBe(false);
    expect(present('When did Lena start at Globex?')).toBe(false);
  });
  it('a value as of a date, not what held before a change', () => {
    expect(asOf('Where did Lena work in March 2024?')).toBe(true);
    expect(asOf('Where did Lena work before March 2024?')).toBe(false);
    expect(asOf('When did Lena move in 2024?')).toBe(false);
  });
  it('the first value, a wish or a choice is no value held now; "is used to" is the present', () => {
    expect(present('What is the first database we tried?')).toBe(false);
    expect(present('Where does Lena want to work?')).toBe(false);
    expect(present('What database would Raj pick?')).toBe(false);
    expect(present('Which database does Raj pick for the next project?')).toBe(false);
    expect(present('Which command is used to build the app?')).toBe(true);
  });
  it('after, since, until bound a time: no value as of a date; "since 2024" is no period that ended', () => {
    expect(asOf('Where did Lena work after March 2024?')).toBe(false);
    expect(asOf('Where did Lena work until March 2024?')).toBe(false);
    // Only the word right before the date bounds it.
    expect(asOf('Which database did Lena use in March 2025, after the layoffs?')).toBe(true);
    const since = questionTime('Which database do we use in production since 2024?', now);
    expect(since.period).toBeUndefined();
    expect(since.tense).not.toBe('past');
    expect(present('Which database do we use in production since 2024?')).toBe(true);
  });
});
