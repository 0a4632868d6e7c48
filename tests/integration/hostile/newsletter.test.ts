/** Hostile input on the newsletter signup endpoints (tests/support/hostile/suite.ts). */
import { hostileSuite } from '#tests/support/hostile/suite';

hostileSuite(['newsletterSignupList', 'newsletterSignupCreate', 'newsletterConfirm']);
