/**
 * `npm run migrate` on a site whose tallies are still in the ten shard items of the design before issue
 * 17 (`TALLY#<n>`: a marker `i<id>` per votable idea, counters `v<id>_<opinion>`): every votable idea
 * gets its tally item with those counts — added to whatever was counted since the deploy — the shards
 * go, verify-votes agrees, the order by votes is right, and a rerun changes nothing.
 */
import type { ListEnvelope } from '#tests/support/bodies';
import type { IdeaRecord } from '#schemas/idea';
import { describe, expect, it } from 'vitest';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchDelete } from '#lib/store/db/batch';
import { doc, TABLE } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import { ideaKeys } from '#lib/store/ideas/keys';
import { migrate } from '#lib/migrate/run';
import { verifySiteVotes } from '#lib/results/verify';
import { createUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { sitePartition } from '../users/activity-helpers.ts';
import { castVotes, createIdeas, storedTallies, votingSite } from '#tests/support/vote-fixtures';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as updateIdea } from '../../../functions/ideas/update.ts';

describe('migrate: tally shards to one tally per idea', () => {
  it('moves the counts, keeps what was counted since, drops the shards; a rerun changes nothing', async () => {
    const site = await votingSite({ voteType: 'likes', isViewable: true });
    const [a, b, c] = await createIdeas(site.id, 3);
    const voters = await Promise.all([1, 2, 3].map(() => createUser(site.id)));
    for (const voter of voters) expect((await castVotes(site.id, voter.token, [{ ideaId: a! }])).status).toBe(200);
    expect((await castVotes(site.id, voters[0]!.token, [{ ideaId: b!, opinion: 'no' }])).status).toBe(200);
    const counted = await storedTallies(site.id);

    // The state the old design left: the counts in shards, no tally items. Idea c has no votes.
    await batchDelete([a!, b!, c!].map((id) => ideaKeys.ideaTally(site.id, id)));
    await doc.send(new PutCommand({ TableName: TABLE, Item: { PK: sitePk(site.id), SK: `TALLY#${a! % 10}`, [`i${a}`]: 1, [`v${a}_yes`]: 3 } }));
    await doc.send(
      new PutCommand({ TableName: TABLE, Item: { PK: sitePk(site.id), SK: `TALLY#${(a! + 1) % 10}`, [`i${b}`]: 1, [`v${b}_no`]: 1, [`i${c}`]: 1, [`v${c}_yes`]: 0, v999999_yes: 4 } }),
    );
    // After the deploy, before the migration: idea b is edited (its tally item holds only its copies).
    const edited = await invoke(updateIdea, {
      method: 'PUT',
      params: { siteId: site.id, ideaId: b! },
      body: { budget: 500 },
      token: (await createUser(site.id, 'moderator')).token,
    });
    expect(edited.status).toBe(200);

    const [report] = await migrate({ siteId: site.id, dryRun: false });
    expect(report).toMatchObject({ tallies: 3, skipped: 0 });
    expect(await storedTallies(site.id)).toEqual(counted);
    expect((await verifySiteVotes(site.id)).problems).toEqual([]);
    expect((await sitePartition(site.id)).filter((item) => String(item.SK).startsWith('TALLY#'))).toEqual([]);
    const page = await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id }, query: { sort: 'votes_desc', includeVoteCount: '1' } });
    expect(page.body.records.map((r) => [r.id, r.yes])).toEqual([[a, 3], [c, 0], [b, 0]]);
    // The edit's budget survived (the migration writes copies only where there were none).
    expect(page.body.records.find((r) => r.id === b)).toMatchObject({ budget: 500 });

    const [again] = await migrate({ siteId: site.id, dryRun: false });
    expect(again).toMatchObject({ tallies: 0, ideas: 0, users: 0, ballots: 0 });
    expect(await storedTallies(site.id)).toEqual(counted);
  });

  it('a vote on an idea of a site not yet migrated is refused, never miscounted', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [a] = await createIdeas(site.id, 1);
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: ideaKeys.ideaTally(site.id, a!) }));
    const voter = await createUser(site.id);
    expect((await castVotes(site.id, voter.token, [{ ideaId: a! }])).status).toBe(400);
  });
});
