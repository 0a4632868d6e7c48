/** Hostile input on the outbox endpoints (lifecycle; tests/support/hostile/suite.ts). */
import { hostileSuite } from '#tests/support/hostile/suite';

hostileSuite(['notificationList', 'notificationSent']);
