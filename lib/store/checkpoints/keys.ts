/** Keys of the published vote checkpoints (kept). */
import { type Key, pad, sitePk } from '#lib/store/db/keys';

export const checkpointKeys = {
  /** One Merkle root over the site's ballot hashes, by id (= publication order). */
  voteCheckpoint: (siteId: number, checkpointId: number): Key => ({ PK: sitePk(siteId), SK: `CHECKPOINT#${pad(checkpointId)}` }),
  voteCheckpointPrefix: 'CHECKPOINT#',
} as const;
