/** Hostile input on results, exports, vote checkpoints and the user data export (tests/support/hostile/suite.ts). */
import { hostileSuite } from '#tests/support/hostile/suite';

hostileSuite(['resultsGet', 'exportVotes', 'exportIdeas', 'voteCheckpointList', 'userExport']);
