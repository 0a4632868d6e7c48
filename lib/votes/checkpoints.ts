/**
 * The signed checkpoints of a site's vote log (docs/results.md "The vote record"), listed to
 * moderators (`GET /api/site/:SITE_ID/vote-checkpoint`, oldest first). Written by the vote-checkpoints
 * job (lib/jobs/sequence-log.ts); the latest is public at `GET .../vote-record/checkpoint`.
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import type { Site } from '#lib/sites/site';
import { listSignedCheckpoints, type SignedCheckpointItem } from '#lib/store/vote-log/log';
import type { CheckpointRecord, ListCheckpointsQuery } from '#schemas/results';

const toCheckpointRecord = ({ id, siteId, treeSize, root, cut, ballots, signature, keyId, createdAt }: SignedCheckpointItem): CheckpointRecord => ({
  id,
  siteId,
  treeSize,
  root,
  cut,
  ballots,
  signature,
  keyId,
  createdAt,
});

export async function listVoteCheckpoints(site: Site, caller: Caller, query: ListCheckpointsQuery) {
  access.results.checkpoints(caller);
  const page = await listSignedCheckpoints(site.id, query);
  return { records: page.items.map(toCheckpointRecord), nextCursor: page.nextCursor };
}
