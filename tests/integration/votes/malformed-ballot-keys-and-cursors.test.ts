/**
 * Red team (77a3763): a writer with table access plants a malformed item in a site's ballot range
 * (SK `BALLOT#...`), not under a voter's own ballot key but under a key with a tail, which the range
 * Query still reads (`BALLOT#<u>#<anything>` sorts between `BALLOT#<u>` and `BALLOT#<u+1>`). The vote
 * list leaves the item out (`wellFormedBallots`), but its page's cursor is made from DynamoDB's
 * LastEvaluatedKey (`idFromSk`, the number after the last `#`): when the planted item ends a page,
 * the next page starts wherever the planted key says. And the warning names the item by key and
 * problem, never a value, not even a value an attacker hid in a map key.
 *
 * Each test: the attack, then what must come out (the valid ballots, page by page, as before).
 */
import { vi } from 'vitest';

vi.hoisted(() => {
  process.env.LOG_LEVEL = 'warn';
});

import { PutCommand } from '@aws-sdk/lib-dynamodb';
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
