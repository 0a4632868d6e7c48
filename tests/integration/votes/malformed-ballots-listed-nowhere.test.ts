/**
 * A writer with table access puts an item that does not match the ballot's schema under a voter's
 * ballot key (docs/results.md "Malformed items"). Results and the votes exports count such an item
 * nowhere; the reads that show votes (the vote list, its OpenStad twin, a voter's own vote on the
 * ideas) show it nowhere either: no vote of it, never a 500, the other ballots listed as before, and a
 * warning in the log naming its key. Each test is the attack, then what must come out.
 */
import { vi } from 'vitest';

vi.hoisted(() => {
  // The warning is read below (tests run silent otherwise).
  process.env.LOG_LEVEL = 'warn';
});

import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { captureLogs } from '#tests/support/log-capture';
import { putMalformedBallot, votedSite } from '#tests/support/ballot-tampering';
import type { ListEnvelope } from '#tests/support/bodies';
import type { VoteRecord } from '#schemas/votes';
import { handler as listHandler } from '../../../functions/votes/list.ts';
import { handler as getIdea } from '../../../functions/ideas/get.ts';
import { handler as openstad } from '../../../functions/openstad/handler.ts';

const list = (siteId: number, query: Record<string, string>, token: string) =>
  invoke<ListEnvelope<VoteRecord>>(listHandler, { path: '/api/site/{siteId}/vote', params: { siteId }, query, token });

/** Every page of the list at `pageSize`, as the moderator sees it. */
async function allPages(siteId: number, pageSize: number, token: string) {
  const records: VoteRecord[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const res = await list(siteId, { pageSize: String(pageSize), ...(cursor ? { cursor } : {}) }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    records.push(...res.body.records);
    cursor = res.body.metadata.nextCursor ?? undefined;
    if (!cursor) return records;
  }
  throw new Error('paging did not end');
}

describe('a malformed item under a ballot key, on the reads that show votes', () => {
  let site: { id: number };
  let ideas: number[];
  let moderator: TestUser;
  /** A real user of the site whose ballot item a writer replaced with one whose votes are no map. */
  let victim: TestUser;
  let victimKey: string;
  /** What the moderator listed before the attack: the three voters' six votes. */
  let before: VoteRecord[];

  beforeAll(async () => {
    ({ site, ideas } = await votedSite());
    moderator = await createUser(site.id, 'moderator');
    before = await allPages(site.id, 100, moderator.token);
    expect(before).toHaveLength(6);
    victim = await createUser(site.id);
    victimKey = await putMalformedBallot(site.id, victim.id, { votes: 'yes' });
    // A second one in the same range, outside its votes: a text version.
    await putMalformedBallot(site.id, victim.id + 1, { version: 'one', votes: { [String(ideas[0])]: { id: 5, opinion: 'yes', createdAt: new Date().toISOString() } } });
  });

  it('the list answers 200 with the well-formed ballots only, on one page and page by page, and logs the item by its key', async () => {
    const logged: string[] = [];
    const restore = captureLogs(logged);
    let whole: Awaited<ReturnType<typeof list>>;
    try {
      whole = await list(site.id, {}, moderator.token);
    } finally {
      restore();
    }
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    expect(whole.body.records).toEqual(before);
    expect(logged.join('\n')).toContain(victimKey);

    expect(await allPages(site.id, 1, moderator.token)).toEqual(before);
  });

  it("filtered by the item's user id: 200, no votes", async () => {
    const res = await list(site.id, { userId: String(victim.id) }, moderator.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.records).toEqual([]);
  });

  it("the voter's own vote on an idea (includeUserVote): 200, none", async () => {
    const res = await invoke<{ userVote: unknown }>(getIdea, {
      path: '/api/site/{siteId}/idea/{ideaId}',
      params: { siteId: site.id, ideaId: ideas[0]! },
      query: { includeUserVote: '1' },
      token: victim.token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.userVote).toBeNull();
  });

  it('the OpenStad vote list answers 200 with the same votes', async () => {
    const res = await invoke<unknown[]>(openstad, { path: `/openstad/api/site/${site.id}/vote`, token: moderator.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toHaveLength(before.length);
  });
});
