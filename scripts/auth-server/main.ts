/**
 * Runs the local auth server on its own: `npx tsx scripts/auth-server/main.ts` (port from AUTH_PORT,
 * default 4000) with the demo client and users. `npm start` starts it in-process instead.
 */
import { startAuthServer } from './index.ts';
import { DEMO_CLIENT, DEMO_USERS, demoOauthConfig } from './demo.ts';

const auth = await startAuthServer({ port: Number(process.env.AUTH_PORT ?? 4000), clients: [DEMO_CLIENT], users: DEMO_USERS });
console.log(`Local auth server on ${auth.url}`);
console.log('Site config oauth.default:', JSON.stringify(demoOauthConfig(auth.url), null, 2));
const stop = () => void auth.stop().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
