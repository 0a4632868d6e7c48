/**
 * The vote list (`GET /vote`) over an item a writer with table access planted in a site's ballot range
 * (SK `BALLOT#...`) under a key of its own choosing: a ballot key with a tail (`BALLOT#<u>#<anything>`
 * sorts between `BALLOT#<u>` and the next user's ballot) or any other key. The list leaves the item out
 * (`wellFormedBallots`), and when it ends a page the next page starts right past it, wherever it sorts
 * (lib/store/ballots/keys.ts `resumeAfter`): every valid vote is listed once, no page is a 400. The
 * warning about the item names its key and a problem holding no stored text, not even a map key.
 */
import { vi } from 'vitest';

vi.hoisted(() => {
  process.env.LOG_LEVEL = 'warn';
});

import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { sitePk } from '#lib/store/db/keys';
import { createUser, type TestUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { captureLogs } from '#tests/support/log-capture';
import { putMalformedBallot } from '#tests/support/ballot-tampering';
import { castVotes, createIdeas, votingSite } from '#tests/support/vote-fixtures';
import type { ListEnvelope } from '#tests/support/bodies';
import type { VoteRecord } from '#schemas/votes';
import { handler as listHandler } from '../../../functions/votes/list.ts';

const list = (siteId: number, query: Record<string, string>, token: string) =>
  invoke<ListEnvelope<VoteRecord>>(listHandler, { path: '/api/site/{siteId}/vote', params: { siteId }, query, token });

/** Every page at `pageSize`; a non-200 page ends it with that answer. */
async function allPages(siteId: number, pageSize: number, token: string): Promise<{ records: VoteRecord[]; failed?: { status: number; body: unknown } }> {
  const records: VoteRecord[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const res = await list(siteId, { pageSize: String(pageSize), ...(cursor ? { cursor } : {}) }, token);
    if (res.status !== 200) return { records, failed: { status: res.status, body: res.body } };
    records.push(...res.body.records);
    cursor = res.body.metadata.nextCursor ?? undefined;
    if (!cursor) return { records };
  }
  throw new Error('paging did not end');
}

/** A site whose three voters cast one vote each; voters sorted by user id. */
async function threeVoters() {
  const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 10, isViewable: true });
  const ideas = await createIdeas(site.id, 3);
  const voters = (await Promise.all([createUser(site.id), createUser(site.id), createUser(site.id)])).sort((a, b) => a.id - b.id);
  for (const [i, voter] of voters.entries()) expect((await castVotes(site.id, voter.token, [{ ideaId: ideas[i]! }])).status).toBe(200);
  const moderator = await createUser(site.id, 'moderator');
  return { site, ideas, voters, moderator };
}

/** A malformed item (votes not a map) under `SK`, a key in the ballot range of its own choosing. */
async function plantUnder(siteId: number, sk: string, userId: number) {
  await doc.send(
    new PutCommand({ TableName: TABLE, Item: { PK: sitePk(siteId), SK: sk, siteId, userId, version: 1, updatedAt: new Date().toISOString(), votes: 'yes' } }),
  );
}

describe('a malformed item under a ballot-range key with a tail, and the vote list cursor', () => {
  let site: { id: number };
  let voters: TestUser[];
  let moderator: TestUser;
  let before: VoteRecord[];

  beforeAll(async () => {
    ({ site, voters, moderator } = await threeVoters());
    before = (await allPages(site.id, 100, moderator.token)).records;
    expect(before).toHaveLength(3);
  });

  it('a numeric tail (BALLOT#<first voter>#9000000000000000): every page at pageSize 2 still lists all three votes', async () => {
    const first = voters[0]!;
    await plantUnder(site.id, `${ballotKeys.ballot(site.id, first.id).SK}#9000000000000000`, first.id);
    // The range holds: first voter's ballot, the planted item, the two other ballots. Page 1 reads two.
    const paged = await allPages(site.id, 2, moderator.token);
    expect(paged.failed).toBeUndefined();
    expect(paged.records.map((r) => r.userId)).toEqual(before.map((r) => r.userId));
  });
});

describe('a malformed item under a ballot-range key with a non-numeric tail', () => {
  let site: { id: number };
  let voters: TestUser[];
  let moderator: TestUser;
  let before: VoteRecord[];

  beforeAll(async () => {
    ({ site, voters, moderator } = await threeVoters());
    before = (await allPages(site.id, 100, moderator.token)).records;
    expect(before).toHaveLength(3);
    const first = voters[0]!;
    await plantUnder(site.id, `${ballotKeys.ballot(site.id, first.id).SK}#x`, first.id);
  });

  it('every page at pageSize 2 answers 200 and lists all three votes (no dead cursor)', async () => {
    const paged = await allPages(site.id, 2, moderator.token);
    expect(paged.failed).toBeUndefined();
    expect(paged.records.map((r) => r.userId)).toEqual(before.map((r) => r.userId));
  });
});

describe('a malformed item under a key no ballot key begins (the first voter\'s padded id with text after it)', () => {
  it('every page at pageSize 2 answers 200 and lists all three votes: the next page starts right after that key', async () => {
    const { site, voters, moderator } = await threeVoters();
    const before = (await allPages(site.id, 100, moderator.token)).records;
    const first = voters[0]!;
    await plantUnder(site.id, `${ballotKeys.ballot(site.id, first.id).SK}x`, first.id);
    const paged = await allPages(site.id, 2, moderator.token);
    expect(paged.failed).toBeUndefined();
    expect(paged.records.map((r) => r.userId)).toEqual(before.map((r) => r.userId));
  });
});

describe('a well-formed copy of a ballot under a ballot key with a tail', () => {
  it('is listed nowhere: each vote once', async () => {
    const { site, voters, moderator } = await threeVoters();
    const before = (await allPages(site.id, 100, moderator.token)).records;
    const own = ballotKeys.ballot(site.id, voters[0]!.id);
    const ballot = (await doc.send(new GetCommand({ TableName: TABLE, Key: own, ConsistentRead: true }))).Item!;
    await doc.send(new PutCommand({ TableName: TABLE, Item: { ...ballot, SK: `${own.SK}#copy` } }));
    for (const pageSize of [1, 2, 100]) expect((await allPages(site.id, pageSize, moderator.token)).records, String(pageSize)).toEqual(before);
  });
});

describe("the warning names the item's key and problem, never a value", () => {
  it('a planted map key (a person\'s e-mail as the idea id of a vote) is not logged', async () => {
    const site = await votingSite({ isViewable: true });
    const moderator = await createUser(site.id, 'moderator');
    const planted = await createUser(site.id);
    const secret = 'jane.doe.secret@example.org';
    const key = await putMalformedBallot(site.id, planted.id, { votes: { [secret]: { id: 'not-a-number', opinion: 'secret-opinion-value', createdAt: 'x' } } });
    const logged: string[] = [];
    const restore = captureLogs(logged);
    let res: Awaited<ReturnType<typeof list>>;
    try {
      res = await list(site.id, {}, moderator.token);
    } finally {
      restore();
    }
    expect(res.status).toBe(200);
    const text = logged.join('\n');
    expect(text).toContain(key);
    expect(text).not.toContain('secret-opinion-value');
    expect(text).not.toContain('not-a-number');
    expect(text).not.toContain(secret);
  });
});
