/**
 * A page ordered by votes reads its authors beside its ideas, named by the `author` copy on each tally
 * item. The idea item stays the authority: a tally item from before the copy existed, or one whose copy
 * is wrong, costs one more read, never a wrong or missing user.
 */
import { describe, expect, it } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { ideaKeys } from '#lib/store/ideas/keys';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser } from '#tests/support/fixtures';
import type { ListEnvelope } from '#tests/support/bodies';
import type { IdeaRecord } from '#schemas/idea';
import { castVotes, seedIdeas } from './helpers.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as updateIdea } from '../../../functions/ideas/update.ts';

const byVotes = (siteId: number, token: string) =>
  invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId }, query: { includeUser: '1', sort: 'votes_desc' }, token });

describe('authors of a page ordered by votes', () => {
  it('shows each idea by its own author, also when the tally item has no copy or a wrong one', async () => {
    const site = await createSite();
    const moderator = await createUser(site.id, 'moderator');
    const [alice, bob, carol] = await Promise.all([createUser(site.id), createUser(site.id), createUser(site.id)]);
    const [a, b, c] = await Promise.all([
      seedIdeas(site.id, 1, { userId: alice.id }),
      seedIdeas(site.id, 1, { userId: bob.id }),
      seedIdeas(site.id, 1, { userId: carol.id }),
    ]).then((lists) => lists.map((list) => list[0]!));
    await castVotes(site.id, moderator.id, { [a!.id]: 'yes', [b!.id]: 'yes', [c!.id]: 'yes' });
    // b's tally from before the copy existed; c's copy names somebody else.
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: ideaKeys.ideaTally(site.id, b!.id), UpdateExpression: 'REMOVE author' }));
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: ideaKeys.ideaTally(site.id, c!.id), UpdateExpression: 'SET author = :a', ExpressionAttributeValues: { ':a': alice.id } }));

    const res = await byVotes(site.id, moderator.token);
    expect(res.status).toBe(200);
    const userOf = new Map(res.body.records.map((r) => [r.id, r.user?.id]));
    expect(userOf).toEqual(new Map([[a!.id, alice.id], [b!.id, bob.id], [c!.id, carol.id]]));
  });

  it("follows a moderator's change of an idea's userId at once, copy included", async () => {
    const site = await createSite();
    const moderator = await createUser(site.id, 'moderator');
    const [alice, bob] = await Promise.all([createUser(site.id), createUser(site.id)]);
    const [idea] = await seedIdeas(site.id, 1, { userId: alice.id });
    await castVotes(site.id, moderator.id, { [idea!.id]: 'yes' });
    const moved = await invoke(updateIdea, { params: { siteId: site.id, ideaId: idea!.id }, body: { userId: bob.id }, token: moderator.token });
    expect(moved.status).toBe(200);
    // The copy moved in the idea's own transaction, so the page needs no second read for it.
    const tally = await doc.send(new GetCommand({ TableName: TABLE, Key: ideaKeys.ideaTally(site.id, idea!.id), ConsistentRead: true }));
    expect(tally.Item?.['author']).toBe(bob.id);
    const res = await byVotes(site.id, moderator.token);
    expect(res.body.records.map((r) => [r.userId, r.user?.id])).toEqual([[bob.id, bob.id]]);
  });
});
