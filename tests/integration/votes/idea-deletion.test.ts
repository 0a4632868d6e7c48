/**
 * Deleting a voted idea (idea item + tally marker in one transaction, then `removeIdeaFromBallots`, as
 * the idea delete does) keeps ballots and tallies consistent, and no vote can land on it afterwards.
 */
import { describe, expect, it } from 'vitest';
import { getBallot } from '#lib/store/ballots/ballots';
import { readSiteTallies } from '#lib/store/ideas/tallies';
import { removeIdeaFromBallots } from '#lib/votes/remove-votes';
import { createUser } from '#tests/support/fixtures';
import {
  allBallots,
  castVotes,
  createIdea,
  createIdeas,
  deleteIdea,
  expectTalliesMatchBallots,
  votingSite,
} from '#tests/support/vote-fixtures';
import { errorOf } from '#tests/support/bodies';

describe('deleting a voted idea', () => {
  it('removes its votes from every ballot and its tally; other votes and tallies stay exact', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [x, y, z] = await createIdeas(site.id, 3);
    const [u1, u2, u3, u4] = [await createUser(site.id), await createUser(site.id), await createUser(site.id), await createUser(site.id)];
    await castVotes(site.id, u1.token, [{ ideaId: x, opinion: 'yes' }, { ideaId: y, opinion: 'yes' }]);
    await castVotes(site.id, u2.token, [{ ideaId: x, opinion: 'no' }, { ideaId: z, opinion: 'no' }]);
    await castVotes(site.id, u3.token, [{ ideaId: x, opinion: 'yes' }]);
    await castVotes(site.id, u4.token, [{ ideaId: y, opinion: 'no' }]);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [x]: { yes: 2, no: 1 }, [y]: { yes: 1, no: 1 }, [z]: { no: 1 } });
    const u4Before = await getBallot(site.id, u4.id);

    await deleteIdea(site.id, x);

    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [y]: { yes: 1, no: 1 }, [z]: { no: 1 } });
    for (const ballot of await allBallots(site.id)) expect(ballot.votes).not.toHaveProperty(String(x));
    expect(Object.keys((await getBallot(site.id, u1.id))!.votes).map(Number)).toEqual([y]);
    expect((await getBallot(site.id, u3.id))!.votes).toEqual({});
    // A ballot without the idea is not touched.
    expect(await getBallot(site.id, u4.id)).toEqual(u4Before);
    // Neither marker nor counters are left: the idea is not votable and has no tally.
    expect((await readSiteTallies(site.id)).has(x)).toBe(false);

    // Running the cascade again changes nothing (the idea delete may retry it).
    await removeIdeaFromBallots(site.id, x);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [y]: { yes: 1, no: 1 }, [z]: { no: 1 } });
  });

  it('a vote on the deleted idea is a 400 with its entry path; a user left without votes may vote again', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'error' });
    const [x, y] = await createIdeas(site.id, 2);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: x }])).status).toBe(200);
    await deleteIdea(site.id, x);
    const res = await castVotes(site.id, user.token, [{ ideaId: y }, { ideaId: x }]);
    expect(res.status).toBe(400);
    expect(errorOf(res.body).details).toEqual([{ path: '[1].ideaId', message: expect.any(String) }]);
    // The ballot is empty now, so `withExisting: error` does not block a new round.
    expect((await castVotes(site.id, user.token, [{ ideaId: y }])).status).toBe(200);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [y]: { yes: 1 } });
  });

  it('an idea deleted between a round\'s read and its write fails the round with a 400 (the marker check)', async () => {
    const site = await votingSite({ voteType: 'likes' });
    // Ideas in every shard, so the failing condition finds an existing shard without the marker...
    const ideas = await createIdeas(site.id, 10);
    const gone = await createIdea(site.id, { withoutMarker: true });
    const user = await createUser(site.id);
    const res = await castVotes(site.id, user.token, [{ ideaId: ideas[0] }, { ideaId: gone.id, opinion: 'no' }]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ValidationError', details: [{ path: '[1].ideaId' }] });
    expect(await getBallot(site.id, user.id)).toBeUndefined();
    expect(await expectTalliesMatchBallots(site.id)).toEqual({});

    // ...and on a site whose shard item does not exist at all.
    const bare = await votingSite({ voteType: 'likes' });
    const lonely = await createIdea(bare.id, { withoutMarker: true });
    const bareUser = await createUser(bare.id);
    const lonelyRes = await castVotes(bare.id, bareUser.token, [{ ideaId: lonely.id }]);
    expect(lonelyRes.status).toBe(400);
    expect(errorOf(lonelyRes.body).details).toEqual([{ path: '[0].ideaId', message: expect.any(String) }]);
  });

  it('deleting an idea while 30 users vote on it leaves no vote on it and exact tallies', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [x, y] = await createIdeas(site.id, 2);
    const voters = await Promise.all(Array.from({ length: 30 }, () => createUser(site.id)));
    // Half of them already hold a vote on x (they toggle it off or switch during the delete).
    await Promise.all(voters.slice(0, 15).map((u) => castVotes(site.id, u.token, [{ ideaId: x }])));
    const rounds = voters.map((u, n) => castVotes(site.id, u.token, [{ ideaId: x, opinion: n % 2 ? 'yes' : 'no' }, { ideaId: y }]));
    await new Promise((r) => setTimeout(r, 20));
    await deleteIdea(site.id, x);
    const results = await Promise.all(rounds);
    for (const r of results) expect([200, 400]).toContain(r.status);
    for (const ballot of await allBallots(site.id)) expect(ballot.votes).not.toHaveProperty(String(x));
    const tallies = await expectTalliesMatchBallots(site.id);
    expect(tallies[x]).toBeUndefined();
    expect((await readSiteTallies(site.id)).has(x)).toBe(false);
  });
});
