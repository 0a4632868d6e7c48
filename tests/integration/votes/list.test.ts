/**
 * GET /api/site/:siteId/vote: visibility, filters, and paging that can stop inside a ballot.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { castVotes, createIdeas, votingSite } from '#tests/support/vote-fixtures';
import { encodeVoteCursor } from '#lib/votes/list-cursor';
import { handler as listHandler } from '../../../functions/votes/list.ts';
import { errorOf, type ListEnvelope } from '#tests/support/bodies';
import type { VoteRecord } from '#schemas/votes';

const list = (siteId: number, query: Record<string, string> = {}, token?: string) =>
  invoke<ListEnvelope<VoteRecord>>(listHandler, { path: '/api/site/{siteId}/vote', params: { siteId }, query, ...(token ? { token } : {}) });

async function allPages(siteId: number, query: Record<string, string>, token?: string) {
  const records: Array<Record<string, unknown>> = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const res = await list(siteId, { ...query, ...(cursor ? { cursor } : {}) }, token);
    expect(res.status).toBe(200);
    expect(res.body.records.length).toBeLessThanOrEqual(Number(query.pageSize ?? 100));
    records.push(...res.body.records);
    sizes.push(res.body.records.length);
    cursor = res.body.metadata.nextCursor ?? undefined;
    if (!cursor) return { records, sizes };
  }
  throw new Error('paging did not end');
}

describe('vote list', () => {
  let site: { id: number };
  let ideas: number[];
  let voters: TestUser[];
  let moderator: TestUser;
  /** Every vote, in list order (user id, then idea id), as the moderator sees it. */
  let expected: Array<{ ideaId: number; userId: number; opinion: string }>;

  beforeAll(async () => {
    site = await votingSite({ voteType: 'likes', isViewable: false });
    ideas = await createIdeas(site.id, 5);
    voters = [];
    for (let i = 0; i < 4; i++) voters.push(await createUser(site.id));
    // The list is in user id order; user ids are drawn at random, so the voters are numbered by id.
    voters.sort((a, b) => a.id - b.id);
    moderator = await createUser(site.id, 'moderator');
    // User 0 likes all 5 ideas (a ballot longer than a page), user 1 dislikes two, user 2 likes one,
    // user 3 votes and cancels (an empty ballot).
    await castVotes(site.id, voters[0]!.token, ideas.map((ideaId) => ({ ideaId, opinion: 'yes' })));
    await castVotes(site.id, voters[1]!.token, [{ ideaId: ideas[1]!, opinion: 'no' }, { ideaId: ideas[3]!, opinion: 'no' }]);
    await castVotes(site.id, voters[2]!.token, [{ ideaId: ideas[3]!, opinion: 'yes' }]);
    await castVotes(site.id, voters[3]!.token, [{ ideaId: ideas[0]!, opinion: 'yes' }]);
    await castVotes(site.id, voters[3]!.token, [{ ideaId: ideas[0]!, opinion: 'yes' }]);
    expected = [
      ...ideas.map((ideaId) => ({ ideaId, userId: voters[0]!.id, opinion: 'yes' })),
      { ideaId: ideas[1]!, userId: voters[1]!.id, opinion: 'no' },
      { ideaId: ideas[3]!, userId: voters[1]!.id, opinion: 'no' },
      { ideaId: ideas[3]!, userId: voters[2]!.id, opinion: 'yes' },
    ];
  });

  describe('visibility', () => {
    it('isViewable false: no token 401, member 403, moderator sees records with userId', async () => {
      expect((await list(site.id)).status).toBe(401);
      const member = await list(site.id, {}, voters[0]!.token);
      expect(member.status).toBe(403);
      expect(errorOf(member.body).error).toBe('Forbidden');
      const res = await list(site.id, {}, moderator.token);
      expect(res.status).toBe(200);
      expect(res.body.metadata).toEqual({ pageSize: 100, nextCursor: null });
      expect(res.body.records.map(({ ideaId, userId, opinion }: Record<string, unknown>) => ({ ideaId, userId, opinion }))).toEqual(expected);
      expect(res.body.records[0]).toEqual({
        id: expect.any(Number),
        ideaId: ideas[0],
        userId: voters[0]!.id,
        opinion: 'yes',
        createdAt: expect.any(String),
      });
    });

    it('isViewable true: everyone reads, but userId is absent below moderator', async () => {
      const open = await votingSite({ isViewable: true });
      const [idea] = await createIdeas(open.id, 1);
      const voter = await createUser(open.id);
      await castVotes(open.id, voter.token, [{ ideaId: idea }]);
      for (const token of [undefined, voter.token]) {
        const res = await list(open.id, {}, token);
        expect(res.status).toBe(200);
        expect(res.body.records).toHaveLength(1);
        expect(res.body.records[0]).not.toHaveProperty('userId');
        expect(Object.keys(res.body.records[0]!).sort()).toEqual(['createdAt', 'id', 'ideaId', 'opinion']);
      }
      const mod = await createUser(open.id, 'moderator');
      expect((await list(open.id, {}, mod.token)).body.records[0]!.userId).toBe(voter.id);
      // Filtering by another user's id would reveal who voted what: moderators only.
      expect((await list(open.id, { userId: String(voter.id) })).status).toBe(401);
      const otherMember = await createUser(open.id);
      expect((await list(open.id, { userId: String(voter.id) }, otherMember.token)).status).toBe(403);
      const own = await list(open.id, { userId: String(voter.id) }, voter.token);
      expect(own.status).toBe(200);
      expect(own.body.records).toHaveLength(1);
    });
  });

  describe('filters', () => {
    it('ideaId, userId, opinion and their combinations', async () => {
      const pick = (res: { body: { records: Array<Record<string, unknown>> } }) =>
        res.body.records.map(({ ideaId, userId, opinion }) => ({ ideaId, userId, opinion }));
      const byIdea = await list(site.id, { ideaId: String(ideas[3]) }, moderator.token);
      expect(pick(byIdea)).toEqual(expected.filter((v) => v.ideaId === ideas[3]));
      const byUser = await list(site.id, { userId: String(voters[1]!.id) }, moderator.token);
      expect(pick(byUser)).toEqual(expected.filter((v) => v.userId === voters[1]!.id));
      const byOpinion = await list(site.id, { opinion: 'no' }, moderator.token);
      expect(pick(byOpinion)).toEqual(expected.filter((v) => v.opinion === 'no'));
      const combined = await list(site.id, { ideaId: String(ideas[3]), opinion: 'yes' }, moderator.token);
      expect(pick(combined)).toEqual([
        { ideaId: ideas[3], userId: voters[0]!.id, opinion: 'yes' },
        { ideaId: ideas[3], userId: voters[2]!.id, opinion: 'yes' },
      ]);
      const userAndIdea = await list(site.id, { userId: String(voters[0]!.id), ideaId: String(ideas[2]) }, moderator.token);
      expect(pick(userAndIdea)).toEqual([{ ideaId: ideas[2], userId: voters[0]!.id, opinion: 'yes' }]);
      const nobody = await list(site.id, { userId: '999999999' }, moderator.token);
      expect(nobody.body).toEqual({ records: [], metadata: { pageSize: 100, nextCursor: null } });
      const emptyBallot = await list(site.id, { userId: String(voters[3]!.id) }, moderator.token);
      expect(emptyBallot.body.records).toEqual([]);
    });

    it.each([
      [{ ideaId: 'abc' }, 'ideaId'],
      [{ ideaId: '0' }, 'ideaId'],
      [{ ideaId: '012' }, 'ideaId'],
      [{ userId: '-1' }, 'userId'],
      [{ userId: '1e3' }, 'userId'],
      [{ opinion: '' }, 'opinion'],
      [{ pageSize: '0' }, 'pageSize'],
      [{ pageSize: '501' }, 'pageSize'],
    ])('%j: 400 at %s', async (query, path) => {
      const res = await list(site.id, query as Record<string, string>, moderator.token);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ValidationError', details: [{ path }] });
    });
  });

  describe('paging', () => {
    it('pages hold at most pageSize records and can end inside a ballot', async () => {
      const { records, sizes } = await allPages(site.id, { pageSize: '2' }, moderator.token);
      expect(records.map(({ ideaId, userId, opinion }) => ({ ideaId, userId, opinion }))).toEqual(expected);
      // User 0's ballot of 5 votes spans three pages.
      expect(sizes.slice(0, 3)).toEqual([2, 2, 2]);
      expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
    });

    it('pageSize 1 walks every vote once, also with filters', async () => {
      const all = await allPages(site.id, { pageSize: '1' }, moderator.token);
      expect(all.records).toHaveLength(expected.length);
      const byUser = await allPages(site.id, { pageSize: '1', userId: String(voters[0]!.id) }, moderator.token);
      expect(byUser.records.map((r) => r.ideaId)).toEqual(ideas);
      const byIdea = await allPages(site.id, { pageSize: '1', ideaId: String(ideas[3]) }, moderator.token);
      expect(byIdea.records.map((r) => r.userId)).toEqual([voters[0]!.id, voters[1]!.id, voters[2]!.id]);
      const byOpinion = await allPages(site.id, { pageSize: '3', opinion: 'no' }, moderator.token);
      expect(byOpinion.records.map((r) => r.ideaId)).toEqual([ideas[1], ideas[3]]);
    });

    it('a bad cursor is a 400', async () => {
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const other = await votingSite();
      const bad = [
        '!!!',
        'bm90IGpzb24',
        encode([1, 2]),
        encode({ s: site.id, u: -1, i: 0 }),
        encode({ s: site.id, u: 1.5, i: 0 }),
        encode({ s: site.id, u: 1, i: '2' }),
        encode({ s: site.id, u: 1e11, i: 0 }),
        encode({ s: site.id, u: 1, i: 0, x: 1 }),
        encode({ PK: `SITE#${site.id}`, SK: 'BALLOT#0000000001' }),
        encodeVoteCursor(other.id, {}, { userId: 1, ideaId: 0 }),
      ];
      for (const cursor of bad) {
        const res = await list(site.id, { cursor }, moderator.token);
        expect(res.status, cursor).toBe(400);
        expect(errorOf(res.body).error).toBe('BadRequest');
      }
      // A cursor of one user's ballot does not continue another user's (even when sealed for that query).
      const mismatched = encodeVoteCursor(site.id, { userId: voters[0]!.id }, { userId: voters[1]!.id, ideaId: 0 });
      expect((await list(site.id, { userId: String(voters[0]!.id), cursor: mismatched }, moderator.token)).status).toBe(400);
    });

    it('a page costs a constant number of requests (site and caller in one read, one ballot read)', async () => {
      for (const query of [{}, { pageSize: '2' }, { ideaId: String(ideas[3]) }, { userId: String(voters[0]!.id) }, { opinion: 'no' }] as Array<Record<string, string>>) {
        const { result, requests } = await countRequests(() => list(site.id, query, moderator.token));
        expect(result.status).toBe(200);
        expect(requests, JSON.stringify(query)).toBe(2);
      }
    });
  });
});
