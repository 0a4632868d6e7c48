import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { castVotes, seedArgument, seedIdeas } from './helpers.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as getIdea } from '../../../functions/ideas/get.ts';
import { errorOf, type ListEnvelope } from '#tests/support/bodies';
import type { IdeaRecord } from '#schemas/idea';

const list = (siteId: number, query: Record<string, string> = {}, token?: string) =>
  invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId }, query, ...(token ? { token } : {}) });
const ids = (res: { body: { records: Array<{ id: number }> } }) => res.body.records.map((r) => r.id);

/** Every page of a listing, following nextCursor to the end. */
async function allPages(siteId: number, query: Record<string, string>, token?: string) {
  const seen: number[] = [];
  let cursor: string | null | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const res = await list(siteId, { ...query, ...(cursor ? { cursor } : {}) }, token);
    expect(res.status).toBe(200);
    seen.push(...ids(res));
    cursor = res.body.metadata.nextCursor;
    if (cursor === null) return seen;
  }
  throw new Error('paging did not end');
}

describe('idea list: envelope, paging and sorting', () => {
  it('answers the CONTRACT envelope, newest first by default', async () => {
    const site = await createSite();
    const ideas = await seedIdeas(site.id, 3);
    const res = await list(site.id);
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ pageSize: 100, nextCursor: null });
    expect(ids(res)).toEqual(ideas.map((i) => i.id).reverse());
    expect(res.body.records[0]).toEqual({
      id: ideas[2]!.id,
      siteId: site.id,
      userId: null,
      title: ideas[2]!.title,
      summary: ideas[2]!.summary,
      description: ideas[2]!.description,
      status: 'OPEN',
      budget: null,
      extraData: {},
      createdAt: ideas[2]!.createdAt,
      updatedAt: ideas[2]!.updatedAt,
      // Discovery: ideas without tags or a place.
      tags: [],
      location: null,
      // What an anonymous caller may do with it (nothing), and when it was published (on creation).
      can: { edit: false, delete: false },
      publishDate: ideas[2]!.createdAt,
    });
    expect((await list(site.id, { sort: 'createdate_asc' })).body.records.map((r: { id: number }) => r.id)).toEqual(
      ideas.map((i) => i.id),
    );
  });

  it('pages with an opaque cursor in both creation orders', async () => {
    const site = await createSite();
    const all = (await seedIdeas(site.id, 7)).map((i) => i.id);
    const first = await list(site.id, { pageSize: '3' });
    expect(first.body.records).toHaveLength(3);
    expect(first.body.metadata).toEqual({ pageSize: 3, nextCursor: expect.any(String) });
    expect(await allPages(site.id, { pageSize: '3' })).toEqual([...all].reverse());
    expect(await allPages(site.id, { pageSize: '2', sort: 'createdate_asc' })).toEqual(all);
  });

  it.each([['0'], ['501'], ['x']])('rejects pageSize %s', async (pageSize) => {
    const site = await createSite();
    const res = await list(site.id, { pageSize });
    expect(res.status).toBe(400);
    expect(errorOf(res.body).details![0]!.path).toBe('pageSize');
  });

  it('rejects an unknown sort, a bad flag and forged or foreign cursors', async () => {
    const site = await createSite({ votes: { isViewable: true } });
    const other = await createSite();
    await seedIdeas(site.id, 3);
    await seedIdeas(other.id, 3);
    expect((await list(site.id, { sort: 'title_asc' })).body).toMatchObject({ status: 400, details: [{ path: 'sort' }] });
    expect((await list(site.id, { selectRunning: '2' })).body).toMatchObject({ status: 400, details: [{ path: 'selectRunning' }] });
    const foreign = (await list(other.id, { pageSize: '1' })).body.metadata.nextCursor!;
    expect((await list(site.id, { cursor: foreign })).status).toBe(400);
    const byVotes = (await list(site.id, { pageSize: '1', sort: 'votes_desc' })).body.metadata.nextCursor!;
    expect(byVotes).toEqual(expect.any(String));
    expect((await list(site.id, { cursor: byVotes })).status).toBe(400);
    expect((await list(site.id, { cursor: byVotes, sort: 'votes_asc' })).status).toBe(400);
    const byDate = (await list(site.id, { pageSize: '1' })).body.metadata.nextCursor!;
    expect((await list(site.id, { cursor: byDate, sort: 'votes_desc' })).status).toBe(400);
    for (const cursor of ['%%%', Buffer.from('{"PK":"SITE#1","sort":"votes_desc","yes":"a","id":1}').toString('base64url')]) {
      expect((await list(site.id, { cursor, sort: 'votes_desc' })).body).toMatchObject({ status: 400, error: 'BadRequest' });
    }
  });

  it('sorts by yes votes (most first: ties newest first; least first: the exact reverse) and pages through that order', async () => {
    const site = await createSite({ votes: { isViewable: true } });
    const [a, b, c, d, e] = (await seedIdeas(site.id, 5)).map((i) => i.id) as [number, number, number, number, number];
    const voters = await Promise.all([1, 2, 3].map(() => createUser(site.id, 'member')));
    // yes: a=3, b=1, c=1 (and 2 no), d=0 (1 no), e=0
    await castVotes(site.id, voters[0]!.id, { [a]: 'yes', [b]: 'yes', [c]: 'no', [d]: 'no' });
    await castVotes(site.id, voters[1]!.id, { [a]: 'yes', [c]: 'yes' });
    await castVotes(site.id, voters[2]!.id, { [a]: 'yes', [c]: 'no' });
    const desc = [a, c, b, e, d];
    // One index orders both ways (GSI3), so least first is most first read backwards.
    const asc = [...desc].reverse();
    expect(ids(await list(site.id, { sort: 'votes_desc' }))).toEqual(desc);
    expect(ids(await list(site.id, { sort: 'votes_asc' }))).toEqual(asc);
    expect(await allPages(site.id, { sort: 'votes_desc', pageSize: '2' })).toEqual(desc);
    expect(await allPages(site.id, { sort: 'votes_asc', pageSize: '2' })).toEqual(asc);
    const last = await list(site.id, { sort: 'votes_desc', pageSize: '5' });
    expect(last.body.metadata.nextCursor).toBeNull();
  });

  it('keeps only running ideas with selectRunning, in every order', async () => {
    const site = await createSite({ votes: { isViewable: true } });
    const statuses = ['OPEN', 'CLOSED', 'ACCEPTED', 'DENIED', 'BUSY', 'DONE'] as const;
    const byStatus = new Map<number, string>();
    for (const status of statuses) {
      const [idea] = await seedIdeas(site.id, 1, { status });
      byStatus.set(idea!.id, status);
    }
    const running = [...byStatus].filter(([, s]) => ['OPEN', 'CLOSED', 'ACCEPTED', 'BUSY'].includes(s)).map(([id]) => id);
    expect(ids(await list(site.id, { selectRunning: '1' }))).toEqual([...running].reverse());
    expect(ids(await list(site.id, { selectRunning: 'true', sort: 'createdate_asc' }))).toEqual(running);
    expect((await allPages(site.id, { selectRunning: '1', sort: 'votes_desc', pageSize: '2' })).sort()).toEqual([...running].sort());
    expect(await allPages(site.id, { selectRunning: '1', pageSize: '2' })).toEqual([...running].reverse());
    expect(ids(await list(site.id, { selectRunning: 'false' }))).toHaveLength(6);
  });

  it('cuts a page short of the 6 MB response limit and continues after the last record', async () => {
    const site = await createSite({ votes: { isViewable: true } });
    const big = 'x'.repeat(250 * 1024);
    const ideas = await seedIdeas(site.id, 25, { extraData: { blob: big } });
    const first = await list(site.id, { sort: 'votes_desc' });
    expect(first.status).toBe(200);
    expect(first.body.records.length).toBeLessThan(25);
    expect(first.body.records.length).toBeGreaterThan(10);
    expect(JSON.stringify(first.body).length).toBeLessThan(5.5 * 1024 * 1024);
    expect(first.body.metadata.nextCursor).toEqual(expect.any(String));
    const seen = await allPages(site.id, { sort: 'votes_desc' });
    expect(seen).toEqual(ideas.map((i) => i.id).reverse());
  });
});

describe('idea list and read: include flags', () => {
  it('adds no include fields unless asked', async () => {
    const site = await createSite({ votes: { isViewable: true } });
    await seedIdeas(site.id, 1, { extraData: { images: ['a.png'] } });
    const record = (await list(site.id)).body.records[0];
    for (const field of ['posterImage', 'user', 'yes', 'no', 'userVote', 'argumentsFor', 'argumentsAgainst']) {
      expect(record).not.toHaveProperty(field);
    }
  });

  it('includePosterImage: the first of extraData.images, or null', async () => {
    const site = await createSite();
    const [strings] = await seedIdeas(site.id, 1, { extraData: { images: ['https://img/1.png', 'https://img/2.png'] } });
    const [objects] = await seedIdeas(site.id, 1, { extraData: { images: [{ url: 'https://img/3.png' }] } });
    const [none] = await seedIdeas(site.id, 1);
    const res = await list(site.id, { includePosterImage: '1' });
    const byId = new Map(res.body.records.map((r: { id: number }) => [r.id, r]));
    expect(byId.get(strings!.id)).toMatchObject({ posterImage: { url: 'https://img/1.png' } });
    expect(byId.get(objects!.id)).toMatchObject({ posterImage: { url: 'https://img/3.png' } });
    expect(byId.get(none!.id)).toMatchObject({ posterImage: null });
    const one = await invoke<IdeaRecord>(getIdea, { params: { siteId: site.id, ideaId: strings!.id }, query: { includePosterImage: 'true' } });
    expect(one.body.posterImage).toEqual({ url: 'https://img/1.png' });
  });

  it('includeUser: the limited user view, null for no user or a user that is gone', async () => {
    const site = await createSite({ users: { allowUseOfNicknames: true } });
    const author = await createUser(site.id, 'member', { firstName: 'Ada', lastName: 'Lovelace', nickName: 'ada', email: 'a@x.org' });
    const plain = await createUser(site.id, 'moderator', { firstName: 'Bob', lastName: 'Builder' });
    const [byAuthor] = await seedIdeas(site.id, 1, { userId: author.id });
    const [byPlain] = await seedIdeas(site.id, 1, { userId: plain.id });
    const [orphan] = await seedIdeas(site.id, 1, { userId: 999999999 });
    const [nobody] = await seedIdeas(site.id, 1);
    const res = await list(site.id, { includeUser: '1' });
    const byId = new Map(res.body.records.map((r) => [r.id, r.user]));
    expect(byId.get(byAuthor!.id)).toEqual({ id: author.id, role: 'member', displayName: 'ada', nickName: 'ada' });
    expect(byId.get(byPlain!.id)).toEqual({ id: plain.id, role: 'moderator', displayName: 'Bob Builder', nickName: null });
    expect(byId.get(orphan!.id)).toBeNull();
    expect(byId.get(nobody!.id)).toBeNull();
    const one = await invoke<IdeaRecord>(getIdea, { params: { siteId: site.id, ideaId: byAuthor!.id }, query: { includeUser: '1' } });
    expect(one.body.user).toEqual({ id: author.id, role: 'member', displayName: 'ada', nickName: 'ada' });
  });

  it('includeVoteCount: yes and no for moderators, for everyone when votes.isViewable, absent otherwise', async () => {
    const hidden = await createSite();
    const viewable = await createSite({ votes: { isViewable: true } });
    for (const site of [hidden, viewable]) {
      const [a, b] = await seedIdeas(site.id, 2);
      const voters = await Promise.all([1, 2, 3].map(() => createUser(site.id, 'member')));
      await castVotes(site.id, voters[0]!.id, { [a!.id]: 'yes' });
      await castVotes(site.id, voters[1]!.id, { [a!.id]: 'yes' });
      await castVotes(site.id, voters[2]!.id, { [a!.id]: 'no' });
      const moderator = await createUser(site.id, 'moderator');
      for (const sort of ['createdate_desc', 'votes_desc']) {
        const seen = await list(site.id, { includeVoteCount: '1', sort }, moderator.token);
        const byId = new Map(seen.body.records.map((r: { id: number }) => [r.id, r]));
        expect(byId.get(a!.id)).toMatchObject({ yes: 2, no: 1 });
        expect(byId.get(b!.id)).toMatchObject({ yes: 0, no: 0 });
        // Hidden counts: the order by votes would show them (its own attack test: security/hidden-ranking).
        if (site === hidden && sort === 'votes_desc') continue;
        const pub = await list(site.id, { includeVoteCount: '1', sort }, voters[0]!.token);
        if (site === viewable) expect(pub.body.records.find((r: { id: number }) => r.id === a!.id)).toMatchObject({ yes: 2, no: 1 });
        else for (const r of pub.body.records) expect(Object.keys(r)).not.toContain('yes');
      }
      const one = await invoke<IdeaRecord>(getIdea, { params: { siteId: site.id, ideaId: a!.id }, query: { includeVoteCount: '1' } });
      if (site === viewable) expect(one.body).toMatchObject({ yes: 2, no: 1 });
      else expect(one.body).not.toHaveProperty('no');
    }
  });

  it("includeUserVote: the caller's opinion per idea, null when none or anonymous", async () => {
    const site = await createSite();
    const [a, b] = await seedIdeas(site.id, 2);
    const voter = await createUser(site.id, 'member');
    await castVotes(site.id, voter.id, { [a!.id]: 'no' });
    const mine = await list(site.id, { includeUserVote: '1' }, voter.token);
    const byId = new Map(mine.body.records.map((r) => [r.id, r.userVote]));
    expect(byId.get(a!.id)).toEqual({ opinion: 'no' });
    expect(byId.get(b!.id)).toBeNull();
    for (const r of (await list(site.id, { includeUserVote: '1' })).body.records) expect(r.userVote).toBeNull();
    for (const r of (await list(site.id, { includeUserVote: '1' }, SERVICE_TOKEN)).body.records) expect(r.userVote).toBeNull();
    const one = await invoke<IdeaRecord>(getIdea, { params: { siteId: site.id, ideaId: a!.id }, query: { includeUserVote: '1' }, token: voter.token });
    expect(one.body.userVote).toEqual({ opinion: 'no' });
  });

  it('includeArguments: argumentsFor and argumentsAgainst of each idea only', async () => {
    const site = await createSite();
    const [before, a, b, after] = await seedIdeas(site.id, 4);
    const outside = await seedArgument(site.id, before!.id);
    await seedArgument(site.id, after!.id, { sentiment: 'against' });
    const for1 = await seedArgument(site.id, a!.id, { sentiment: 'for', userId: 7, voterIds: new Set([1, 2]), yes: 2 });
    const against = await seedArgument(site.id, a!.id, { sentiment: 'against' });
    const reply = await seedArgument(site.id, a!.id, { sentiment: 'for', parentId: for1.id });
    expect((await list(site.id, { includeArguments: '1', cursor: '' })).status).toBe(400); // an empty cursor is not a cursor

    // A page holding a and b only: arguments of the ideas around them must not leak in.
    const firstPage = await list(site.id, { sort: 'createdate_asc', pageSize: '1' });
    const page = await list(site.id, { includeArguments: '1', sort: 'createdate_asc', pageSize: '2', cursor: firstPage.body.metadata.nextCursor! });
    expect(ids(page)).toEqual([a!.id, b!.id]);
    const [ra, rb] = page.body.records;
    expect(ra!.argumentsFor).toEqual([
      {
        id: for1.id,
        siteId: site.id,
        ideaId: a!.id,
        userId: 7,
        parentId: null,
        sentiment: 'for',
        description: for1.description,
        createdAt: for1.createdAt,
        updatedAt: for1.updatedAt,
      },
      expect.objectContaining({ id: reply.id, parentId: for1.id }),
    ]);
    expect(ra!.argumentsAgainst!.map((x) => x.id)).toEqual([against.id]);
    expect(rb).toMatchObject({ argumentsFor: [], argumentsAgainst: [] });
    expect(JSON.stringify(page.body)).not.toContain(outside.description);

    const one = await invoke<IdeaRecord>(getIdea, { params: { siteId: site.id, ideaId: a!.id }, query: { includeArguments: '1' } });
    expect(one.body.argumentsFor!.map((x) => x.id)).toEqual([for1.id, reply.id]);
    expect(one.body.argumentsAgainst!.map((x) => x.id)).toEqual([against.id]);
  });
});
