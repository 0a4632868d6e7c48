/**
 * End to end: the example frontend (examples/frontend) in headless Chromium, served on its own origin
 * against the local stack (serverless-offline from the e2e global setup) and a real local auth server:
 * a person logs in by the OAuth code flow, sees the ideas, submits one, likes it and takes the like
 * back, all through CORS from the other origin, with no CSP violation or script error, and the token
 * never left in the address bar or in localStorage.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { hasChromium, skipNote, withBrowser } from '#tests/support/chromium';
import { startAuthServer, type AuthClient, type RunningAuthServer } from '../../scripts/auth-server/index.ts';
import { demoOauthConfig } from '../../scripts/auth-server/demo.ts';
import { startFrontend, type RunningFrontend } from '../../examples/frontend/serve.ts';

const apiUrl = inject('apiUrl');
const CLIENT: AuthClient = { clientId: 'e2e-frontend', clientSecret: 'e2e-frontend-secret-0123456789' };
const MEMBER = { email: 'frida.frontend@example.org', firstName: 'Frida', lastName: 'Frontend', role: 'member' };

let auth: RunningAuthServer;
let frontend: RunningFrontend;
let siteId: number;

beforeAll(async () => {
  auth = await startAuthServer({ port: 0, clients: [CLIENT], users: [MEMBER] });
  const res = await fetch(`${apiUrl}/api/site`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Authorization': `Bearer ${SERVICE_TOKEN}` },
    body: JSON.stringify({
      name: 'e2e frontend example',
      title: 'Ideas for the harbour',
      config: {
        // The frontend's host; the API is on 127.0.0.1, so the page is another origin.
        allowedDomains: ['localhost'],
        votes: { isViewable: true, isActive: true, voteType: 'likes', requiredUserRole: 'member' },
        oauth: { default: { ...demoOauthConfig(auth.url, CLIENT), jwtIn: 'fragment' } },
      },
    }),
  });
  expect(res.status).toBe(201);
  siteId = ((await res.json()) as { id: number }).id;
  frontend = await startFrontend({ apiUrl, siteId, port: 0, host: 'localhost' });
});

afterAll(async () => {
  await frontend?.stop();
  await auth?.stop();
});

describe.skipIf(!hasChromium)(`the example frontend in headless Chromium${skipNote('tests/e2e/frontend-example.test.ts')}`, () => {
  it('logs in, lists, submits an idea and likes it, from another origin; takes a token only from a login it started', async () => {
    let memberToken = '';
    expect(new URL(frontend.url).origin).not.toBe(new URL(apiUrl).origin);
    await withBrowser(async (page, seen) => {
      await page.goto(frontend.url);
      await page.waitForSelector('body[data-state="ready"]');
      expect(await page.locator('#site-title').innerText()).toBe('Ideas for the harbour');
      expect(await page.locator('#who').innerText()).toBe('Not logged in');

      // The login: to the API, the auth server's page, and back with the token.
      await page.click('#login');
      await page.getByRole('button', { name: `${MEMBER.firstName} ${MEMBER.lastName}` }).click();
      await page.waitForURL((url) => url.origin === new URL(frontend.url).origin);
      await page.waitForSelector('body[data-state="ready"]');
      expect(await page.locator('#who').innerText()).toBe('Logged in as Frida Frontend');
      expect(page.url()).not.toContain('jwt');
      expect(await page.evaluate('Object.keys(localStorage)')).toEqual([]);
      memberToken = String(await page.evaluate("sessionStorage.getItem('participation-api.token')"));

      // A bad idea: the API's validation details on the form, nothing stored.
      await page.fill('input[name="title"]', 'Short');
      await page.fill('textarea[name="summary"]', 'Too short');
      await page.fill('textarea[name="description"]', 'Also too short.');
      await page.click('#idea-form button[type="submit"]');
      await page.locator('#form-errors li').first().waitFor();
      expect(await page.locator('#form-errors').innerText()).toContain('title');

      await page.fill('input[name="title"]', 'A ferry stop at the old pier');
      await page.fill('textarea[name="summary"]', 'Let the harbour ferry stop at the old pier again.');
      await page.fill('textarea[name="description"]', 'The old pier is close to the new houses, and the ferry passes it anyway. '.repeat(3));
      await page.click('#idea-form button[type="submit"]');
      const idea = page.locator('#ideas li', { hasText: 'A ferry stop at the old pier' });
      await idea.waitFor();
      expect(await idea.innerText()).toContain('0 likes');
      expect(await idea.innerText()).toContain('by Frida Frontend');

      await idea.locator('button.like').click();
      await page.locator('#ideas li', { hasText: '1 like' }).waitFor();
      expect(await page.locator('#ideas li button.like').innerText()).toBe('Take back my like');
      await page.locator('#ideas li button.like').click();
      await page.locator('#ideas li', { hasText: '0 likes' }).waitFor();

      // The one problem is the bad idea's 400 (which the browser logs too).
      const badIdea = `400 from POST ${apiUrl}/api/site/${siteId}/idea`;
      expect(seen.problems.filter((p) => p !== badIdea && !/status of 400 \(Bad Request\)/.test(p))).toEqual([]);
      expect(seen.problems).toContain(badIdea);
      // The API was called cross-origin, with the token as a header on the authenticated calls.
      expect(seen.requests.some((url) => url.startsWith(`${apiUrl}/api/site/${siteId}/vote`))).toBe(true);
    });

    // A link that carries someone's token, opened in a tab that started no login: the page drops the
    // token instead of logging the reader in as that someone (login CSRF).
    expect(memberToken.split('.')).toHaveLength(3);
    await withBrowser(async (page) => {
      for (const address of [`${frontend.url}#jwt=${memberToken}`, `${frontend.url}?login=guessed#jwt=${memberToken}`]) {
        await page.goto(address);
        await page.waitForSelector('body[data-state="ready"]');
        expect(await page.locator('#who').innerText()).toBe('Not logged in');
        expect(page.url()).not.toContain('jwt');
        expect(await page.evaluate("sessionStorage.getItem('participation-api.token')")).toBeNull();
      }
      // The address is cleaned first, before anything that can fail: with its config unreachable the
      // page shows nothing, and still leaves no token in the address or its history.
      await page.route('**/config.json', (route) => route.abort());
      await page.goto('about:blank'); // else the next address is a fragment change of the page shown, not a load
      await page.goto(`${frontend.url}#jwt=${memberToken}`);
      expect(page.url()).not.toContain('jwt');
    });

    // What the page stored is on the API.
    const list = await fetch(`${apiUrl}/api/site/${siteId}/idea?includeVoteCount=1`);
    const body = (await list.json()) as { records: Array<{ title: string; yes: number }> };
    expect(body.records).toEqual([expect.objectContaining({ title: 'A ferry stop at the old pier', yes: 0 })]);
  });
});
