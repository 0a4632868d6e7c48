/**
 * Where a login sends the person and their new JWT (CONTRACT "Decided details, security"):
 *
 * - a frontend whose `allowedDomains` entry names a port gets its JWT on that port only: a page on
 *   another port of the same host (`localhost:9999/steal`, any local program) is refused;
 * - a site may have the JWT handed back in the URL fragment (`oauth.<name>.jwtIn: fragment`), which
 *   browsers never send to a server, so it stays out of the frontend's access logs; the query stays
 *   the default for OpenStad's clients.
 * (Plain http outside the local stage: tests/unit/http/redirects-and-cookies.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import type { UserRecord } from '#schemas/user';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { API_HOST, createLoginSite, login, oauthConfig, startTestAuthServer } from '../oauth/login-helpers.ts';
import { handler as loginHandler } from '../../../functions/oauth/login.ts';
import { handler as logoutHandler } from '../../../functions/oauth/logout.ts';
import { handler as meHandler } from '../../../functions/oauth/me.ts';

let auth: RunningAuthServer;
beforeAll(async () => {
  auth = await startTestAuthServer([{ email: 'port@example.org', firstName: 'Po', lastName: 'Rt' }]);
});
afterAll(async () => {
  await auth.stop();
});

describe('an allowedDomains entry that names a port', () => {
  it('refuses a redirectUrl on another port of the same host (login and logout), takes its own port', async () => {
    const site = await createLoginSite(auth, { allowedDomains: ['frontend.example.org:8443', 'localhost:5173'] });
    const start = (redirectUrl: string) => invoke(loginHandler, { params: { siteId: site.id }, query: { redirectUrl }, headers: { host: API_HOST } });
    for (const stolen of ['https://frontend.example.org:9999/steal', 'https://frontend.example.org/steal', 'http://localhost:9999/steal', 'http://localhost/steal']) {
      expect((await start(stolen)).status, stolen).toBe(400);
      expect((await invoke(logoutHandler, { params: { siteId: site.id }, query: { redirectUrl: stolen } })).status, stolen).toBe(400);
    }
    expect((await start('https://frontend.example.org:8443/after')).status).toBe(302);
    expect((await start('http://localhost:5173/after')).status).toBe(302);
    const done = await login(site.id, 'port@example.org', { redirectUrl: 'https://frontend.example.org:8443/after' });
    expect(new URL(done.done.headers.location!).port).toBe('8443');
  });
});

describe('jwtIn: where the JWT comes back', () => {
  it('fragment: #jwt=, never in the query, and the token works', async () => {
    const site = await createLoginSite(auth, { oauth: { default: { ...oauthConfig(auth.url), jwtIn: 'fragment' } } });
    const { done } = await login(site.id, 'port@example.org', { redirectUrl: 'https://frontend.example.org/after-login?tab=2' });
    expect(done.status).toBe(302);
    const back = new URL(done.headers.location!);
    expect(back.searchParams.has('jwt')).toBe(false);
    expect(back.searchParams.get('tab')).toBe('2');
    const jwt = new URLSearchParams(back.hash.slice(1)).get('jwt');
    expect(jwt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const me = await invoke<UserRecord>(meHandler, { params: { siteId: site.id }, token: jwt! });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('port@example.org');
  });

  it('query (the default, as OpenStad clients read it): ?jwt=', async () => {
    const site = await createLoginSite(auth);
    const { done, jwt } = await login(site.id, 'port@example.org');
    expect(jwt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(new URL(done.headers.location!).hash).toBe('');
  });
});
