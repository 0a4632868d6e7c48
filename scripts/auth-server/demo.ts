/**
 * What `npm start` needs to run the local auth server next to the API: one client for the demo site,
 * three demo users, and the `oauth.default` block that points a site at the server.
 *
 *   const auth = await startAuthServer({ port: 4000, clients: [DEMO_CLIENT], users: DEMO_USERS });
 *   site.config.oauth = { default: demoOauthConfig(auth.url) };
 */
import type { AuthClient, AuthUserSeed } from './users.ts';

export const DEMO_CLIENT: AuthClient = {
  clientId: 'demo-site',
  clientSecret: 'demo-site-secret-change-me',
  // Any host: the API's callback and the frontends run on whatever localhost port is free.
};

/** Fixed ids: `npm run seed -- --demo` writes content as these people without asking the server. */
export const DEMO_USERS: AuthUserSeed[] = [
  { id: 1, email: 'admin@example.org', firstName: 'Ada', lastName: 'Admin', role: 'admin' },
  { id: 2, email: 'moderator@example.org', firstName: 'Mo', lastName: 'Moderator', role: 'moderator' },
  { id: 3, email: 'member@example.org', firstName: 'Mia', lastName: 'Member', role: 'member' },
];

/** The site config block (`config.oauth.default`) for a client of the server at `authServerUrl`. */
export function demoOauthConfig(authServerUrl: string, client: AuthClient = DEMO_CLIENT) {
  return {
    'auth-server-url': authServerUrl,
    'auth-client-id': client.clientId,
    'auth-client-secret': client.clientSecret,
    'auth-server-login-path': '/dialog/authorize',
    'auth-server-exchange-code-path': '/oauth/token',
    'auth-server-get-user-path': '/api/userinfo',
    'auth-server-logout-path': '/logout',
  };
}
