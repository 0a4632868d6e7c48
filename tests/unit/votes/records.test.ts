/**
 * Ballot contents <-> vote records (lib/votes/records.ts), the vote list's cursor
 * (lib/votes/list-cursor.ts) and the Idempotency-Key header (lib/votes/idempotency.ts): the pure parts
 * of the vote routes, tested without DynamoDB (the mutation run showed no unit test reached them).
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '#lib/errors';
import { encodeCursorObject, listQueryOf } from '#lib/store/db/cursor';
import { idempotencyKeyOf, idempotencyScope } from '#lib/votes/idempotency';
import { decodeVoteCursor, encodeVoteCursor } from '#lib/votes/list-cursor';
import { isStoredVoteMap, toVoteRecord, votesOfBallot } from '#lib/votes/records';
import { tamperMiddle } from '#tests/support/tamper';

const at = '2024-06-15T12:00:00.000Z';

describe('votesOfBallot / toVoteRecord', () => {
  it('lists a ballot by idea id (numeric order, not string order)', () => {
    const stored = { '10': { id: 3, opinion: 'no', createdAt: at }, '9': { id: 1, opinion: 'yes', createdAt: at }, '100': { id: 2, opinion: 'yes', createdAt: at } };
    expect(votesOfBallot(stored)).toEqual([
      { id: 1, ideaId: 9, opinion: 'yes', createdAt: at },
      { id: 3, ideaId: 10, opinion: 'no', createdAt: at },
      { id: 2, ideaId: 100, opinion: 'yes', createdAt: at },
    ]);
  });

  it('no ballot is no votes', () => {
    expect(votesOfBallot(undefined)).toEqual([]);
  });

  it('shows the voter only when asked', () => {
    const vote = { id: 5, ideaId: 7, opinion: 'yes', createdAt: at };
    expect(toVoteRecord(vote, 42, true)).toEqual({ id: 5, ideaId: 7, userId: 42, opinion: 'yes', createdAt: at });
    expect(toVoteRecord(vote, 42, false)).toEqual({ id: 5, ideaId: 7, opinion: 'yes', createdAt: at });
    expect(Object.keys(toVoteRecord(vote, 42, false))).not.toContain('userId');
  });
});

describe('isStoredVoteMap (what an idempotency record replays)', () => {
  const vote = { id: 1, opinion: 'yes', createdAt: at };
  it('takes a vote map, the empty one included', () => {
    expect(isStoredVoteMap({ '1': vote, '23': vote })).toBe(true);
    expect(isStoredVoteMap({})).toBe(true);
  });
  it.each([
    ['null', null],
    ['an array', [vote]],
    ['a string', 'x'],
    ['a zero key', { '0': vote }],
    ['a padded key', { '01': vote }],
    ['a word key', { a: vote }],
    ['a null vote', { '1': null }],
    ['a non-numeric id', { '1': { ...vote, id: '1' } }],
    ['a non-string opinion', { '1': { ...vote, opinion: 1 } }],
    ['a missing createdAt', { '1': { id: 1, opinion: 'yes' } }],
  ])('refuses %s', (_, value) => {
    expect(isStoredVoteMap(value)).toBe(false);
  });
});

describe('the vote list cursor', () => {
  const query = { opinion: 'yes', pageSize: 10 };
  it('comes back as the position it was made from, on the same site and query', () => {
    const cursor = encodeVoteCursor(7, query, { userId: 12, ideaId: 34 });
    expect(decodeVoteCursor(7, { ...query, cursor })).toEqual({ userId: 12, ideaId: 34 });
    // pageSize is presentation: a cursor outlives a change of page size.
    expect(decodeVoteCursor(7, { opinion: 'yes', pageSize: 50, cursor })).toEqual({ userId: 12, ideaId: 34 });
  });

  it('no cursor: the first page', () => {
    expect(decodeVoteCursor(7, query)).toBeUndefined();
  });

  it('is a 400 on another site, under other filters, or tampered with', () => {
    const cursor = encodeVoteCursor(7, query, { userId: 12, ideaId: 34 });
    for (const [siteId, q] of [
      [8, { ...query, cursor }],
      [7, { opinion: 'no', cursor }],
      [7, { ...query, cursor: tamperMiddle(cursor) }],
    ] as const) {
      expect(() => decodeVoteCursor(siteId, q)).toThrow(ApiError);
    }
  });

  it.each([
    ['a position past the safe integers', { s: 7, u: 2 ** 53, i: 1 }],
    ['a negative position', { s: 7, u: 1, i: -1 }],
    ['a fractional position', { s: 7, u: 1.5, i: 1 }],
    ['a string position', { s: 7, u: '1', i: 1 }],
    ['another site inside', { s: 8, u: 1, i: 1 }],
    ['an extra field', { s: 7, u: 1, i: 1, x: 1 }],
    ['a key outside the ballot range', { s: 7, k: Buffer.from('IDEA#1').toString('base64url') }],
    ['a key and a position', { s: 7, k: Buffer.from('BALLOT#1').toString('base64url'), u: 1, i: 0 }],
    ['a key that is no base64url', { s: 7, k: 'BALLOT#1' }],
  ])('a well-sealed cursor with %s is a 400', (_, value) => {
    const cursor = encodeCursorObject(value, { siteId: 7, list: 'votes', query: listQueryOf(query) });
    expect(() => decodeVoteCursor(7, { ...query, cursor })).toThrow('Invalid cursor');
  });

  it('after a key a writer chose in the ballot range (up to the 1 KB of a sort key, any text), comes back as that key', () => {
    const afterSk = `BALLOT#0000000001${'\u0001"é'.repeat(250)}`;
    const cursor = encodeVoteCursor(7, query, { afterSk });
    expect(decodeVoteCursor(7, { ...query, cursor })).toEqual({ afterSk });
  });

  it.each([
    ['before the first ballot key', `BALLOT#${'\u0001"é'.repeat(250)}`],
    ['the bare prefix', 'BALLOT#'],
    ['after the last ballot key', 'BALLOT#~'],
  ])('holding a key outside the ballot range (%s, where no Query may start) is a 400', (_, afterSk) => {
    const cursor = encodeVoteCursor(7, query, { afterSk });
    expect(() => decodeVoteCursor(7, { ...query, cursor })).toThrow('Invalid cursor');
  });

  it('takes the largest position keys can hold', () => {
    const cursor = encodeCursorObject({ s: 7, u: Number.MAX_SAFE_INTEGER, i: 0 }, { siteId: 7, list: 'votes', query: listQueryOf(query) });
    expect(decodeVoteCursor(7, { ...query, cursor })).toEqual({ userId: Number.MAX_SAFE_INTEGER, ideaId: 0 });
  });
});

describe('Idempotency-Key', () => {
  it('absent: none; a valid key: itself (1 to 128 of A-Z a-z 0-9 _ -)', () => {
    expect(idempotencyKeyOf({})).toBeUndefined();
    expect(idempotencyKeyOf({ 'idempotency-key': 'a' })).toBe('a');
    expect(idempotencyKeyOf({ 'idempotency-key': `Ab_-9${'x'.repeat(123)}` })).toHaveLength(128);
  });

  it.each([[''], ['x'.repeat(129)], ['has space'], ['ü'], ['a/b']])('%j is a 400 naming the rule', (key) => {
    expect(() => idempotencyKeyOf({ 'idempotency-key': key })).toThrow(/Idempotency-Key must be 1 to 128 characters/);
  });

  it('is scoped to the voter', () => {
    expect(idempotencyScope(12)).toBe('vote#12');
    expect(idempotencyScope(12)).not.toBe(idempotencyScope(13));
  });
});

describe('the verify-votes report and who may vote', () => {
  it('formats an agreeing site and one with problems, one line each', async () => {
    const { formatVerifyReport } = await import('#lib/results/verify');
    expect(formatVerifyReport({ siteId: 3, ballots: 2, problems: [], checkpoint: 'checkpoint 4 matches' })).toBe(
      'site 3: 2 ballot(s); checkpoint 4 matches\nOK: the vote log, its checkpoints, the ballots and the tallies agree',
    );
    expect(formatVerifyReport({ siteId: 3, ballots: 2, problems: ['a', 'b'], checkpoint: 'no checkpoint' })).toBe(
      'site 3: 2 ballot(s); no checkpoint\n2 problem(s):\n  - a\n  - b',
    );
  });

  it('authorizeVoter: a site is needed, then the role, then a user (not a service token)', async () => {
    const { authorizeVoter } = await import('#lib/votes/cast');
    const { withDefaults } = await import('#lib/sites/config-defaults');
    const site = { id: 1, name: 's', config: withDefaults({ votes: { isActive: true } }) } as never;
    const service = { kind: 'service', role: 'admin', userId: undefined } as const;
    expect(() => authorizeVoter(service, undefined)).toThrow('Votes are cast on a site');
    expect(() => authorizeVoter(service, site)).toThrow('Votes are cast by site users; a service token has no user to vote as');
    expect(() => authorizeVoter({ kind: 'none', role: undefined, userId: undefined }, site)).toThrow('Authentication required');
    expect(() => authorizeVoter({ kind: 'user', role: 'member', userId: 1, siteId: 1, user: {} as never }, site)).not.toThrow();
  });

  it('invalidRound: the first three problems in the message, then how many more; a fallback when there are none', async () => {
    const { invalidRound } = await import('#lib/votes/errors');
    const details = ['a', 'b', 'c', 'd', 'e'].map((m, i) => ({ path: `[${i}].ideaId`, message: m }));
    expect(invalidRound(details)).toMatchObject({ status: 400, error: 'ValidationError', message: 'a; b; c; and 2 more', details });
    expect(invalidRound(details.slice(0, 3)).message).toBe('a; b; c');
    expect(invalidRound([]).message).toBe('Vote round is invalid');
  });
});
