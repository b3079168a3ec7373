import { describe, expect, it } from 'vitest';
import { skillName } from './skill-name.js';
import { isValidSkillName } from './slug.js';

describe('skillName', () => {
  it('names a rule after what it prefers, not what it rejects', () => {
    const name = skillName("No, don't use snake_case for variable names — we always use camelCase in this repo.");
    expect(name).toContain('camelcase');
    expect(name).not.toContain('snake');
    expect(skillName('Use early returns, not nested if statements')).toBe('early-returns-statements');
    expect(skillName('Use named exports, no default exports in src/db/migrate.ts')).toBe('named-exports');
  });

  it('names a rename after the case it keeps, not the identifier renamed', () => {
    expect(skillName('Changed api_client to apiClient as the user asked')).toBe('camel-case');
    expect(skillName('Renamed userId to user_id as the user asked')).toBe('snake-case');
    expect(skillName("Don't rename user_id to userId")).toBe('snake-case');
    expect(skillName('No, rename max_retries to maxRetries')).toBe('camel-case');
  });

  it('names a habit that maps a name between layers after what it says, not after a case', () => {
    expect(skillName('Keep user_id in the SQL schema and userId in the TypeScript types')).not.toMatch(/case$/);
    expect(skillName('Serialize userId as user_id in the JSON payload')).not.toMatch(/case$/);
  });

  it('leaves out who asked and how often', () => {
    expect(skillName('User wants confirmation before removing files')).toBe('confirmation-removing');
    expect(skillName('Store timestamps in UTC')).toBe('store-timestamps-utc');
  });

  it("leaves out a secret's redaction marker (walk 12)", () => {
    expect(skillName('no, use the staging key [REDACTED:stripe-key] for this, not the prod one')).toBe('staging-key');
  });

  it('is short, valid and the same for the same text', () => {
    const texts = [
      'Reminder: rebasing — rebase feature branches onto main.',
      'We always install dependencies with pnpm here, every single time, across every package of the monorepo',
      "Don't use pnpm",
      '!!!',
    ];
    for (const text of texts) {
      const name = skillName(text);
      expect(isValidSkillName(name)).toBe(true);
      expect(name.length).toBeLessThanOrEqual(40);
      expect(skillName(text)).toBe(name);
    }
    // Nothing nameable: the slug of the whole text, with the given fallback.
    expect(skillName('!!!', 'skill')).toMatch(/^skill-[0-9a-f]{8}$/);
  });
});
