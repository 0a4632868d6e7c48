/** Routes: Results, exports and the verifiable vote record (docs/results.md). In the order the document lists them. */
import type { Route } from '#lib/routes/route';
import { resultsGet } from '#lib/routes/results/get';
import { resultsCompute } from '#lib/routes/results/compute';
import { exportVotes } from '#lib/routes/results/export-votes';
import { exportIdeas } from '#lib/routes/results/export-ideas';
import { voteCheckpointList } from '#lib/routes/results/checkpoints';
import { voteReceiptGet, voteRecordCheckpoint, voteRecordConsistency, voteRecordKey } from '#lib/routes/results/vote-record';

export const resultsRoutes: Route[] = [resultsGet, resultsCompute, exportVotes, exportIdeas, voteCheckpointList, voteReceiptGet, voteRecordKey, voteRecordCheckpoint, voteRecordConsistency];
