/**
 * Where a page of the ballot range goes on after the last item it read (lib/store/ballots/keys.ts
 * `resumeAfter`): from the next user's ballot after a ballot key or that key with a `#` tail, right
 * after the key itself for any other key, so a key a writer chose never moves the next page forward
 * past real ballots or back to what was read.
 */
import { describe, expect, it } from 'vitest';
import { ballotKeys } from '#lib/store/ballots/keys';
import { MAX_KEY_ID } from '#lib/store/db/keys';

const sk = (userId: number) => ballotKeys.ballot(1, userId).SK;

describe('resuming a page of the ballot range', () => {
  it('after a ballot: the next user', () => {
    expect(ballotKeys.resumeAfter(sk(100_000_000_123))).toEqual({ fromUserId: 100_000_000_124 });
    expect(ballotKeys.resumeAfter(sk(7))).toEqual({ fromUserId: 8 });
  });

  it('after a ballot key with a tail (numeric or not): the next user, not the number in the tail', () => {
    expect(ballotKeys.resumeAfter(`${sk(100_000_000_123)}#9000000000000000`)).toEqual({ fromUserId: 100_000_000_124 });
    expect(ballotKeys.resumeAfter(`${sk(100_000_000_123)}#x`)).toEqual({ fromUserId: 100_000_000_124 });
  });

  it.each([
    ['a user segment that is no padded id', 'BALLOT#7'],
    ['digits with text after them', `${sk(100_000_000_123)}x`],
    ['no digits at all', 'BALLOT#x'],
    ['the largest id (its next user is past the range)', sk(MAX_KEY_ID)],
  ])('after %s: right after the key itself', (_, key) => {
    expect(ballotKeys.resumeAfter(key)).toEqual({ afterSk: key });
  });
});
