/**
 * Ballots: one item per user per site (`SK = BALLOT#<userId>`) holding the user's whole current vote
 * set. A vote round rewrites the ballot (conditioned on its `version`) and updates the tally shards in
 * one transaction, so a round is all-or-nothing and tallies always equal the votes held.
 * The voting feature adds the writes; reads used elsewhere (an idea's `userVote`) live here too.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/client';
import { keys, sitePk } from '#lib/store/keys';
import { queryAll } from '#lib/store/query';
import { tallyUpdateItems, unregisterIdea } from '#lib/store/tallies';

export interface BallotVote {
  /** The vote's own id (from the `vote` counter). */
  id: number;
  opinion: string;
  createdAt: string;
}

export interface BallotItem {
  siteId: number;
  userId: number;
  /** Keyed by idea id (as a string: DynamoDB map keys are strings). */
  votes: Record<string, BallotVote>;
  /** Incremented by every write; writes are conditioned on the version they read. */
  version: number;
  updatedAt: string;
}

export async function getBallot(siteId: number, userId: number): Promise<BallotItem | undefined> {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: keys.ballot(siteId, userId) }));
  return out.Item as BallotItem | undefined;
}

/**
 * Removes every vote on one idea from every ballot of the site, each ballot together with its tally
 * change in one transaction (tallies stay exact), then drops the idea's counters from its shard.
 * Part of deleting an idea, AFTER the transaction that deleted the idea and its marker
 * (`unregisterIdeaItem`), so no new vote can land on it meanwhile. Safe to retry: a ballot that no
 * longer holds the idea is skipped.
 * Cost: one Query page per 1 MB of ballots holding the idea, plus one transaction per such ballot
 * (a delete cascade is proportional to the votes it removes; list and vote calls stay constant).
 */
export async function removeIdeaFromBallots(siteId: number, ideaId: number): Promise<void> {
  const ballots = await queryAll<BallotItem>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    FilterExpression: 'attribute_exists(#votes.#idea)',
    ExpressionAttributeNames: { '#votes': 'votes', '#idea': String(ideaId) },
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': keys.ballotPrefix },
  });
  for (const found of ballots) {
    let ballot: BallotItem | undefined = found;
    for (let attempt = 0; ballot?.votes?.[String(ideaId)]; attempt++) {
      if (attempt >= 10) throw new Error(`Could not remove idea ${ideaId} from ballot of user ${found.userId}`);
      const vote: BallotVote = ballot.votes[String(ideaId)]!;
      try {
        await doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Update: {
                  TableName: TABLE,
                  Key: keys.ballot(siteId, ballot.userId),
                  UpdateExpression: 'REMOVE #votes.#idea SET #version = #version + :one, #updatedAt = :now',
                  ConditionExpression: '#version = :version',
                  ExpressionAttributeNames: { '#votes': 'votes', '#idea': String(ideaId), '#version': 'version', '#updatedAt': 'updatedAt' },
                  ExpressionAttributeValues: { ':one': 1, ':version': ballot.version, ':now': new Date().toISOString() },
                },
              },
              ...tallyUpdateItems(siteId, new Map([[ideaId, { [vote.opinion]: -1 }]]), []),
            ],
          }),
        );
        break;
      } catch (err) {
        if ((err as Error).name !== 'TransactionCanceledException') throw err;
        ballot = await getBallot(siteId, ballot.userId);
      }
    }
  }
  await unregisterIdea(siteId, ideaId);
}
