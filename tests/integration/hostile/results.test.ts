/** Hostile input on results, exports, the vote record and the user data export (tests/support/hostile/suite.ts). */
import { hostileSuite } from '#tests/support/hostile/suite';

hostileSuite(['resultsGet', 'resultsCompute', 'exportVotes', 'exportIdeas', 'voteCheckpointList', 'voteReceiptGet', 'voteRecordKey', 'voteRecordCheckpoint', 'voteRecordConsistency', 'userExport']);
