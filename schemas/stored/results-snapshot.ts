/** A site's results snapshot and the state of its computation: lib/store/results-snapshots.ts. */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { keepingUnnamed, storedInstant, storedInt } from '#schemas/stored/read';

const bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array);

/** The head: what a reader needs to answer (or to answer 304), and the body itself when it fits. */
export const storedResultsHead = keepingUnnamed(
  z.object({
    siteId: storedInt,
    /** Strong ETag of the body, quoted as sent. */
    etag: z.string(),
    computedAt: storedInstant,
    /** A settle time before the ballots were read: every entry written up to then is in the snapshot. */
    coveredUntil: z.nullable(storedInstant),
    /**
     * The entries written after `coveredUntil` that had committed before the ballots were read (so the
     * snapshot holds them): while the log holds no more than these after `coveredUntil`, the snapshot
     * covers every ballot change. Absent on older snapshots (then any entry after `coveredUntil` counts as new).
     */
    settling: z.optional(storedInt),
    ballots: storedInt,
    /** Names a new snapshot's chunks; a snapshot replaces the head it read (conditional write). */
    generation: z.string(),
    /** Chunk items of the gzipped body; 0 when the body is in the head. */
    chunks: storedInt,
    body: z.optional(bytes),
  }),
);
export type StoredResultsHead = z.output<typeof storedResultsHead>;

export const storedResultsChunk = keepingUnnamed(z.object({ data: bytes }));

/** Who computes now (a lease), where an unfinished computation stands, and whether the snapshot is stale. */
export const storedResultsState = keepingUnnamed(
  z.object({
    siteId: storedInt,
    leaseOwner: z.optional(z.string()),
    leaseUntil: z.optional(storedInstant),
    /** JSON of lib/results/results.ts ResultsProgress. */
    progress: z.optional(z.string()),
    /** Set when ballots changed after the snapshot (by the vote-checkpoints job), cleared by a new snapshot. */
    staleSince: z.optional(storedInstant),
  }),
);
export type StoredResultsState = z.output<typeof storedResultsState>;
