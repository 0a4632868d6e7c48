/** Hostile input on the argument endpoints (tests/support/hostile/suite.ts). */
import { hostileSuite } from '#tests/support/hostile/suite';

hostileSuite(['argumentListSite', 'argumentList', 'argumentCreate', 'argumentGet', 'argumentUpdate', 'argumentDelete', 'argumentVote']);
