/**
 * Ballots: one item per user per site (`SK = BALLOT#<userId>`) holding the user's whole current vote
 * set. A vote round rewrites the ballot (conditioned on its `version`) and updates the tally shards in
 * one transaction, so a round is all-or-nothing and tallies always equal the votes held.
 * The voting feature adds the writes; reads used elsewhere (an idea's `userVote`) live here too.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/client';
import { keys } from '#lib/store/keys';

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
