/**
 * The request hash behind `Idempotency-Key` (lib/votes/idempotency.ts): a resent round replays, any
 * other round under the same key is a 409. So the hash must change with every field that changes the
 * round (idea, opinion, order), and only with those.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundHash } from '#lib/votes/idempotency';
import { validateVoteRoundBody } from './helpers';

describe('roundHash', () => {
  it('differs when only the opinion differs', () => {
    expect(roundHash([{ ideaId: 1, opinion: 'yes' }])).not.toBe(roundHash([{ ideaId: 1, opinion: 'no' }]));
  });

  it('differs when only an idea or the order differs', () => {
    const a = [{ ideaId: 1, opinion: 'yes' }, { ideaId: 2, opinion: 'yes' }];
    expect(roundHash(a)).not.toBe(roundHash([{ ideaId: 1, opinion: 'yes' }, { ideaId: 3, opinion: 'yes' }]));
    expect(roundHash(a)).not.toBe(roundHash([...a].reverse()));
  });

  it('is the same for the same round as validated (a defaulted opinion is `yes`, unknown keys dropped)', () => {
    expect(roundHash(validateVoteRoundBody({ ideaId: 1 }))).toBe(roundHash(validateVoteRoundBody([{ ideaId: 1, opinion: 'yes', extra: 1 }])));
  });

  it('two rounds have one hash exactly when they are the same round', () => {
    const entry = fc.record({ ideaId: fc.integer({ min: 1, max: 5 }), opinion: fc.constantFrom('yes', 'no', 'abstain') });
    const round = fc.array(entry, { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(round, round, (a, b) => (roundHash(a) === roundHash(b)) === (JSON.stringify(a) === JSON.stringify(b))),
      { numRuns: 500 },
    );
  });
});
