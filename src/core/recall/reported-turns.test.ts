import { describe, expect, it } from 'vitest';
import { reportedTurns } from './reported-turns.js';

const NONE = new Map<string, string>();
/** Greta said Parallax herself; Lucia and Sofia talk. */
const greta = { key: 'g1', speaker: 'Greta', text: 'Our floor at Parallax got new chairs, my back says thank you.' };
const lucia = (key: string, text: string) => ({ key, speaker: 'Lucia', text });

describe('reportedTurns: a speaker’s fact told by another (issue 23)', () => {
  it('reads a third-person turn naming a name the speaker said as theirs, their name taken out', () => {
    const report = lucia('l1', 'Quick gossip: Greta signed with Veritas Freight. Parallax must be gutted.');
    const out = reportedTurns([greta, report], NONE);
    expect([...out.keys()]).toEqual(['l1']);
    expect(out.get('l1')).toEqual({
      about: 'Greta',
      shared: ['parallax'],
      asOwn: 'Quick gossip: signed with Veritas Freight. Parallax must be gutted.',
    });
    // The possessive goes with the name.
    const team = lucia('l2', "Greta's team moved to Veritas Freight, Parallax kept the old office.");
    expect(reportedTurns([greta, team], NONE).get('l2')?.asOwn).toBe(
      'team moved to Veritas Freight, Parallax kept the old office.',
    );
  });

  it('no report without a name the speaker said in a statement of their own, nor without news of them', () => {
    const report = lucia('l1', 'Quick gossip: Greta signed with Veritas Freight.');
    expect(reportedTurns([greta, report], NONE).size).toBe(0);
    const again = lucia('l3', 'Greta would not stop talking about Parallax at dinner.');
    expect(reportedTurns([greta, again], NONE).size).toBe(0);
    // Greta naming Parallax only in a question says nothing of hers.
    const asked = { key: 'g2', speaker: 'Greta', text: 'Is Parallax hiring?' };
    const gossip = lucia('l2', 'Quick gossip: Greta signed with Veritas Freight. Parallax must be gutted.');
    expect(reportedTurns([asked, gossip], NONE).size).toBe(0);
  });

  it('not a question, a turn addressed to the speaker, a reply to them, one in the first or second person', () => {
    const cases = [
      lucia('q', 'Greta, did Veritas Freight really poach you from Parallax?'),
      lucia('a', 'Veritas Freight over Parallax, bold move, Greta.'),
      lucia('i', 'I had lunch with Greta near Parallax, Veritas Freight is next door.'),
      lucia('y', 'Greta you picked Veritas Freight over Parallax?! Wow.'),
      lucia('r', 'Greta signed with Veritas Freight, Parallax must be gutted.'),
    ];
    // 'r' comes right after a turn of Greta's in its session: a reply.
    const out = reportedTurns([greta, ...cases], new Map([['r', 'Greta']]));
    expect([...out.keys()]).toEqual([]);
    // The same turn after someone else's is a report.
    expect([...reportedTurns([greta, ...cases], new Map([['r', 'Sofia']])).keys()]).toEqual(['r']);
  });

  it('not a turn naming two speakers, nor one whose name the teller says of their own', () => {
    const sofia = { key: 's1', speaker: 'Sofia', text: 'Parallax sent me a mug.' };
    const two = lucia('t', 'Greta and Sofia both left Parallax for Veritas Freight.');
    expect(reportedTurns([greta, sofia, two], NONE).has('t')).toBe(false);
    const own = { key: 'l0', speaker: 'Lucia', text: 'Parallax is where my sister works.' };
    const gossip = lucia('l1', 'Greta signed with Veritas Freight. Parallax must be gutted.');
    expect(reportedTurns([greta, own, gossip], NONE).size).toBe(0);
  });
});
