/** Hostile input on user activity and the anonymization paths (tests/support/hostile/suite.ts). */
import { hostileSuite } from '#tests/support/hostile/suite';

hostileSuite(['userActivity', 'userWillAnonymize', 'userWillAnonymizeAll', 'userDoAnonymize', 'userDoAnonymizeAll']);
