/**
 * Vote checkpoints: a Merkle root (lib/crypto/merkle.ts, RFC 6962) over the chain
 * hashes of all of a site's ballots as they were at `createdAt`, sorted by ballot key (the padded user
 * id), with the number of ballots. Published by the `vote-checkpoints` job (lib/jobs/vote-checkpoints.ts)
 * when the root moved since the latest one, kept, and listed to moderators
 * (`GET /api/site/:SITE_ID/vote-checkpoint`, oldest first).
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import type { Site } from '#lib/sites/site';
import { listCheckpoints, type CheckpointItem } from '#lib/store/checkpoints/checkpoints';
import type { CheckpointRecord, ListCheckpointsQuery } from '#schemas/results';

export const toCheckpointRecord = ({ id, siteId, root, ballots, createdAt }: CheckpointItem): CheckpointRecord => ({ id, siteId, root, ballots, createdAt });

export async function listVoteCheckpoints(site: Site, caller: Caller, query: ListCheckpointsQuery) {
  access.results.checkpoints(caller);
  const page = await listCheckpoints(site.id, query);
  return { records: page.items.map(toCheckpointRecord), nextCursor: page.nextCursor };
}
