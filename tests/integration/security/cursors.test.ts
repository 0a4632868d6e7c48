/**
 * Attack: read or reuse `nextCursor` values. They were readable base64 JSON: on a
 * site with hidden counts, an anonymous list sorted by votes leaked each idea's `yes` in its cursor,
 * and vote-list cursors carried user ids. CONTRACT "Decided details, security": cursors are
 * authenticated and encrypted, reveal no field of any record, and a cursor of another site, list or
 * query, or an altered one, is a 400. Paging still walks every record exactly once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { invoke, type InvokeResult } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN, type TestUser } from '#tests/support/fixtures';
import { castVotes, seedArgument, seedIdeas } from '../ideas/helpers.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as listArticles } from '../../../functions/articles/list.ts';
import { handler as listVotes } from '../../../functions/votes/list.ts';
import { handler as listUsers } from '../../../functions/users/list.ts';
import { handler as listSignups } from '../../../functions/newsletter/list.ts';
import { handler as listSiteArguments } from '../../../functions/arguments/list-site.ts';
import { handler as listSites } from '../../../functions/sites/list.ts';
import type { ListEnvelope } from '#tests/support/bodies';
import type { IdeaRecord } from '#schemas/idea';
import type { VoteRecord } from '#schemas/votes';
import type { UserRecord } from '#schemas/user';
import type { ArgumentRecordShape } from '#schemas/argument';
import type { SiteRecord } from '#schemas/site';

/** A page of any list: the tests here read ids, cursors and the fields a cursor must not reveal. */
type Res = InvokeResult<ListEnvelope<Record<string, unknown>>>;
const ideas = (siteId: number, query: Record<string, string> = {}, token?: string): Promise<Res> =>
  invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId }, query, ...(token ? { token } : {}) });
const votes = (siteId: number, query: Record<string, string> = {}, token?: string): Promise<Res> =>
  invoke<ListEnvelope<VoteRecord>>(listVotes, { params: { siteId }, query, ...(token ? { token } : {}) });

/** Every page, following nextCursor; `between` may change presentation flags from page to page. */
async function walk(get: (query: Record<string, string>) => Promise<Res>, query: Record<string, string>, between: (page: number) => Record<string, string> = () => ({})) {
  const seen: Array<Record<string, unknown>> = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const res = await get({ ...query, ...between(page), ...(cursor ? { cursor } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    seen.push(...res.body.records);
    cursor = res.body.metadata.nextCursor;
    if (cursor === null) return { seen, cursors };
    cursors.push(cursor);
  }
  throw new Error('paging did not end');
}

/** What the bytes of a cursor could show: as text in the two usual decodings. */
const readings = (cursor: string) => {
  const bytes = Buffer.from(cursor, 'base64url');
  return [cursor, bytes.toString('utf8'), bytes.toString('latin1')];
};
const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** An id as it appears in table keys. */
const pad10 = (id: number) => String(id).padStart(10, '0');

/** The cursor with one bit changed (bit `i` of its bytes), re-encoded. */
const flipped = (cursor: string, bit: number) => {
  const bytes = Buffer.from(cursor, 'base64url');
  bytes[(bit >> 3) % bytes.length]! ^= 1 << (bit & 7);
  return bytes.toString('base64url');
};

describe('a vote-ordered anonymous list on a site with hidden counts', () => {
  let site: { id: number };
  let ids: number[];
  /** yes count per idea id, as the cursor once showed them. */
  const yes = new Map<number, number>();

  beforeAll(async () => {
    site = await createSite({ votes: { isViewable: false } });
    ids = (await seedIdeas(site.id, 5)).map((i) => i.id);
    const voters = await Promise.all(Array.from({ length: 13 }, () => createUser(site.id)));
    // yes: ids[0] 13, ids[1] 11, ids[2] 7, ids[3] 0, ids[4] 0
    for (const [n, voter] of voters.entries()) {
      const ballot: Record<number, string> = { [ids[0]!]: 'yes' };
      if (n < 11) ballot[ids[1]!] = 'yes';
      if (n < 7) ballot[ids[2]!] = 'yes';
      await castVotes(site.id, voter.id, ballot);
    }
    yes.set(ids[0]!, 13).set(ids[1]!, 11).set(ids[2]!, 7);
  });

  it('walks every idea exactly once in vote order, and no cursor shows a count, an id or a key', async () => {
    const { seen, cursors } = await walk((q) => ideas(site.id, q), { sort: 'votes_desc', pageSize: '1' });
    expect(seen.map((r) => r.id)).toEqual([ids[0], ids[1], ids[2], ids[4], ids[3]]);
    for (const record of seen) expect(record).not.toHaveProperty('yes');
    expect(cursors).toHaveLength(4);
    for (const cursor of cursors) {
      for (const text of readings(cursor)) {
        expect(isJson(text)).toBe(false);
        // What the readable cursor held: `{"PK":"SITE#..","sort":"votes_desc","yes":13,"id":12}`. (Short
        // numbers alone occur in any random text; these fragments do not.)
        const fragments = ['"yes"', 'yes', 'votes_desc', 'SITE#', 'IDEA#', ...ids.map((id) => `"id":${id}`), ...ids.map(pad10), ...[13, 11, 7].map((n) => `:${n},`)];
        for (const secret of fragments) {
          expect(text, `${cursor} shows ${secret}`).not.toContain(secret);
        }
      }
    }
    // Not even the length tells a count: every cursor of this list is as long as the others.
    expect(new Set(cursors.map((c) => c.length)).size).toBe(1);
  });

  it('a cursor of this list is refused on another site, another list and another query: 400', async () => {
    const cursor = (await ideas(site.id, { sort: 'votes_desc', pageSize: '2' })).body.metadata.nextCursor as string;
    const other = await createSite({ votes: { isViewable: false } });
    await seedIdeas(other.id, 3);
    const refusals: Array<[string, Promise<InvokeResult>]> = [
      ['another site, same query', ideas(other.id, { sort: 'votes_desc', cursor })],
      ['another sort', ideas(site.id, { sort: 'votes_asc', cursor })],
      ['creation order', ideas(site.id, { cursor })],
      ['another filter', ideas(site.id, { sort: 'votes_desc', selectRunning: '1', cursor })],
      ['the article list', invoke(listArticles, { params: { siteId: site.id }, query: { cursor } })],
      ['the vote list', votes(site.id, { cursor }, SERVICE_TOKEN)],
      ['the site list', invoke(listSites, { query: { cursor } })],
    ];
    for (const [what, request] of refusals) {
      const res = await request;
      expect(res.status, what).toBe(400);
      expect(res.body, what).toEqual({ status: 400, error: 'BadRequest', message: 'Invalid cursor' });
    }
    expect((await ideas(site.id, { sort: 'votes_desc', cursor })).status).toBe(200);
  });

  it('a cursor with any one bit changed is refused: 400', async () => {
    const cursor = (await ideas(site.id, { sort: 'votes_desc', pageSize: '2' })).body.metadata.nextCursor as string;
    const bits = Buffer.from(cursor, 'base64url').length * 8;
    // Every byte once (the unit test flips every bit of the sealed box).
    for (let bit = 0; bit < bits; bit += 9) {
      const res = await ideas(site.id, { sort: 'votes_desc', cursor: flipped(cursor, bit) });
      expect(res.status, `bit ${bit}`).toBe(400);
    }
    for (const changed of [cursor.slice(0, -1), `${cursor}A`, cursor.slice(1)]) {
      expect((await ideas(site.id, { sort: 'votes_desc', cursor: changed })).status).toBe(400);
    }
  });
});

describe('the vote list: positions name users, the cursor does not', () => {
  let site: { id: number };
  let voters: TestUser[];
  let ideaIds: number[];

  beforeAll(async () => {
    site = await createSite({ votes: { isViewable: true } });
    ideaIds = (await seedIdeas(site.id, 3)).map((i) => i.id);
    voters = await Promise.all(Array.from({ length: 4 }, () => createUser(site.id)));
    for (const [n, voter] of voters.entries()) {
      await castVotes(site.id, voter.id, { [ideaIds[n % 3]!]: 'yes', [ideaIds[(n + 1) % 3]!]: n % 2 ? 'no' : 'yes' });
    }
  });

  it('an anonymous reader walks all 8 votes once; no cursor shows a user id or idea id', async () => {
    const { seen, cursors } = await walk((q) => votes(site.id, q), { pageSize: '1' });
    expect(seen).toHaveLength(8);
    for (const record of seen) expect(record).not.toHaveProperty('userId');
    const moderatorView = await walk((q) => votes(site.id, q, SERVICE_TOKEN), { pageSize: '3' });
    expect(moderatorView.seen.map((r) => `${r.userId}/${r.ideaId}`)).toEqual(
      [...new Set(moderatorView.seen.map((r) => `${r.userId}/${r.ideaId}`))],
    );
    expect(moderatorView.seen).toHaveLength(8);
    for (const cursor of cursors) {
      for (const text of readings(cursor)) {
        expect(isJson(text)).toBe(false);
        // The readable cursor was `{"s":3,"u":17,"i":12}`.
        const fragments = ['"u"', '"s"', '"i"', ...voters.flatMap((v) => [`"u":${v.id}`, pad10(v.id)]), ...ideaIds.flatMap((id) => [`"i":${id}`, pad10(id)])];
        for (const secret of fragments) expect(text).not.toContain(secret);
      }
    }
  });

  it('a vote-list cursor of another filter or another site is refused: 400', async () => {
    const cursor = (await votes(site.id, { pageSize: '1', opinion: 'yes' })).body.metadata.nextCursor as string;
    const other = await createSite({ votes: { isViewable: true } });
    for (const [what, query, siteId] of [
      ['without the filter', {}, site.id],
      ['another opinion', { opinion: 'no' }, site.id],
      ['an idea filter', { opinion: 'yes', ideaId: String(ideaIds[0]) }, site.id],
      ['another site', { opinion: 'yes' }, other.id],
    ] as const) {
      expect((await votes(siteId, { ...query, cursor })).status, what).toBe(400);
    }
    expect((await votes(site.id, { opinion: 'yes', cursor })).status).toBe(200);
  });
});

describe('key cursors of the other lists', () => {
  it('users, newsletter signups and arguments: bound to their list and site; presentation flags may change between pages', async () => {
    const site = await createSite({ newslettersignup: { isActive: true } });
    const other = await createSite();
    await Promise.all([createUser(site.id), createUser(site.id), createUser(other.id), createUser(other.id)]);
    const [idea] = await seedIdeas(site.id, 1);
    for (let i = 0; i < 3; i++) await seedArgument(site.id, idea!.id, { sentiment: i % 2 ? 'against' : 'for' });

    const users = (siteId: number, q: Record<string, string>) => invoke<ListEnvelope<UserRecord>>(listUsers, { params: { siteId }, query: q, token: SERVICE_TOKEN });
    const userCursor = (await users(site.id, { pageSize: '1' })).body.metadata.nextCursor as string;
    expect((await users(other.id, { cursor: userCursor })).status).toBe(400);
    expect((await invoke(listSignups, { params: { siteId: site.id }, query: { cursor: userCursor }, token: SERVICE_TOKEN })).status).toBe(400);
    expect((await users(site.id, { cursor: userCursor })).status).toBe(200);

    const args = (q: Record<string, string>) => invoke<ListEnvelope<ArgumentRecordShape>>(listSiteArguments, { params: { siteId: site.id }, query: q });
    const argCursor = (await args({ pageSize: '1', sentiment: 'for' })).body.metadata.nextCursor as string;
    expect((await args({ cursor: argCursor })).status).toBe(400);
    expect((await args({ sentiment: 'against', cursor: argCursor })).status).toBe(400);
    expect((await args({ sentiment: 'for', withVoteCount: '1', cursor: argCursor })).status).toBe(200);

    const walked = await walk((q) => args(q), { pageSize: '1' }, (page): Record<string, string> => (page % 2 ? { withVoteCount: '1' } : {}));
    expect(walked.seen).toHaveLength(3);
    expect(new Set(walked.seen.map((a) => a.id)).size).toBe(3);
  });

  it('the site list walks every site once; a site cursor is no idea cursor', async () => {
    await createSite();
    await createSite();
    const first = await invoke<ListEnvelope<SiteRecord>>(listSites, { query: { pageSize: '1' } });
    const cursor = first.body.metadata.nextCursor as string;
    expect((await ideas(1, { cursor })).status).toBeGreaterThanOrEqual(400);
    const { seen } = await walk((q) => invoke<ListEnvelope<SiteRecord>>(listSites, { query: q }), { pageSize: '50' });
    expect(new Set(seen.map((s) => s.id)).size).toBe(seen.length);
  });
});
