import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliIn } from '../../test/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-input-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, '.git'));

const credence = (...argv: string[]) =>
  cliIn(dir, ['--db', join(dir, 'm.db'), '--now', '2026-05-02T09:00:00Z', ...argv]);

describe('a bad input is named as the user gave it', () => {
  it('names the flag a bad value came from, not the field it fills', async () => {
    const r = await credence('remember', '--title', 'Main store', 'We use Postgres', '--valid-from', 'last May');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--valid-from: must be an ISO date');
    expect(r.stderr).not.toContain('validFrom');
    const category = await credence('remember', '--title', 'T', 'text', '--category', 'Bad Cat!');
    expect(category.stderr).toContain('--category: must be a short lowercase word');
  });

  it("says what a JSON line's field must be in words, not zod's", async () => {
    const file = join(dir, 'turns.jsonl');
    writeFileSync(
      file,
      [
        { speaker: 'Ana', session: 's1', at: '2026-05-01T10:00:00Z', text: 'hello there' },
        { speaker: '', session: 's1', at: '2026-05-01T10:01:00Z', text: 'hi' },
        { speaker: 'Bo', session: 's1', at: '2026-05-01T10:02:00Z', text: 7 },
        { title: 'x', text: 'y', tags: 'a' },
        { title: 'x', text: 'y', colour: 'red' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const r = await credence('remember', '--jsonl', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('line 2: invalid memory: speaker: must not be empty');
    expect(r.stderr).toContain('line 3: invalid memory: text: must be a string, got a number');
    expect(r.stderr).toContain('line 4: invalid memory: tags: must be an array, got a string');
    expect(r.stderr).toContain('line 5: invalid memory: unknown field colour');
    expect(r.stderr).not.toMatch(/Too small|expected string|Invalid input|Unrecognized/);
  });
});

/** The command line on the store `db` of `dir`, its argv as given (no --now added). */
const cli = (db: string, argv: readonly string[], env: NodeJS.ProcessEnv = {}) =>
  cliIn(dir, ['--db', join(dir, db), ...argv], env);
const AT = ['--now', '2026-05-02T09:00:00Z'];

describe('a time ahead of the clock, an empty scope', () => {
  const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => cli('ahead.db', argv, env);

  it('refuses a --now or CREDENCE_NOW years ahead, before evolve prunes anything', async () => {
    const at = '2026-05-02T09:00:00Z';
    for (let i = 0; i < 3; i += 1)
      expect((await run(['--now', at, 'observe', '--type', 'pattern', '--observation', `habit ${i}`])).code).toBe(0);
    const ahead = await run(['--now', '2062-11-27T00:00:00Z', 'evolve']);
    expect(ahead.code).toBe(2);
    expect(ahead.stderr).toContain("--now 2062-11-27T00:00:00Z is after this machine's clock");
    const byEnv = await run(['evolve'], { CREDENCE_NOW: '2062-11-27T00:00:00Z' });
    expect(byEnv.code).toBe(2);
    expect(byEnv.stderr).toContain('CREDENCE_NOW 2062-11-27T00:00:00Z is after');
    const status = await run(['--now', at, 'status', '--json']);
    expect(JSON.parse(status.stdout).counts.observations).toBe(3);
  });

  // Walk 4 (item 4): record and observe stored times years ahead, so what they taught never decayed until then.
  it('refuses a run, a call or an observation dated ahead of the clock, naming the line and field', async () => {
    const future = (argv: string[]) => cli('future.db', argv);
    const runs = join(dir, 'ahead-runs.jsonl');
    const ahead = Date.parse('2062-11-27T00:00:00Z');
    const call = (tool: string, extra = {}) => ({ tool, status: 'success', ...extra });
    writeFileSync(
      runs,
      [
        { intent: 'on time', startedAt: '2026-05-01T09:00:00Z', calls: [call('fa'), call('fb', { consumes: [0] })] },
        { intent: 'started ahead', startedAt: '2062-11-27T00:00:00Z', calls: [call('ga')] },
        { intent: 'a call ahead', calls: [call('ha'), call('hb', { consumes: [0], at: ahead })] },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const recorded = await future(['record', '--jsonl', runs, ...AT]);
    expect(recorded.code).toBe(1);
    const clock = /after the clock --now sets \(2026-05-02T09:00:00\.000Z\)/.source;
    expect(recorded.stderr).toMatch(
      new RegExp(`line 2: invalid execution: startedAt: 2062-11-27T00:00:00Z is ${clock}`),
    );
    expect(recorded.stderr).toMatch(
      new RegExp(`line 3: invalid execution: calls\\[1\\]\\.at: ${ahead} \\(2062-11-27T00:00:00.000Z\\) is ${clock}`),
    );
    const stored = JSON.parse((await future(['runs', '--json', ...AT])).stdout) as { intent: string }[];
    expect(stored.map((r) => r.intent)).toEqual(['on time']);
    const edges = JSON.parse((await future(['edges', '--json', ...AT])).stdout) as { from: string }[];
    expect([...new Set(edges.map((e) => e.from))]).toEqual(['fa']);

    const observed = await future([
      'observe',
      '--type',
      'pattern',
      '--observation',
      'late',
      '--at',
      '2062-11-27',
      ...AT,
    ]);
    expect(observed.code).toBe(2);
    expect(observed.stderr).toMatch(new RegExp(`--at 2062-11-27 is ${clock}`));
    const lines = join(dir, 'ahead-observations.jsonl');
    writeFileSync(
      lines,
      [
        { type: 'pattern', observation: 'from the future', timestamp: '2062-11-27T00:00:00Z' },
        { type: 'pattern', observation: 'from today' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const imported = await future(['import', lines, ...AT]);
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(
      new RegExp(`line 1: invalid observation: timestamp: 2062-11-27T00:00:00Z is ${clock}`),
    );
    const exported = (await future(['export', ...AT])).stdout.trim().split('\n');
    expect(exported.map((l) => (JSON.parse(l) as { observation: string }).observation)).toEqual(['from today']);
  });

  it('refuses an empty or blank --scope instead of using the default scope', async () => {
    for (const scope of ['', '   ']) {
      const r = await run(['--scope', scope, 'status']);
      expect([scope, r.code]).toEqual([scope, 2]);
      expect(r.stderr).toContain('--scope is empty');
    }
  });
});

describe('a memory given by its file', () => {
  it('takes the memory text limit and text only: a long or binary file is refused, nothing stored', async () => {
    const run = (...argv: string[]) => cli('files.db', [...AT, ...argv]);
    writeFileSync(join(dir, 'long.md'), 'word '.repeat(20_001));
    writeFileSync(join(dir, 'blob.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x10, 0x00, 0x41]));
    writeFileSync(join(dir, 'latin1.txt'), Buffer.from('caf\xe9 au lait', 'latin1'));
    writeFileSync(join(dir, 'nul.txt'), 'a\u0000b');
    writeFileSync(join(dir, 'notes.md'), 'The deploy target is eu-west-1.');
    writeFileSync(join(dir, 'replacement.md'), 'A decoder writes \ufffd for a byte it cannot read.');
    const long = await run('remember', '--title', 'Long', '--path', 'long.md');
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('the text of long.md is 100005 characters long; the limit is 100000');
    for (const [file, why] of [
      ['blob.bin', 'is not UTF-8 text'],
      ['latin1.txt', 'is not UTF-8 text'],
      ['nul.txt', 'nul.txt is not a text file (it holds NUL bytes'],
    ]) {
      const r = await run('remember', '--title', 'Bytes', '--path', file as string);
      expect([file, r.code]).toEqual([file, 2]);
      expect(r.stderr).toContain(why);
    }
    expect((await run('remember', '--title', 'Deploy', '--path', 'notes.md')).code).toBe(0);
    // A UTF-8 file holding U+FFFD itself is text.
    expect((await run('remember', '--title', 'Decoders', '--path', 'replacement.md')).code).toBe(0);
    expect(JSON.parse((await run('status', '--json')).stdout).counts.memories).toBe(2);
  });
});

// Walk 15, item 10: blank memories were stored.
describe('a blank memory', () => {
  const run = (...argv: string[]) => cli('walk15.db', [...AT, ...argv]);
  const count = async () => JSON.parse((await run('status', '--json')).stdout).counts.memories as number;

  it('refuses blank text, inline or in a file, and stores nothing', async () => {
    for (const text of ['   ', '\u200b']) {
      const r = await run('remember', '--title', 'Blank', text);
      expect([text, r.code]).toEqual([text, 2]);
      expect(r.stderr).toContain('invalid memory: text: must not be blank');
    }
    writeFileSync(join(dir, 'blank.md'), ' \n\u200b\t\n');
    const file = await run('remember', '--title', 'Blank', '--path', 'blank.md');
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('blank.md is blank (nothing in it shows)');
    expect(await count()).toBe(0);
  });

  it('rejects an empty turn of a --jsonl file by its line and remembers the others', async () => {
    const file = join(dir, 'blank-turns.jsonl');
    writeFileSync(
      file,
      [
        { speaker: 'Cara', session: 's9', at: '2026-03-03T10:00:00Z', text: '' },
        { speaker: 'Cara', session: 's9', at: '2026-03-04T10:00:00Z', text: 'I use Vim.' },
        { title: 'Spaces', text: ' \u200b ' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const r = await run('remember', '--jsonl', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('line 1: invalid memory: text: must not be blank');
    expect(r.stderr).toContain('line 3: invalid memory: text: must not be blank');
    expect(r.stdout).toContain('remembered 1 memory, 2 line(s) rejected');
    expect(await count()).toBe(1);
  });
});

// Review F, item 10: under --now, record judged a time by the machine's clock and remember by --now's, and remember's
// refusal called the --now value "this machine's clock".
describe('record, observe, import and remember judge a time by one clock, and name it', () => {
  it('under a --now in the past, a date after it is refused by each, naming --now; without, the machine', async () => {
    const past = ['--now', '2025-06-01T00:00:00Z'];
    const run = (...argv: string[]) => cli('review-f10.db', [...past, ...argv]);
    const said = /2026-01-01T00:00:00Z is after the clock --now sets \(2025-06-01T00:00:00\.000Z\)/;
    const runs = join(dir, 'review-f10-runs.jsonl');
    writeFileSync(
      runs,
      JSON.stringify({
        intent: 'replayed',
        startedAt: '2026-01-01T00:00:00Z',
        calls: [{ tool: 'a', status: 'success' }],
      }),
    );
    const recorded = await run('record', '--jsonl', runs);
    expect(recorded.code).toBe(1);
    expect(recorded.stderr).toMatch(said);
    const observed = await run('observe', '--type', 'pattern', '--observation', 'x', '--at', '2026-01-01T00:00:00Z');
    expect(observed.code).toBe(2);
    expect(observed.stderr).toMatch(said);
    const lines = join(dir, 'review-f10-observations.jsonl');
    writeFileSync(lines, JSON.stringify({ type: 'pattern', observation: 'x', timestamp: '2026-01-01T00:00:00Z' }));
    const imported = await run('import', lines);
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(said);
    const remembered = await run('remember', '--title', 'X', '--valid-from', '2026-01-01T00:00:00Z', 'We use Postgres');
    expect(remembered.code).toBe(2);
    expect(remembered.stderr).toMatch(said);
    expect(remembered.stderr).not.toContain("machine's clock");
    // Without --now the clock is the machine's, and said so.
    const machine = await cli('review-f10.db', [
      'remember',
      '--title',
      'X',
      '--valid-from',
      '2062-01-01',
      'We use Postgres',
    ]);
    expect(machine.stderr).toMatch(/2062-01-01 is after this machine's clock/);
  });
});

// Walk 15, item 11: turns dated years ahead and windows that end before they start were stored.
describe('a memory dated ahead of the clock, a window that ends before it starts', () => {
  const run = (...argv: string[]) => cli('walk15-times.db', [...AT, ...argv]);
  const clock = /after the clock --now sets \(2026-05-02T09:00:00\.000Z\)/.source;
  const count = async () => JSON.parse((await run('status', '--json')).stdout).counts.memories as number;

  it('refuses --valid-from ahead of the clock, naming the flag', async () => {
    expect((await run('remember', '--valid-from', '2026-03-01', '--title', 'Main store', 'We use MySQL.')).code).toBe(
      0,
    );
    const r = await run('remember', '--valid-from', '2062-01-01', '--title', 'Main store', 'We use CockroachDB.');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`--valid-from: 2062-01-01 is ${clock}`));
    expect(await count()).toBe(1);
  });

  it('rejects each bad line of a --jsonl file by its number and remembers the others', async () => {
    const file = join(dir, 'walk15-times.jsonl');
    writeFileSync(
      file,
      [
        { speaker: 'Cara', session: 's9', at: '2062-01-01T00:00:00Z', text: 'A turn from the future.' },
        { speaker: 'Cara', session: 's9', at: '2026-03-04T10:00:00Z', text: 'I use Vim.' },
        { title: 'Queue', text: 'Jobs go through RabbitMQ.', validFrom: '2026-05-01', validTo: '2026-01-01' },
        { title: 'Bus', text: 'Events go through Kafka.', validFrom: '2025-05-01', validTo: '2062-01-01' },
        { title: 'Cache', text: 'We cache in Redis.', validFrom: '2025-02-01', validTo: '2025-09-01' },
        { speaker: 'Cara', session: 's9', at: '2026-03-05T10:00:00Z', text: 'Bye.', validTo: '2026-03-01' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const r = await run('remember', '--jsonl', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`line 1: invalid memory: at: 2062-01-01T00:00:00Z is ${clock}`));
    expect(r.stderr).toContain('line 3: invalid memory: validTo: "2026-01-01" is before validFrom "2026-05-01"');
    expect(r.stderr).toMatch(new RegExp(`line 4: invalid memory: validTo: 2062-01-01 is ${clock}`));
    expect(r.stderr).toContain('line 6: invalid memory: validTo: "2026-03-01" is before at "2026-03-05T10:00:00Z"');
    expect(r.stdout).toContain('remembered 2 memories, 4 line(s) rejected');
    expect(await count()).toBe(3);
  });
});

describe('a file read as UTF-8 text', () => {
  const run = (...argv: string[]) => cli('text.db', [...AT, ...argv]);

  it('refuses Latin-1 and UTF-16 naming what they are, and changes nothing stored', async () => {
    expect((await run('remember', '--title', 'Kept', 'A memory stored before.')).code).toBe(0);
    const line = (text: string) => `${JSON.stringify({ title: 'Cafe', text })}\n`;
    writeFileSync(
      join(dir, 'l1.jsonl'),
      Buffer.concat([Buffer.from(line('ok')), Buffer.from(line('caf\xe9'), 'latin1')]),
    );
    const latin1 = await run('remember', '--jsonl', join(dir, 'l1.jsonl'));
    expect(latin1.code).toBe(2);
    expect(latin1.stderr).toContain('l1.jsonl is not UTF-8 text (line 2 holds bytes that are not UTF-8');
    writeFileSync(join(dir, 'u16.jsonl'), Buffer.from(`\ufeff${line('hello')}`, 'utf16le'));
    const utf16 = await run('remember', '--jsonl', join(dir, 'u16.jsonl'));
    expect(utf16.code).toBe(2);
    expect(utf16.stderr).toContain('u16.jsonl is UTF-16 text: save it as UTF-8');
    writeFileSync(join(dir, 'u16raw.jsonl'), Buffer.from(line('hello'), 'utf16le'));
    expect((await run('remember', '--jsonl', join(dir, 'u16raw.jsonl'))).stderr).toContain(
      'u16raw.jsonl holds NUL bytes (UTF-16 text without a byte order mark?)',
    );
    // A U+FFFD written in UTF-8 on line 1 is text: the Latin-1 byte of line 3 is named.
    writeFileSync(
      join(dir, 'mixed.jsonl'),
      Buffer.concat([Buffer.from(line('a \ufffd b') + line('ok')), Buffer.from(line('caf\xe9'), 'latin1')]),
    );
    expect((await run('remember', '--jsonl', join(dir, 'mixed.jsonl'))).stderr).toContain(
      'mixed.jsonl is not UTF-8 text (line 3 holds',
    );
    expect(JSON.parse((await run('status', '--json')).stdout).counts.memories).toBe(1);
  });

  it('drops a byte order mark from a JSON file as from JSON lines', async () => {
    const dag = { tasks: [{ id: 'a', tool: 'read_file' }] };
    writeFileSync(join(dir, 'bom.json'), `\ufeff${JSON.stringify(dag)}`);
    const r = await run('dag', '--validate', join(dir, 'bom.json'));
    expect(r.stderr).not.toContain('is not JSON');
  });

  it('shows the first 20 bad lines and counts the rest in one line', async () => {
    writeFileSync(join(dir, 'bad.jsonl'), '{"title": 1}\n'.repeat(30));
    const r = await run('remember', '--jsonl', join(dir, 'bad.jsonl'));
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('credence: line ')).length).toBe(20);
    expect(r.stderr).toContain('… and 10 more lines with a problem (the first 20 are shown)');
  });
});

// Walk 4 (item 11b): `runs --limit -1` said "must be a whole number ≥ 0", and 0 was refused too.
describe('runs --limit', () => {
  it('says it takes a whole number ≥ 1, for -1 as for 0, and lists runs for 1', async () => {
    for (const value of ['-1', '0', '1.5', 'ten']) {
      const r = await credence('runs', '--limit', value);
      expect([value, r.code]).toEqual([value, 2]);
      expect(r.stderr).toContain(`--limit must be a whole number ≥ 1, got ${JSON.stringify(value)}`);
      expect(r.stderr).not.toContain('≥ 0');
    }
    expect((await credence('runs', '--limit', '1')).code).toBe(0);
  });
});

describe('an error line that repeats a bad value repeats it scrubbed (walk 10, item 8)', () => {
  // Assembled at run time: the repository holds no secret-shaped literal.
  const pw = 'ErrAt' + 'Tok99zz';
  const key = 'sk' + '_live_' + '51ErrAtKeyAb3Cd5Ef7Gh9Ij1';

  it('remember --jsonl, recall --as-of and observe --at name the value without the secret in it', async () => {
    const file = join(dir, 'bad-secret.jsonl');
    writeFileSync(
      file,
      [
        { speaker: 'ana', session: 's1', at: `token=${pw}`, text: 'hi' },
        { title: 't', text: 'x', category: `DB_PASSWORD=${pw}` },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const remembered = await credence('remember', '--jsonl', file);
    expect(remembered.stderr).toContain('got "token=[REDACTED:credential]"');
    expect(remembered.stderr).toContain('got "DB_PASSWORD=[REDACTED:credential]"');
    const recalled = await credence('recall', 'x', '--as-of', `password=${pw}`);
    expect(recalled.stderr).toContain(
      '--as-of must be an ISO date like 2026-05-01, got "password=[REDACTED:credential]"',
    );
    const observed = await credence('observe', '--type', 'error', '--observation', 'x', '--at', key);
    expect(observed.stderr).toContain('got "[REDACTED:stripe-key]"');
    for (const r of [remembered, recalled, observed]) {
      expect(r.code).not.toBe(0);
      expect(r.stderr).not.toContain(pw);
      expect(r.stderr).not.toContain(key);
    }
  });
});
