/**
 * Many users voting at once on the same ideas (the same tally shards): the stored tallies equal
 * exactly what the ballots hold.
 */
import { describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '#tests/support/fixtures';
import { allBallots, castVotes, createIdeas, expectTalliesMatchBallots, votingSite } from '#tests/support/vote-fixtures';

const statuses = (results: Array<{ status: number }>) =>
  results.reduce<Record<number, number>>((acc, r) => {
    acc[r.status] = (acc[r.status] ?? 0) + 1;
    return acc;
  }, {});

/** `n` users, created 25 at a time (more at once starves DynamoDB Local). */
async function users(siteId: number, n: number): Promise<TestUser[]> {
  const out: TestUser[] = [];
  for (let done = 0; done < n; done += 25) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(25, n - done) }, () => createUser(siteId)))));
  }
  return out;
}

describe('100 users at once', () => {
  it('likes on the same idea: the tally is exactly 100', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [idea] = await createIdeas(site.id, 1);
    const voters = await users(site.id, 100);
    const results = await Promise.all(voters.map((u) => castVotes(site.id, u.token, [{ ideaId: idea }])));
    expect(statuses(results)).toEqual({ 200: 100 });
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [idea]: { yes: 100 } });
  });

  it('count rounds of 5 ideas: the tallies equal the ballots', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', minIdeas: 5, maxIdeas: 5 });
    const ideas = await createIdeas(site.id, 12);
    const voters = await users(site.id, 100);
    const roundOf = (n: number) => Array.from({ length: 5 }, (_, k) => ({ ideaId: ideas[(n + k * 7) % 12]! }));
    const results = await Promise.all(voters.map((u, n) => castVotes(site.id, u.token, roundOf(n))));
    expect(statuses(results)).toEqual({ 200: 100 });
    const tallies = await expectTalliesMatchBallots(site.id);
    expect(Object.values(tallies).reduce((sum, t) => sum + (t.yes ?? 0), 0)).toBe(500);
    // Each voter holds exactly their round.
    const ballots = await allBallots(site.id);
    expect(ballots).toHaveLength(100);
    for (const [n, u] of voters.entries()) {
      const ballot = ballots.find((b) => b.userId === u.id)!;
      expect(Object.keys(ballot.votes).map(Number).sort((a, b) => a - b)).toEqual(roundOf(n).map((e) => e.ideaId).sort((a, b) => a - b));
    }
  });

  it('100 users changing their votes in several rounds at once: tallies stay exact', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const ideas = await createIdeas(site.id, 4);
    const voters = await users(site.id, 100);
    await Promise.all(
      voters.map(async (u, n) => {
        for (let round = 0; round < 3; round++) {
          const res = await castVotes(site.id, u.token, [
            { ideaId: ideas[(n + round) % 4]!, opinion: (n + round) % 2 ? 'yes' : 'no' },
            { ideaId: ideas[(n * 3 + round) % 4 === (n + round) % 4 ? ((n + round + 1) % 4) : (n * 3 + round) % 4]!, opinion: 'yes' },
          ]);
          expect(res.status).toBe(200);
        }
      }),
    );
    await expectTalliesMatchBallots(site.id);
  });
});

