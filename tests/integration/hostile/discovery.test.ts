/** Hostile input on the discovery endpoints (tests/support/hostile/suite.ts): markers and tags. */
import { hostileSuite } from '#tests/support/hostile/suite';

hostileSuite(['ideaMarkerList', 'tagList', 'tagCreate', 'tagUpdate', 'tagDelete']);
