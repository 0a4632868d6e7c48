/** Hostile input on the idea endpoints (tests/support/hostile/suite.ts). */
import { hostileSuite } from '#tests/support/hostile/suite';

hostileSuite(['ideaList', 'ideaCreate', 'ideaGet', 'ideaUpdate', 'ideaDelete']);
