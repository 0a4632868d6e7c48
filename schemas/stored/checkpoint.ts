/** Published vote checkpoints (`CHECKPOINT#<id>`): lib/store/checkpoints/checkpoints.ts. */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { storedInstant, storedInt } from '#schemas/stored/read';

/** Exactly these fields: a checkpoint is answered as read, and nothing else of the item belongs in it. */
export const storedCheckpoint = z.object({
  id: storedInt,
  siteId: storedInt,
  /** Hex Merkle root over the ballot hashes, sorted by ballot key. */
  root: z.string(),
  /** Number of ballots under the root. */
  ballots: storedInt,
  createdAt: storedInstant,
});
export type StoredCheckpoint = z.output<typeof storedCheckpoint>;
