/** Hostile input on the user endpoints (tests/support/hostile/suite.ts). */
import { hostileSuite } from '#tests/support/hostile/suite';

hostileSuite(['userList', 'userCreate', 'userGet', 'userUpdate', 'userDelete']);
