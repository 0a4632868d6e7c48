/**
 * One user's rounds racing on their ballot (optimistic versions): the ballot and the tallies stay
 * consistent, whatever order the rounds commit in.
 */
import { describe, expect, it } from 'vitest';
import { getBallot } from '#lib/store/ballots/ballots';
import { createUser } from '#tests/support/fixtures';
import { allBallots, castVotes, createIdeas, expectTalliesMatchBallots, votingSite } from '#tests/support/vote-fixtures';

const statuses = (results: Array<{ status: number }>) =>
  results.reduce<Record<number, number>>((acc, r) => {
    acc[r.status] = (acc[r.status] ?? 0) + 1;
    return acc;
  }, {});

describe('one user, 50 parallel identical rounds', () => {
  it('withExisting error: exactly one 200 and 49 409s, one consistent ballot', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'error', maxIdeas: 5 });
    const ideas = await createIdeas(site.id, 3);
    const user = await createUser(site.id);
    const body = ideas.map((ideaId) => ({ ideaId }));
    const results = await Promise.all(Array.from({ length: 50 }, () => castVotes(site.id, user.token, body)));
    expect(statuses(results)).toEqual({ 200: 1, 409: 49 });
    const ballot = (await getBallot(site.id, user.id))!;
    expect(Object.keys(ballot.votes).map(Number).sort((a, b) => a - b)).toEqual(ideas);
    expect(ballot.version).toBe(1);
    expect(results.find((r) => r.status === 200)!.body.map((v: { id: number }) => v.id)).toEqual(
      ideas.map((i) => ballot.votes[String(i)]!.id),
    );
    expect(await expectTalliesMatchBallots(site.id)).toEqual(Object.fromEntries(ideas.map((i) => [i, { yes: 1 }])));
  });

  it('withExisting replace: all succeed with the same votes, one ballot, exact tallies', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 5 });
    const ideas = await createIdeas(site.id, 3);
    const user = await createUser(site.id);
    const body = ideas.map((ideaId) => ({ ideaId }));
    const results = await Promise.all(Array.from({ length: 50 }, () => castVotes(site.id, user.token, body)));
    expect(statuses(results)).toEqual({ 200: 50 });
    for (const r of results) expect(r.body).toEqual(results[0]!.body);
    expect(await allBallots(site.id)).toHaveLength(1);
    expect(await expectTalliesMatchBallots(site.id)).toEqual(Object.fromEntries(ideas.map((i) => [i, { yes: 1 }])));
  });

  it('likes: 50 parallel toggles of one idea end in a state the tallies agree with', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [idea] = await createIdeas(site.id, 1);
    const user = await createUser(site.id);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => castVotes(site.id, user.token, [{ ideaId: idea, opinion: i % 3 === 0 ? 'no' : 'yes' }])));
    // Every round either applied (200) or, after its bounded retries, asked the client to retry (409).
    for (const r of results) expect([200, 409]).toContain(r.status);
    const applied = results.filter((r) => r.status === 200).length;
    expect((await getBallot(site.id, user.id))!.version).toBe(applied);
    await expectTalliesMatchBallots(site.id);
  });
});

