/**
 * Vote ids of both kinds of voter: users of the retired counter (ids below 10^9) and users with drawn
 * ids (12 digits). Each kind has its own part of the permutation's inputs; an id made for one user is
 * read back as that user and no other, and the ids made before drawn user ids existed are unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { purposeKey } from '#lib/crypto/derive-key';
import { PERMUTATION_SIZE, permute } from '#lib/crypto/keyed-permutation';
import { COUNTER_IDS_BELOW, DRAWN_USER_IDS, FIRST_DRAWN_USER_ID, userIdSource } from '#lib/store/db/ids';
import { FIRST_COUNTERLESS_VOTE_ID, INPUT_LAYOUTS, nextVoteIds, voteIdOf, voterOfVoteId, votesPerUser } from '#lib/votes/ids';

const LAST_COUNTER_USER = COUNTER_IDS_BELOW - 1;
const LAST_DRAWN_USER = FIRST_DRAWN_USER_ID + DRAWN_USER_IDS - 1;
const counterUser = fc.integer({ min: 1, max: LAST_COUNTER_USER });
const drawnUser = fc.integer({ min: FIRST_DRAWN_USER_ID, max: LAST_DRAWN_USER });
const anyUser = fc.oneof(counterUser, drawnUser, fc.constantFrom(1, LAST_COUNTER_USER, FIRST_DRAWN_USER_ID, LAST_DRAWN_USER));
const voteOf = (user: number) => fc.integer({ min: 1, max: votesPerUser(user) - 1 });
const userAndVote = anyUser.chain((user) => fc.tuple(fc.constant(user), voteOf(user)));

describe('vote ids of counter users and of drawn users', () => {
  it('the two input layouts are disjoint, in order, and fill no more than the permutation', () => {
    const [counter, drawn] = INPUT_LAYOUTS;
    expect(counter!.from + counter!.users * counter!.votesPerUser).toBeLessThanOrEqual(drawn!.from);
    expect(drawn!.from + drawn!.users * drawn!.votesPerUser).toBeLessThanOrEqual(PERMUTATION_SIZE);
    // The drawn users' layout has room for every user id a draw can give, and no more.
    expect(drawn!.firstUserId).toBe(FIRST_DRAWN_USER_ID);
    expect(drawn!.users).toBe(DRAWN_USER_IDS);
    for (let i = 0; i < 1000; i++) expect(votesPerUser(userIdSource.next())).toBe(2 ** 14);
  });

  it('any user, any vote: the id is a safe integer above the retired counter and reads back as its user', () => {
    fc.assert(
      fc.property(userAndVote, ([user, n]) => {
        const id = voteIdOf(user, n);
        expect(Number.isSafeInteger(id)).toBe(true);
        expect(id).toBeGreaterThanOrEqual(FIRST_COUNTERLESS_VOTE_ID);
        expect(voterOfVoteId(id)).toBe(user);
      }),
      { seed: 2052, numRuns: 400 },
    );
  });

  it('two different (user, vote) pairs never give one id, across the layouts and at their edges', () => {
    const edges: [number, number][] = [
      [1, 1],
      [LAST_COUNTER_USER, 1],
      [LAST_COUNTER_USER, 2 ** 20 - 1],
      [FIRST_DRAWN_USER_ID, 1],
      [FIRST_DRAWN_USER_ID, 2 ** 14 - 1],
      [LAST_DRAWN_USER, 1],
      [LAST_DRAWN_USER, 2 ** 14 - 1],
    ];
    const edgeIds = edges.map(([u, n]) => voteIdOf(u, n));
    expect(new Set(edgeIds).size).toBe(edges.length);
    edges.forEach(([u], i) => expect(voterOfVoteId(edgeIds[i]!)).toBe(u));
    fc.assert(
      fc.property(userAndVote, userAndVote, ([a, na], [b, nb]) => {
        if (a !== b || na !== nb) expect(voteIdOf(a, na)).not.toBe(voteIdOf(b, nb));
      }),
      { seed: 1450, numRuns: 400 },
    );
  });

  it('ids made before drawn user ids are unchanged: a stored vote id still reads back as its user', () => {
    // Made by the one-layout scheme (10^12 + P(userId * 2^20 + n)) under the unit tests' server key.
    expect(voteIdOf(42, 3)).toBe(1_413_911_142_897_054);
    expect(voteIdOf(999_999_999, 2 ** 20 - 1)).toBe(1_604_005_796_155_206);
    expect(voteIdOf(1, 1)).toBe(4_109_797_168_847_990);
    expect(voterOfVoteId(1_413_911_142_897_054)).toBe(42);
    expect(voterOfVoteId(1_604_005_796_155_206)).toBe(999_999_999);
  });

  it('each kind of user has its own cap: 2^20 - 1 votes with a counter id, 2^14 - 1 with a drawn id; a user id no layout holds gets none', () => {
    expect(votesPerUser(7)).toBe(2 ** 20);
    expect(votesPerUser(FIRST_DRAWN_USER_ID + 5)).toBe(2 ** 14);
    for (const user of [0, -1, COUNTER_IDS_BELOW, FIRST_DRAWN_USER_ID - 1, LAST_DRAWN_USER + 1, 1.5]) {
      expect(votesPerUser(user)).toBe(0);
      expect(() => nextVoteIds(user, 0, 1)).toThrow(/beyond the range/);
      expect(() => voteIdOf(user, 1)).toThrow(RangeError);
    }
    for (const user of [7, FIRST_DRAWN_USER_ID + 5]) {
      const cap = votesPerUser(user);
      expect(nextVoteIds(user, cap - 3, 2)).toEqual({ ids: [voteIdOf(user, cap - 2), voteIdOf(user, cap - 1)], seq: cap - 1 });
      expect(() => nextVoteIds(user, cap - 2, 2)).toThrow(/the most votes/);
      expect(() => nextVoteIds(user, cap - 1, 1)).toThrow(/the most votes/);
      expect(() => voteIdOf(user, cap)).toThrow(RangeError);
      expect(() => voteIdOf(user, 0)).toThrow(RangeError);
    }
    expect(nextVoteIds(FIRST_DRAWN_USER_ID, undefined, 3)).toEqual({ ids: [1, 2, 3].map((n) => voteIdOf(FIRST_DRAWN_USER_ID, n)), seq: 3 });
  });

  it('an id this scheme did not make reads as nobody', () => {
    for (const id of [0, 1, FIRST_COUNTERLESS_VOTE_ID - 1, FIRST_COUNTERLESS_VOTE_ID + PERMUTATION_SIZE, Number.MAX_SAFE_INTEGER, 1.5, Number.NaN]) {
      expect(voterOfVoteId(id)).toBeUndefined();
    }
    // Ids of inputs no (user, vote) pair has: user 0, a 0th vote of either layout, the gap between the layouts.
    const idOfInput = (input: number) => FIRST_COUNTERLESS_VOTE_ID + permute(purposeKey('voteIds'), input);
    for (const input of [0, 5, 42 * 2 ** 20, COUNTER_IDS_BELOW * 2 ** 20, 2 ** 50 - 1, 2 ** 50, 2 ** 50 + 9 * 2 ** 14]) {
      expect(voterOfVoteId(idOfInput(input))).toBeUndefined();
    }
    expect(voterOfVoteId(idOfInput(2 ** 50 + 9 * 2 ** 14 + 1))).toBe(FIRST_DRAWN_USER_ID + 9);
  });
});
