import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser } from '#tests/support/fixtures';
import { queryAll } from '#lib/store/db/query';
import { sitePk } from '#lib/store/db/keys';
import { argumentKeys } from '#lib/store/arguments/keys';
import { ballotKeys } from '#lib/store/ballots/keys';
import { readSiteTallies } from '#lib/store/ideas/tallies';
import type { BallotItem } from '#lib/store/ballots/ballots';
import { castVotes, seedArgument, seedIdeas } from './helpers.ts';
import { handler as deleteIdea } from '../../../functions/ideas/delete.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as getIdea } from '../../../functions/ideas/get.ts';
import { handler as createArgument } from '../../../functions/arguments/create.ts';
import { handler as castVote } from '../../../functions/votes/cast.ts';
import { getContentItem, markContentDeleting } from '#lib/store/content/content-items';
import { tallyGoneItem } from '#lib/store/ideas/tallies';
import type { ListEnvelope } from '#tests/support/bodies';
import type { IdeaRecord } from '#schemas/idea';

const ballotsOf = (siteId: number) =>
  queryAll<BallotItem>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':p': ballotKeys.ballotPrefix },
  });

/** The tallies the ballots imply: what the tally shards must hold. */
function recount(ballots: BallotItem[]) {
  const counts = new Map<number, Record<string, number>>();
  for (const ballot of ballots) {
    for (const [ideaId, vote] of Object.entries(ballot.votes)) {
      const tally = counts.get(Number(ideaId)) ?? {};
      tally[vote.opinion] = (tally[vote.opinion] ?? 0) + 1;
      counts.set(Number(ideaId), tally);
    }
  }
  return counts;
}

const argumentsOfIdea = (siteId: number, ideaId: number) =>
  queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':p': argumentKeys.argumentsOfIdeaPrefix(ideaId) },
  });

describe('deleting a voted idea', () => {
  it('removes its votes from every ballot and its tallies, leaving the other ideas exact', async () => {
    const site = await createSite({ votes: { isViewable: true } });
    const moderator = await createUser(site.id, 'moderator');
    const [a, b, c] = (await seedIdeas(site.id, 3)).map((i) => i.id) as [number, number, number];
    const [u1, u2, u3, u4] = await Promise.all([1, 2, 3, 4].map(() => createUser(site.id, 'member')));
    await castVotes(site.id, u1!.id, { [a]: 'yes', [b]: 'yes' });
    await castVotes(site.id, u2!.id, { [a]: 'no', [c]: 'yes' });
    await castVotes(site.id, u3!.id, { [a]: 'yes' });
    await castVotes(site.id, u4!.id, { [b]: 'no', [c]: 'yes' });
    await seedArgument(site.id, a, { sentiment: 'for' });
    await seedArgument(site.id, a, { sentiment: 'against' });
    const keptArgument = await seedArgument(site.id, b);

    const before = await readSiteTallies(site.id);
    expect(before.get(a)).toEqual({ yes: 2, no: 1 });
    const versionsBefore = new Map((await ballotsOf(site.id)).map((x) => [x.userId, x.version]));

    const res = await invoke(deleteIdea, { method: 'DELETE', params: { siteId: site.id, ideaId: a }, token: moderator.token });
    expect(res).toMatchObject({ status: 200, body: { id: a, deleted: true } });

    const ballots = await ballotsOf(site.id);
    const byUser = new Map(ballots.map((x) => [x.userId, x]));
    expect(Object.keys(byUser.get(u1!.id)!.votes)).toEqual([String(b)]);
    expect(Object.keys(byUser.get(u2!.id)!.votes)).toEqual([String(c)]);
    expect(byUser.get(u3!.id)!.votes).toEqual({});
    expect(Object.keys(byUser.get(u4!.id)!.votes).sort()).toEqual([String(b), String(c)].sort());
    // Ballots that held the idea were rewritten (new version); the other one was not touched.
    expect(byUser.get(u1!.id)!.version).toBe(versionsBefore.get(u1!.id)! + 1);
    expect(byUser.get(u4!.id)!.version).toBe(versionsBefore.get(u4!.id));

    const tallies = await readSiteTallies(site.id);
    expect(tallies.has(a)).toBe(false);
    expect(tallies.get(b)).toEqual({ yes: 1, no: 1 });
    expect(tallies.get(c)).toEqual({ yes: 2 });
    const implied = recount(ballots);
    for (const ideaId of [b, c]) expect(tallies.get(ideaId)).toEqual(implied.get(ideaId));

    expect(await argumentsOfIdea(site.id, a)).toEqual([]);
    expect((await argumentsOfIdea(site.id, b)).map((x) => (x as { id: number }).id)).toEqual([keptArgument.id]);

    const listed = await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id }, query: { sort: 'votes_desc', includeVoteCount: '1' } });
    expect(listed.body.records.map((r) => [r.id, r.yes])).toEqual([
      [c, 2],
      [b, 1],
    ]);
  });
});

describe('a delete that failed halfway', () => {
  it('leaves a tombstone that reads as gone, takes no new votes or arguments, and a retry finishes the job', async () => {
    const site = await createSite({ votes: { isViewable: true, isActive: true } });
    const moderator = await createUser(site.id, 'moderator');
    const voter = await createUser(site.id, 'member');
    const [a, b] = (await seedIdeas(site.id, 2)).map((i) => i.id) as [number, number];
    await castVotes(site.id, voter.id, { [a]: 'yes', [b]: 'yes' });
    await seedArgument(site.id, a);

    // The state a crash right after the first step of the delete leaves behind.
    expect(await markContentDeleting('IDEA', site.id, a, { with: [tallyGoneItem(site.id, a)] })).toBe(true);

    expect((await invoke(getIdea, { params: { siteId: site.id, ideaId: a } })).status).toBe(404);
    const listed = await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id } });
    expect(listed.body.records.map((r: { id: number }) => r.id)).toEqual([b]);
    const argument = await invoke(createArgument, {
      method: 'POST',
      params: { siteId: site.id, ideaId: a },
      token: voter.token,
      body: { description: 'An argument that arrives while the idea is being deleted' },
    });
    expect(argument.status).toBe(404);
    const vote = await invoke(castVote, { method: 'POST', params: { siteId: site.id }, token: moderator.token, body: [{ ideaId: a }] });
    expect(vote.status).toBe(400);

    const retry = await invoke(deleteIdea, { method: 'DELETE', params: { siteId: site.id, ideaId: a }, token: moderator.token });
    expect(retry).toMatchObject({ status: 200, body: { id: a, deleted: true } });
    expect(await argumentsOfIdea(site.id, a)).toEqual([]);
    const [ballot] = await ballotsOf(site.id);
    expect(Object.keys(ballot!.votes)).toEqual([String(b)]);
    expect((await readSiteTallies(site.id)).has(a)).toBe(false);
    expect(await getContentItem('IDEA', site.id, a, { includeDeleting: true })).toBeUndefined();
    expect((await invoke(deleteIdea, { method: 'DELETE', params: { siteId: site.id, ideaId: a }, token: moderator.token })).status).toBe(404);
  });
});
