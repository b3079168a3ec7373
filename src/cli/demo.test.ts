import { describe, expect, it } from 'vitest';
import { DEMO_SCOPE } from '../engine/demo/demo.js';
import { calibrationHint, dashboardHint } from './demo.js';

describe('dashboardHint', () => {
  it('names a SQLite store by --db and its path', () => {
    expect(dashboardHint({ kind: 'sqlite', location: '/home/me/.credence/credence.db', scope: DEMO_SCOPE })).toBe(
      'See it in the dashboard: npx credence demo --db "/home/me/.credence/credence.db" ' +
        '(running it again adds nothing)',
    );
  });

  it('names a PostgreSQL store given by flag with --database-url, never --db, and says where the password goes', () => {
    const hint = dashboardHint({
      kind: 'postgres',
      location: 'postgres://team:***@db.example:5432/credence',
      scope: DEMO_SCOPE,
      urlFrom: 'flag',
    });
    expect(hint).toBe(
      'See it in the dashboard: npx credence demo --database-url "postgres://team:***@db.example:5432/credence", ' +
        'with your password in place of *** (running it again adds nothing)',
    );
    expect(hint).not.toContain('--db ');
  });

  it('on a PostgreSQL store from CREDENCE_DATABASE_URL, names no flag at all', () => {
    const hint = dashboardHint({
      kind: 'postgres',
      location: 'postgres://team:***@db.example/credence',
      scope: 'mine',
      urlFrom: 'env',
    });
    expect(hint).toBe(
      'See it in the dashboard: npx credence demo --scope "mine", ' +
        'with CREDENCE_DATABASE_URL set as now (running it again adds nothing)',
    );
  });
});

describe('calibrationHint', () => {
  it('names the store and always the scope, which calibration would otherwise take from the working directory', () => {
    expect(calibrationHint({ kind: 'sqlite', location: '/home/me/.credence/credence.db', scope: DEMO_SCOPE })).toBe(
      'Check how sure it was against what happened: ' +
        `npx credence calibration --db "/home/me/.credence/credence.db" --scope "${DEMO_SCOPE}"`,
    );
    const team = { kind: 'postgres' as const, location: 'postgres://team:***@db/credence', scope: 'mine' };
    expect(calibrationHint({ ...team, urlFrom: 'env' })).toBe(
      'Check how sure it was against what happened: npx credence calibration --scope "mine"',
    );
    expect(calibrationHint({ ...team, urlFrom: 'flag' })).toContain('--database-url "postgres://team:***@db/credence"');
  });
});
