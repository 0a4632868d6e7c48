/** Hostile input on the site endpoints (tests/support/hostile/suite.ts). */
import { hostileSuite } from '#tests/support/hostile/suite';

hostileSuite(['siteList', 'siteCreate', 'siteGet', 'siteUpdate', 'sitePatch', 'siteDelete']);
