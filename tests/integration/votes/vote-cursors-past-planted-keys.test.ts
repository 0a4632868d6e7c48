/**
 * The vote list's cursor after an item a writer planted in the ballot range (it carries that item's raw
 * key, `k`, so the next page starts right past it): `k` is inside the cursor's seal (lib/store/db/cursor.ts:
 * encrypted, bound to the site, the list and its filters), so a client cannot choose one; replayed,
 * moved to another site or list, altered, or far past its key's range, a cursor is a 400, and paging
 * past planted keys lists every vote once and ends.
 */
import { vi } from 'vitest';

vi.hoisted(() => {
  process.env.LOG_LEVEL = 'error';
});

import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { sitePk } from '#lib/store/db/keys';
import { encodeVoteCursor } from '#lib/votes/list-cursor';
import { encodeCursorObject } from '#lib/store/db/cursor';
import { createUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { castVotes, createIdeas, votingSite } from '#tests/support/vote-fixtures';
import type { ListEnvelope } from '#tests/support/bodies';
import type { VoteRecord } from '#schemas/votes';
import { handler as listHandler } from '../../../functions/votes/list.ts';

const list = (siteId: number, query: Record<string, string>, token?: string) =>
  invoke<ListEnvelope<VoteRecord>>(listHandler, { path: '/api/site/{siteId}/vote', params: { siteId }, query, ...(token ? { token } : {}) });

/** Every page; stops (and says so) after `maxPages`, or at a non-200. */
async function allPages(siteId: number, pageSize: number, token: string | undefined, maxPages = 30) {
  const records: VoteRecord[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await list(siteId, { pageSize: String(pageSize), ...(cursor ? { cursor } : {}) }, token);
    if (res.status !== 200) return { records, cursors, failed: { status: res.status, body: res.body }, ended: false };
    records.push(...res.body.records);
    cursor = res.body.metadata.nextCursor ?? undefined;
    if (!cursor) return { records, cursors, ended: true };
    cursors.push(cursor);
  }
  return { records, cursors, ended: false };
}

async function plantUnder(siteId: number, sk: string, userId: number) {
  await doc.send(
    new PutCommand({ TableName: TABLE, Item: { PK: sitePk(siteId), SK: sk, siteId, userId, version: 1, updatedAt: new Date().toISOString(), votes: 'yes' } }),
  );
}

async function threeVoters() {
  const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 10, isViewable: true });
  const ideas = await createIdeas(site.id, 3);
  const voters = (await Promise.all([createUser(site.id), createUser(site.id), createUser(site.id)])).sort((a, b) => a.id - b.id);
  for (const [i, voter] of voters.entries()) expect((await castVotes(site.id, voter.token, [{ ideaId: ideas[i]! }])).status).toBe(200);
  const moderator = await createUser(site.id, 'moderator');
  const admin = await createUser(site.id, 'admin');
  return { site, ideas, voters, moderator, admin };
}

/** A site with a `k` cursor: a planted item `BALLOT#<first>x` ends page 1 at pageSize 2. */
async function siteWithKeyCursor() {
  const s = await threeVoters();
  const plantedSk = `${ballotKeys.ballot(s.site.id, s.voters[0]!.id).SK}x`;
  await plantUnder(s.site.id, plantedSk, s.voters[0]!.id);
  const page1 = await list(s.site.id, { pageSize: '2' }, s.moderator.token);
  expect(page1.status).toBe(200);
  const kCursor = page1.body.metadata.nextCursor!;
  expect(kCursor).toBeTruthy();
  return { ...s, plantedSk, page1, kCursor };
}

describe('loop: a planted key whose "next user" id is one digit wider (resumeAfter: fromUserId + 1 would sort BEFORE the key)', () => {
  // pad() is 10 wide, MAX_KEY_ID is 2^53-1: `BALLOT#9999999999` -> from `BALLOT#10000000000` would go back;
  // HELD because every all-9 id of 10+ digits sorts above the range's upper end `BALLOT#9007199254740991`,
  // so it is never read (the width only changes at all-9 ids). The last two are the in-range extremes.
  for (const sk of ['BALLOT#9999999999', 'BALLOT#9999999999#x', 'BALLOT#99999999999', 'BALLOT#9007199254740990#x', 'BALLOT#9007199254740991']) {
    it(`planted ${sk}: paging at pageSize 1 ends, each vote once`, async () => {
      const { site, moderator } = await threeVoters();
      const before = (await allPages(site.id, 100, moderator.token)).records;
      await plantUnder(site.id, sk, 9999999999);
      const paged = await allPages(site.id, 1, moderator.token, 12);
      expect(paged.failed).toBeUndefined();
      expect(paged.ended, `cursors kept coming (${paged.cursors.length} pages)`).toBe(true);
      expect(paged.records.map((r) => r.id)).toEqual(before.map((r) => r.id));
    });
  }
});

describe('max-length planted key (1024 bytes, multi-byte): its k cursor stays under the 2048 limit', () => {
  it('every page at pageSize 2 is a 200 and lists each vote once', async () => {
    const { site, voters, moderator } = await threeVoters();
    const before = (await allPages(site.id, 100, moderator.token)).records;
    const base = `${ballotKeys.ballot(site.id, voters[0]!.id).SK}x`;
    let sk = base;
    while (Buffer.byteLength(sk + 'é', 'utf8') <= 1024) sk += 'é';
    while (Buffer.byteLength(sk + 'x', 'utf8') <= 1024) sk += 'x';
    expect(Buffer.byteLength(sk, 'utf8')).toBe(1024);
    await plantUnder(site.id, sk, voters[0]!.id);
    const paged = await allPages(site.id, 2, moderator.token);
    expect(paged.failed).toBeUndefined();
    expect(paged.ended).toBe(true);
    expect(paged.records.map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(Math.max(...paged.cursors.map((c) => c.length))).toBeLessThanOrEqual(2048);
  });
});

describe('a k cursor transplanted, replayed, altered', () => {
  it("site A's k cursor on site B (B's admin): 400; with s/AAD of B it cannot be minted by a client", async () => {
    const a = await siteWithKeyCursor();
    const b = await threeVoters();
    const res = await list(b.site.id, { pageSize: '2', cursor: a.kCursor }, b.admin.token);
    expect(res.status).toBe(400);
  });

  it('unfiltered k cursor on the userId-filtered list, and on the ideaId/opinion-filtered list: 400', async () => {
    const a = await siteWithKeyCursor();
    const filters: Array<Record<string, string>> = [{ userId: String(a.voters[0]!.id) }, { ideaId: String(a.ideas[0]!) }, { opinion: 'yes' }];
    for (const q of filters) {
      const res = await list(a.site.id, { pageSize: '2', cursor: a.kCursor, ...q }, a.moderator.token);
      expect(res.status, JSON.stringify(q)).toBe(400);
    }
  });

  it('a userId-filtered cursor (same site) on the unfiltered list: 400', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 10, isViewable: true });
    const ideas = await createIdeas(site.id, 3);
    const voter = await createUser(site.id);
    const moderator = await createUser(site.id, 'moderator');
    expect((await castVotes(site.id, voter.token, ideas.map((ideaId) => ({ ideaId })))).status).toBe(200);
    const filtered = await list(site.id, { pageSize: '1', userId: String(voter.id) }, moderator.token);
    expect(filtered.status).toBe(200);
    const cursor = filtered.body.metadata.nextCursor!;
    expect(cursor).toBeTruthy();
    expect((await list(site.id, { pageSize: '1', cursor }, moderator.token)).status).toBe(400);
  });

  it("anonymous browser replays a moderator's k cursor (pageSize changed): 200, no user ids, the rest of the votes once", async () => {
    const a = await siteWithKeyCursor();
    const all = (await allPages(a.site.id, 100, a.moderator.token)).records;
    const res = await list(a.site.id, { pageSize: '50', cursor: a.kCursor });
    expect(res.status).toBe(200);
    expect(res.body.records.every((r) => r.userId === undefined)).toBe(true);
    const seen = [...a.page1.body.records.map((r) => r.id), ...res.body.records.map((r) => r.id)].sort((x, y) => x - y);
    expect(seen).toEqual(all.map((r) => r.id).sort((x, y) => x - y));
  });

  it('replay after the planted item is deleted: still 200, pages on from the same place (no repeat, no skip)', async () => {
    const a = await siteWithKeyCursor();
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: { PK: sitePk(a.site.id), SK: a.plantedSk } }));
    const res = await list(a.site.id, { pageSize: '50', cursor: a.kCursor }, a.moderator.token);
    expect(res.status).toBe(200);
    const ids = [...a.page1.body.records, ...res.body.records].map((r) => r.userId);
    expect(ids).toEqual(a.voters.map((v) => v.id));
  });

  it('oversized (2049), one bit flipped, non-base64url, empty: 400 never 5xx', async () => {
    const a = await siteWithKeyCursor();
    const flipped = (a.kCursor[10] === 'A' ? 'B' : 'A');
    const odd = [
      'A'.repeat(2049),
      'A'.repeat(2048),
      a.kCursor.slice(0, 10) + flipped + a.kCursor.slice(11),
      a.kCursor + 'A',
      a.kCursor.slice(0, -1),
      'BALLOT#0000000001',
      '%%%%',
      Buffer.from(JSON.stringify({ s: a.site.id, k: Buffer.from('BALLOT#').toString('base64url') })).toString('base64url'),
    ];
    for (const cursor of odd) {
      const res = await list(a.site.id, { pageSize: '2', cursor }, a.moderator.token);
      expect(res.status, cursor.slice(0, 40)).toBe(400);
    }
  });
});

describe('cursors only the server can seal, holding what it never writes', () => {
  // Reachable only with the cursor key: the decoder still lets nothing through that DynamoDB would refuse.
  it('k outside the BETWEEN range (BALLOT# alone, BALLOT#~), u/i mixed with k, k of another prefix: 400 (never 500)', async () => {
    const site = await votingSite({ isViewable: true });
    const moderator = await createUser(site.id, 'moderator');
    const k = (sk: string) => Buffer.from(sk, 'utf8').toString('base64url');
    const cases: Array<[string, string]> = [
      ['afterSk BALLOT#', encodeVoteCursor(site.id, {}, { afterSk: 'BALLOT#' })],
      ['afterSk BALLOT#~ (after range)', encodeVoteCursor(site.id, {}, { afterSk: 'BALLOT#~' })],
      ['afterSk IDEA#', encodeCursorObject({ s: site.id, k: k('IDEA#0000000001') }, { siteId: site.id, list: 'votes', query: {} })],
      ['k + u', encodeCursorObject({ s: site.id, k: k('BALLOT#0000000001x'), u: 1 }, { siteId: site.id, list: 'votes', query: {} })],
      ['k padded base64', encodeCursorObject({ s: site.id, k: k('BALLOT#0000000001x') + '=' }, { siteId: site.id, list: 'votes', query: {} })],
    ];
    const statuses: Record<string, number> = {};
    for (const [name, cursor] of cases) statuses[name] = (await list(site.id, { cursor }, moderator.token)).status;
    expect(statuses).toEqual(Object.fromEntries(cases.map(([name]) => [name, 400])));
  });
});

describe('skip / repeat: pages ending mid-ballot and on planted keys, filtered and unfiltered', () => {
  it('voters with 3 votes each, planted keys after each ballot: every pageSize 1..7, with and without ideaId, lists each vote once', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 10, isViewable: true });
    const ideas = await createIdeas(site.id, 3);
    const voters = (await Promise.all([createUser(site.id), createUser(site.id), createUser(site.id)])).sort((a, b) => a.id - b.id);
    for (const voter of voters) expect((await castVotes(site.id, voter.token, ideas.map((ideaId) => ({ ideaId })))).status).toBe(200);
    const moderator = await createUser(site.id, 'moderator');
    const before = (await allPages(site.id, 100, moderator.token)).records;
    expect(before).toHaveLength(9);
    for (const voter of voters) {
      const own = ballotKeys.ballot(site.id, voter.id).SK;
      await plantUnder(site.id, `${own}#t`, voter.id);
      await plantUnder(site.id, `${own}z`, voter.id);
    }
    for (let pageSize = 1; pageSize <= 7; pageSize++) {
      const paged = await allPages(site.id, pageSize, moderator.token);
      expect(paged.failed, String(pageSize)).toBeUndefined();
      expect(paged.ended, String(pageSize)).toBe(true);
      expect(paged.records.map((r) => r.id), String(pageSize)).toEqual(before.map((r) => r.id));
      // the ideaId-filtered list (FilterExpression: a page may read only planted items)
      const records: VoteRecord[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 40; page++) {
        const res = await list(site.id, { pageSize: String(pageSize), ideaId: String(ideas[1]!), ...(cursor ? { cursor } : {}) }, moderator.token);
        expect(res.status).toBe(200);
        records.push(...res.body.records);
        cursor = res.body.metadata.nextCursor ?? undefined;
        if (!cursor) break;
      }
      expect(cursor, `ideaId list ended at pageSize ${pageSize}`).toBeUndefined();
      expect(records.map((r) => r.id)).toEqual(before.filter((r) => r.ideaId === ideas[1]).map((r) => r.id));
    }
  });

});
