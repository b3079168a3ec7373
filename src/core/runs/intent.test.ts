import { describe, expect, it } from 'vitest';
import { isCredenceError } from '../errors.js';
import { INTENT_DESCRIPTIONS, NODE_INTENT_MAP, deriveIntent, isIntent, matchIntent } from './intent.js';
import { INTENTS } from '../types.js';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('intent taxonomy', () => {
  it('describes every intent of the taxonomy in one non-empty line', () => {
    expect(Object.keys(INTENT_DESCRIPTIONS).sort()).toEqual([...INTENTS].sort());
    for (const description of Object.values(INTENT_DESCRIPTIONS)) {
      expect(description.trim().length).toBeGreaterThan(0);
      expect(description).not.toContain('\n');
    }
  });

  it('lists the node-name globs in the order of SPEC §7', () => {
    expect(NODE_INTENT_MAP.map((entry) => `${entry.pattern}->${entry.intent}`)).toEqual([
      '*search*->research',
      '*research*->research',
      '*implement*->implementation',
      '*code*->implementation',
      '*write*->implementation',
      '*test*->testing',
      '*verify*->testing',
      '*debug*->debugging',
      '*fix*->debugging',
      '*doc*->documentation',
      '*readme*->documentation',
    ]);
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(NODE_INTENT_MAP)).toBe(true);
    expect(NODE_INTENT_MAP.every((entry) => Object.isFrozen(entry))).toBe(true);
    expect(Object.isFrozen(INTENT_DESCRIPTIONS)).toBe(true);
  });

  it('recognises exactly the taxonomy as intents', () => {
    for (const intent of INTENTS) expect(isIntent(intent)).toBe(true);
    expect(isIntent('Research')).toBe(false);
    expect(isIntent('planning')).toBe(false);
    expect(isIntent(3)).toBe(false);
  });
});

describe('matchIntent', () => {
  it.each([
    ['webSearch', 'research'],
    ['ResearchTopic', 'research'],
    ['implementFeature', 'implementation'],
    ['generate_code', 'implementation'],
    ['writeFile', 'implementation'],
    ['runTests', 'testing'],
    ['verifyOutput', 'testing'],
    ['debugCrash', 'debugging'],
    ['fixBug', 'debugging'],
    ['updateDocs', 'documentation'],
    ['README', 'documentation'],
  ] as const)('maps %s to %s', (name, intent) => {
    expect(matchIntent(name)).toBe(intent);
  });

  it('returns undefined when no glob matches', () => {
    expect(matchIntent('summarise')).toBeUndefined();
    expect(matchIntent('')).toBeUndefined();
  });

  it('matches names that contain regex-special characters as plain text', () => {
    expect(matchIntent('a.b(c)[d]+')).toBeUndefined();
    expect(matchIntent('fix.*')).toBe('debugging');
  });

  it('matches across line breaks in longer hint text', () => {
    expect(matchIntent('first line\nthen we debug it')).toBe('debugging');
  });
});

describe('deriveIntent', () => {
  it('maps known node-name patterns to their intent by the name rule', () => {
    expect(deriveIntent('SearchNode')).toEqual({ intent: 'research', rule: 'name' });
    expect(deriveIntent('CodeWriter')).toEqual({ intent: 'implementation', rule: 'name' });
    expect(deriveIntent('VerifyNode')).toEqual({ intent: 'testing', rule: 'name' });
    expect(deriveIntent('FixNode')).toEqual({ intent: 'debugging', rule: 'name' });
    expect(deriveIntent('DocNode')).toEqual({ intent: 'documentation', rule: 'name' });
  });

  it('falls back to general for an unknown name with no hints', () => {
    expect(deriveIntent('SummariseNode')).toEqual({ intent: 'general', rule: 'default' });
    expect(deriveIntent(undefined)).toEqual({ intent: 'general', rule: 'default' });
    expect(deriveIntent(undefined, {})).toEqual({ intent: 'general', rule: 'default' });
  });

  it('lets an explicit config intent override the name', () => {
    expect(deriveIntent('TestRunner', { intent: 'documentation' })).toEqual({
      intent: 'documentation',
      rule: 'explicit',
    });
    expect(deriveIntent('TestRunner', { intent: 'general' })).toEqual({ intent: 'general', rule: 'explicit' });
  });

  it('accepts an explicit intent written in another case or with spaces around it', () => {
    expect(deriveIntent('x', { intent: '  Debugging ' })).toEqual({ intent: 'debugging', rule: 'explicit' });
  });

  it('rejects an explicit intent outside the taxonomy with INVALID_INPUT, naming it and the valid ones', () => {
    const error = thrown(() => deriveIntent('TestRunner', { intent: 'planning' }));
    expect(isCredenceError(error, 'INVALID_INPUT')).toBe(true);
    if (!isCredenceError(error)) return;
    expect(error.details).toEqual({ intent: 'planning', valid: [...INTENTS] });
  });

  it('ignores case in node names', () => {
    for (const name of ['websearch', 'WEBSEARCH', 'WebSearch', 'wEbSeArCh']) {
      expect(deriveIntent(name).intent).toBe('research');
    }
  });

  it('takes the first glob in order when a name matches several', () => {
    expect(deriveIntent('researchAndWriteNode').intent).toBe('research');
    expect(deriveIntent('testFixer').intent).toBe('testing');
    expect(deriveIntent('writeTests').intent).toBe('implementation');
    expect(deriveIntent('fixDocs').intent).toBe('debugging');
  });

  it('uses the description as a hint when the name says nothing', () => {
    expect(deriveIntent('StepThree', { description: 'Runs the unit tests' })).toEqual({
      intent: 'testing',
      rule: 'hint',
    });
  });

  it('uses the tags in order when neither the name nor the description says anything', () => {
    expect(deriveIntent('StepThree', { description: 'third step', tags: ['misc', 'docs', 'bugfix'] })).toEqual({
      intent: 'documentation',
      rule: 'hint',
    });
  });

  it('prefers the description over the tags', () => {
    expect(deriveIntent('Step', { description: 'debug the parser', tags: ['search'] })).toEqual({
      intent: 'debugging',
      rule: 'hint',
    });
  });

  it('prefers the name over the hints', () => {
    expect(deriveIntent('SearchNode', { description: 'debug the parser' })).toEqual({
      intent: 'research',
      rule: 'name',
    });
  });

  it('falls back to general when no hint matches either', () => {
    expect(deriveIntent('Step', { description: 'third step', tags: ['misc'] })).toEqual({
      intent: 'general',
      rule: 'default',
    });
  });

  it('does not modify the config it is given', () => {
    const config = Object.freeze({ description: 'Runs tests', tags: Object.freeze(['a']) });
    expect(deriveIntent('Step', config).intent).toBe('testing');
  });
});

describe('deriveIntent refusing an intent that holds a secret (walk 10, item 8)', () => {
  it('names the intent scrubbed, in the message and in the details', () => {
    const key = 'sk' + '_live_' + '51Fl0wIntentKeyAb3Cd5Ef7';
    let caught: unknown;
    try {
      deriveIntent('fetch', { intent: `sync with ${key}` });
    } catch (error) {
      caught = error;
    }
    expect(isCredenceError(caught, 'INVALID_INPUT')).toBe(true);
    const error = caught as Error & { details?: Record<string, unknown> };
    expect(error.message).toContain('unknown intent "sync with [REDACTED:stripe-key]"');
    expect(JSON.stringify(error.details)).not.toContain(key);
    expect(error.details?.intent).toBe('sync with [REDACTED:stripe-key]');
  });
});
