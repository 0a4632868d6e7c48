/**
 * GET /vote's paging and visibility (lib/votes/list.ts) over an in-memory ballot store: pages cut in
 * the middle of a ballot resume at the very vote, filters apply while flattening, and nobody but a
 * moderator learns another user's votes.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Caller } from '#lib/auth/caller';
import { withDefaults } from '#lib/sites/config-defaults';
import type { Site } from '#lib/sites/site';
import type { BallotItem } from '#lib/store/ballots/ballots';
import type { UserItem } from '#lib/store/users/users';
import type { ListVotesQuery } from '#schemas/votes';

const ballots = vi.hoisted(() => [] as BallotItem[]);
vi.mock('#lib/store/ballots/ballots', () => ({
  getShownBallot: vi.fn(async (_site: number, userId: number) => ballots.find((b) => b.userId === userId)),
  queryBallots: vi.fn(async (_site: number, o: { start: { fromUserId: number }; limit: number; ideaId?: number }) => {
    const from = ballots.filter((b) => b.userId >= o.start.fromUserId && (o.ideaId === undefined || b.votes[String(o.ideaId)] !== undefined)).sort((a, b) => a.userId - b.userId);
    const page = from.slice(0, o.limit);
    return { ballots: page, next: from.length > o.limit ? { fromUserId: page.at(-1)!.userId + 1 } : undefined };
  }),
}));

const { listVotes } = await import('#lib/votes/list');

const ballot = (userId: number, votes: Record<number, string>): BallotItem => ({
  siteId: 1,
  userId,
  version: 1,
  updatedAt: 't',
  votes: Object.fromEntries(Object.entries(votes).map(([ideaId, opinion]) => [ideaId, { id: userId * 100 + Number(ideaId), opinion, createdAt: 't' }])),
});
const site = (isViewable: boolean) => ({ id: 1, name: 's', config: withDefaults({ votes: { isViewable } }) }) as unknown as Site;
const who = (role: 'member' | 'moderator', userId = 1): Caller => ({ kind: 'user', role, userId, siteId: 1, user: {} as UserItem });
const nobody: Caller = { kind: 'none', role: undefined, userId: undefined };
const q = (query: Partial<ListVotesQuery>) => ({ pageSize: 10, ...query }) as ListVotesQuery;
const ids = (records: Array<{ id: number }>) => records.map((r) => r.id);

/** Every record of every page, following nextCursor. */
async function all(caller: Caller, query: Partial<ListVotesQuery>, s = site(true)) {
  const out: Array<{ id: number; userId?: number }> = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 20; pages++) {
    const page = await listVotes(s, caller, q({ ...query, ...(cursor ? { cursor } : {}) }));
    out.push(...page.records);
    if (!page.nextCursor) return out;
    cursor = page.nextCursor;
  }
  throw new Error('no end');
}

beforeEach(() => {
  ballots.length = 0;
  ballots.push(ballot(1, { 1: 'yes', 2: 'no', 3: 'yes' }), ballot(2, { 2: 'yes' }), ballot(3, { 1: 'no', 3: 'yes' }), ballot(4, {}));
});

describe('listVotes', () => {
  it('lists in user, then idea order, resuming mid-ballot at the very vote, every vote once', async () => {
    const first = await listVotes(site(true), who('moderator'), q({ pageSize: 2 }));
    expect(ids(first.records)).toEqual([101, 102]);
    expect(first.nextCursor).not.toBeNull();
    expect(ids(await all(who('moderator'), { pageSize: 2 }))).toEqual([101, 102, 103, 202, 301, 303]);
    expect(ids(await all(who('moderator'), { pageSize: 1 }))).toEqual([101, 102, 103, 202, 301, 303]);
    expect(ids(await all(who('moderator'), { pageSize: 10 }))).toEqual([101, 102, 103, 202, 301, 303]);
  });

  it('filters by idea and opinion while flattening', async () => {
    expect(ids(await all(who('moderator'), { ideaId: 3 }))).toEqual([103, 303]);
    expect(ids(await all(who('moderator'), { opinion: 'no' }))).toEqual([102, 301]);
    expect(ids(await all(who('moderator'), { ideaId: 2, opinion: 'yes', pageSize: 1 }))).toEqual([202]);
  });

  it('userId: that ballot only; a cursor of another user is a 400', async () => {
    expect(ids(await all(who('moderator'), { userId: 3 }))).toEqual([301, 303]);
    expect(ids(await all(who('moderator'), { userId: 9 }))).toEqual([]);
    const page = await listVotes(site(true), who('moderator'), q({ userId: 1, pageSize: 1 }));
    await expect(listVotes(site(true), who('moderator'), q({ userId: 3, pageSize: 1, cursor: page.nextCursor! }))).rejects.toMatchObject({ status: 400 });
  });

  it('user ids are shown to moderators only; viewable votes are public, others for moderators', async () => {
    const publicRecords = await all(nobody, {});
    expect(publicRecords.every((r) => r.userId === undefined)).toBe(true);
    expect((await all(who('moderator'), {})).map((r) => r.userId)).toEqual([1, 1, 1, 2, 3, 3]);
    await expect(listVotes(site(false), nobody, q({}))).rejects.toMatchObject({ status: 401 });
    await expect(listVotes(site(false), who('member'), q({}))).rejects.toMatchObject({ status: 403 });
    expect(ids((await listVotes(site(false), who('moderator'), q({}))).records)).toHaveLength(6);
  });

  it("another user's votes: moderators only; your own always (when votes are viewable)", async () => {
    await expect(listVotes(site(true), who('member', 1), q({ userId: 3 }))).rejects.toMatchObject({ status: 403, message: "Only moderators may list another user's votes" });
    await expect(listVotes(site(true), nobody, q({ userId: 3 }))).rejects.toMatchObject({ status: 401 });
    expect(ids((await listVotes(site(true), who('member', 3), q({ userId: 3 }))).records)).toEqual([301, 303]);
  });

  it('a page that ends with the last ballot has no next cursor', async () => {
    expect((await listVotes(site(true), who('moderator'), q({ pageSize: 6 }))).nextCursor).toBeNull();
  });
});
