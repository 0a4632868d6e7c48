/** Hostile input on the vote endpoints (tests/support/hostile/suite.ts). */
import { hostileSuite } from '#tests/support/hostile/suite';

hostileSuite(['voteList', 'voteCast']);
