/** Hostile input on the article endpoints (tests/support/hostile/suite.ts). */
import { hostileSuite } from '#tests/support/hostile/suite';

hostileSuite(['articleList', 'articleCreate', 'articleGet', 'articleUpdate', 'articleDelete']);
