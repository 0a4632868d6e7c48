/**
 * Vote checkpoints (issue 16 part 3): a Merkle root (lib/results/merkle.ts, RFC 6962) over the chain
 * hashes of all of a site's ballots, sorted by ballot key (the padded user id), with the number of
 * ballots. Published by the `vote-checkpoints` job when the root moved since the latest one, kept,
 * and listed to moderators (`GET /api/site/:SITE_ID/vote-checkpoint`).
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { merkleRoot, GENESIS, type BallotLeaf } from '#lib/results/merkle';
import type { Site } from '#lib/sites/service';
import type { BallotItem } from '#lib/store/ballots';
import { listCheckpoints, type CheckpointItem } from '#lib/store/vote-checkpoints';
import { ballotLeafKey } from '#lib/votes/seal';
import type { CheckpointRecord, ListCheckpointsQuery } from '#schemas/results';

export const toCheckpointRecord = ({ id, siteId, root, ballots, createdAt }: CheckpointItem): CheckpointRecord => ({ id, siteId, root, ballots, createdAt });

/**
 * The leaf of a ballot: its chain hash. A ballot written before the record existed has none; it
 * enters the tree as GENESIS (and gets a real hash with its next write).
 */
export const leafOf = (ballot: Pick<BallotItem, 'userId' | 'hash'>): BallotLeaf => ({ key: ballotLeafKey(ballot.userId), hash: ballot.hash ?? GENESIS });

export const rootOf = (ballots: readonly Pick<BallotItem, 'userId' | 'hash'>[]): string => merkleRoot(ballots.map(leafOf));

export async function listVoteCheckpoints(site: Site, caller: Caller, query: ListCheckpointsQuery) {
  access.results.checkpoints(caller);
  const page = await listCheckpoints(site.id, query);
  return { records: page.items.map(toCheckpointRecord), nextCursor: page.nextCursor };
}
