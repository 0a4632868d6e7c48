/**
 * Test data for idea and article tests, written through lib/store primitives (fast, no HTTP):
 * ideas, arguments, and votes as the voting feature stores them (a ballot and its tally change in
 * one transaction).
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { userKeys } from '#lib/store/users/keys';
import { voteIdOf } from '#lib/votes/ids';
import { newId, newIds } from '#lib/store/db/ids';
import { getBallot, type BallotItem } from '#lib/store/ballots/ballots';
import { tallyChangeItem } from '#lib/store/ideas/tallies';
import { putNewIdea, type IdeaItem } from '#lib/store/ideas/ideas';
import { putNewArgument } from '#lib/store/arguments/arguments';
import type { ArgumentItem } from '#lib/arguments/record';

/** Field values that pass the default limits (title 10-50, summary 20-140, description 140-5000). */
export const validIdea = (n: number | string = 1) => ({
  title: `A good idea ${n}`.padEnd(12, '.'),
  summary: `A summary of idea ${n} that is long enough`,
  description: `A description of idea ${n}. `.padEnd(160, 'x'),
});

/** `count` ideas with consecutive ids (one block, as a seed makes them); `fieldsOf(i)` sets the i-th idea's own fields. */
export async function seedIdeas(siteId: number, count: number, fields: Partial<IdeaItem> = {}, fieldsOf: (i: number) => Partial<IdeaItem> = () => ({})): Promise<IdeaItem[]> {
  const first = newIds(count)[0]!;
  const now = new Date().toISOString();
  const items: IdeaItem[] = [];
  for (let i = 0; i < count; i++) {
    const id = first + i;
    items.push({
      id,
      siteId,
      userId: null,
      ...validIdea(id),
      status: 'OPEN',
      budget: null,
      extraData: {},
      createdAt: now,
      updatedAt: now,
      version: 1,
      ...fields,
      ...fieldsOf(i),
    });
  }
  // A few at a time: DynamoDB Local is shared with the other test files.
  for (let i = 0; i < items.length; i += 10) {
    const outcomes = await Promise.all(items.slice(i, i + 10).map((item) => putNewIdea(item)));
    if (outcomes.some((o) => o !== 'ok')) throw new Error('seedIdeas failed');
  }
  return items;
}

export async function seedArgument(
  siteId: number,
  ideaId: number,
  fields: Partial<ArgumentItem> = {},
): Promise<ArgumentItem> {
  const id = newId();
  const now = new Date().toISOString();
  const item: ArgumentItem = {
    id,
    siteId,
    ideaId,
    userId: null,
    parentId: null,
    sentiment: 'for',
    description: `Argument ${id} with a description long enough to pass`,
    createdAt: now,
    updatedAt: now,
    yes: 0,
    ...fields,
  };
  // The argument create's own store write (the argument and its count on the idea, in one transaction).
  const outcome = await putNewArgument(item);
  if (outcome !== 'ok') throw new Error(`seedArgument: ${outcome}`);
  return item;
}

/**
 * Sets the user's votes (ideaId -> opinion) as the voting feature would: the ballot rewritten on its
 * version and the tallies changed by the difference, in one transaction.
 */
export async function castVotes(siteId: number, userId: number, votes: Record<number, string>): Promise<void> {
  const old = await getBallot(siteId, userId);
  const now = new Date().toISOString();
  const deltas = new Map<number, Record<string, number>>();
  const add = (ideaId: number, opinion: string, delta: number) => {
    const tally = deltas.get(ideaId) ?? {};
    tally[opinion] = (tally[opinion] ?? 0) + delta;
    deltas.set(ideaId, tally);
  };
  for (const [ideaId, vote] of Object.entries(old?.votes ?? {})) add(Number(ideaId), vote.opinion, -1);
  const newVotes: BallotItem['votes'] = {};
  let n = old?.voteSeq ?? 0;
  for (const [ideaId, opinion] of Object.entries(votes)) {
    add(Number(ideaId), opinion, 1);
    newVotes[ideaId] = { id: voteIdOf(userId, ++n), opinion, createdAt: now };
  }
  const ballot: BallotItem & { voteSeq: number } = { siteId, userId, votes: newVotes, version: (old?.version ?? 0) + 1, updatedAt: now, voteSeq: n };
  await doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: TABLE,
            Item: { ...ballotKeys.ballot(siteId, userId), ...userKeys.ownedBy(userId, 'BALLOT', siteId), ...ballot },
            ...(old
              ? { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': old.version } }
              : { ConditionExpression: 'attribute_not_exists(PK)' }),
          },
        },
        ...[...deltas].map(([ideaId, change]) => tallyChangeItem(siteId, ideaId, change, { addsVotes: ideaId in votes })),
      ],
    }),
  );
}
