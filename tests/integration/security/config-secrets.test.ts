/**
 * Secrets in a site's config are write-only for every caller, service tokens included (CONTRACT
 * "Decided details, security"), written as the attacks:
 *
 * - an editor of a site reads its OAuth client secret, and with it the auth server's admin API makes
 *   them admin (the finding): every role and a service token now read `********`;
 * - a config read and written back (PUT) or patched with the mask keeps the stored secret, and a mask
 *   where nothing is stored is refused instead of being stored as the secret;
 * - the secrets are planted in a site's config and every route of the API is called (its valid
 *   request, as anonymous, member, moderator, admin and service token): no answer, header, error
 *   detail or log line carries one.
 */
import { vi } from 'vitest';

vi.hoisted(() => {
  // Every log line is written (and read below), not only warnings.
  process.env.LOG_LEVEL = 'debug';
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { errorOf, type ListEnvelope, type SiteBody } from '#tests/support/bodies';
import { getSite as storedSite } from '#lib/store/sites/sites';
import { SECRET_MASK } from '#lib/sites/secrets';
import { buildCtx } from '#tests/support/hostile/suite';
import { routes, type Ctx } from '#tests/support/hostile/routes';
import { send } from '#tests/support/hostile/send';
import { hostileSiteConfig } from '#tests/support/hostile/world';
import { captureLogs } from '#tests/support/log-capture';
import { CLIENT, login, oauthConfig, startTestAuthServer } from '../oauth/login-helpers.ts';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as getSiteHandler } from '../../../functions/sites/get.ts';
import { handler as listSitesHandler } from '../../../functions/sites/list.ts';
import { handler as createSiteHandler } from '../../../functions/sites/create.ts';
import { handler as updateSiteHandler } from '../../../functions/sites/update.ts';
import { handler as patchSiteHandler } from '../../../functions/sites/patch.ts';

/** Values planted as secrets: none of them may ever come back. */
const PLANTED = {
  // The auth server stand-in's real client secret: the default entry must work for logins and user writes.
  client: CLIENT.clientSecret,
  other: 'planted-other-client-secret-91c2',
  basic: 'planted-basic-password-5d0e',
};
const plantedValues = Object.values(PLANTED);
const leaks = (text: string) => plantedValues.filter((value) => text.includes(value));

let auth: RunningAuthServer;
/** Every line logged while this file runs (logins, refused writes and the walk below included). */
const lines: string[] = [];
let stopCapture: () => void;
beforeAll(async () => {
  stopCapture = captureLogs(lines);
  auth = await startTestAuthServer([{ email: 'secret-login@example.org', firstName: 'Se', lastName: 'Cret' }]);
});
afterAll(async () => {
  stopCapture();
  await auth.stop();
});

const secretConfig = () => ({
  ...hostileSiteConfig,
  oauth: {
    default: oauthConfig(auth.url),
    backup: { ...oauthConfig(auth.url), 'auth-client-secret': PLANTED.other },
  },
  // Stored while off: still a secret.
  basicAuth: { active: false, user: 'closed-user', password: PLANTED.basic },
});

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

describe('an editor reading the OAuth client secret to make themself admin (the finding)', () => {
  it('an editor, an admin and a service token read the config with every secret masked; lists too', async () => {
    const site = await createSite(secretConfig());
    const editor = await createUser(site.id, 'editor');
    const admin = await createUser(site.id, 'admin');
    for (const token of [editor.token, admin.token, SERVICE_TOKEN]) {
      const read = await invoke<SiteBody>(getSiteHandler, { params: { siteId: site.id }, token });
      expect(read.status).toBe(200);
      const config = read.body.config as { oauth: Record<string, Record<string, string>>; basicAuth: Record<string, unknown> };
      expect(config.oauth.default!['auth-client-secret']).toBe(SECRET_MASK);
      expect(config.oauth.backup!['auth-client-secret']).toBe(SECRET_MASK);
      // What is not secret is still shown to those who configure the site.
      expect(config.oauth.default!['auth-client-id']).toBe(CLIENT.clientId);
      expect(config.basicAuth).toEqual({ active: false, user: 'closed-user', password: SECRET_MASK });
      expect(leaks(JSON.stringify(read.body))).toEqual([]);
    }
    // A closed site: the service token that passes its Basic Auth still reads the mask.
    const closed = await createSite({ basicAuth: { active: true, user: 'closed-user', password: PLANTED.basic } });
    const basic = `Basic ${Buffer.from(`closed-user:${PLANTED.basic}`).toString('base64')}`;
    const closedRead = await invoke<SiteBody>(getSiteHandler, { params: { siteId: closed.id }, token: SERVICE_TOKEN, headers: { authorization: basic } });
    expect(closedRead.status).toBe(200);
    expect(closedRead.body.config.basicAuth).toEqual({ active: true, user: 'closed-user', password: SECRET_MASK });
    const listed = await invoke<ListEnvelope<SiteBody>>(listSitesHandler, { query: { pageSize: '500' }, token: SERVICE_TOKEN });
    expect(listed.body.records.map((r) => r.id)).toEqual(expect.arrayContaining([site.id, closed.id]));
    expect(leaks(JSON.stringify(listed.body))).toEqual([]);
    // The secret is still what the API uses: a login through the default entry works.
    expect((await login(site.id, 'secret-login@example.org')).done.status).toBe(302);
  });
});

describe('write-only, not lost: the mask sent back keeps the stored secret', () => {
  it('an admin reads the config and PUTs it back as read: the secrets stay, the login still works', async () => {
    const site = await createSite(secretConfig());
    const admin = await createUser(site.id, 'admin');
    const read = await invoke<SiteBody>(getSiteHandler, { params: { siteId: site.id }, token: admin.token });
    const edited = { ...read.body.config, allowedDomains: ['frontend.example.org', 'new.example.org'] };
    const put = await invoke<SiteBody>(updateSiteHandler, { method: 'PUT', params: { siteId: site.id }, token: admin.token, body: { config: edited } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(leaks(JSON.stringify(put.body))).toEqual([]);
    const stored = (await storedSite(site.id))!.config as ReturnType<typeof secretConfig>;
    expect(stored.oauth.default['auth-client-secret']).toBe(PLANTED.client);
    expect(stored.oauth.backup['auth-client-secret']).toBe(PLANTED.other);
    expect(stored.basicAuth.password).toBe(PLANTED.basic);
    expect(stored.allowedDomains).toEqual(['frontend.example.org', 'new.example.org']);
    expect((await login(site.id, 'secret-login@example.org')).done.status).toBe(302);
  });

  it('PATCH with the mask keeps the secret; a new value replaces it; null removes it', async () => {
    const site = await createSite(secretConfig());
    const patch = (config: unknown) =>
      invoke<SiteBody>(patchSiteHandler, { method: 'PATCH', params: { siteId: site.id }, token: SERVICE_TOKEN, headers: MERGE_PATCH, body: { config } });
    expect((await patch({ oauth: { backup: { 'auth-client-secret': SECRET_MASK, 'auth-client-id': 'renamed' } } })).status).toBe(200);
    let stored = (await storedSite(site.id))!.config as ReturnType<typeof secretConfig>;
    expect(stored.oauth.backup).toMatchObject({ 'auth-client-secret': PLANTED.other, 'auth-client-id': 'renamed' });
    // Write-only, not read-only: a new secret is taken (and not shown).
    const changed = await patch({ oauth: { backup: { 'auth-client-secret': 'a-brand-new-secret-3141' } } });
    expect(JSON.stringify(changed.body)).not.toContain('a-brand-new-secret-3141');
    stored = (await storedSite(site.id))!.config as ReturnType<typeof secretConfig>;
    expect(stored.oauth.backup['auth-client-secret']).toBe('a-brand-new-secret-3141');
    expect((await patch({ basicAuth: { password: null } })).status).toBe(200);
    expect((await storedSite(site.id))!.config.basicAuth).toEqual({ active: false, user: 'closed-user' });
  });

  it('a mask where no secret is stored (a renamed entry, a new site) is a 400 naming the path, and nothing is stored', async () => {
    const site = await createSite(secretConfig());
    const before = await storedSite(site.id);
    const renamed = { oauth: { main: { ...oauthConfig(auth.url), 'auth-client-secret': SECRET_MASK } } };
    const put = await invoke(updateSiteHandler, { method: 'PUT', params: { siteId: site.id }, token: SERVICE_TOKEN, body: { config: renamed } });
    expect(put.status).toBe(400);
    expect(errorOf(put.body).details).toEqual([{ path: 'config.oauth.main.auth-client-secret', message: expect.stringContaining(SECRET_MASK) }]);
    const patched = await invoke(patchSiteHandler, { method: 'PATCH', params: { siteId: site.id }, token: SERVICE_TOKEN, headers: MERGE_PATCH, body: { config: renamed } });
    expect(errorOf(patched.body).details!.map((d) => d.path)).toEqual(['config.oauth.main.auth-client-secret']);
    expect(await storedSite(site.id)).toEqual(before);
    const created = await invoke(createSiteHandler, { method: 'POST', token: SERVICE_TOKEN, body: { name: 'masked', config: { basicAuth: { password: SECRET_MASK } } } });
    expect(errorOf(created.body).details).toEqual([{ path: 'config.basicAuth.password', message: expect.any(String) }]);
  });

  it("a site admin who points the login at a server of their own cannot take the stored client secret along (PUT with the mask, PATCH without the secret): 400, nothing stored", async () => {
    const site = await createSite(secretConfig());
    const admin = await createUser(site.id, 'admin');
    const before = await storedSite(site.id);
    const evilUrl = 'http://127.0.0.1:9/collect';
    // PUT: the config as read (secrets masked) with the entry's server changed.
    const read = await invoke<SiteBody>(getSiteHandler, { params: { siteId: site.id }, token: admin.token });
    const readConfig = read.body.config as ReturnType<typeof secretConfig>;
    const moved = { ...readConfig, oauth: { ...readConfig.oauth, backup: { ...readConfig.oauth.backup, 'auth-server-url': evilUrl } } };
    const put = await invoke(updateSiteHandler, { method: 'PUT', params: { siteId: site.id }, token: admin.token, body: { config: moved } });
    expect(put.status).toBe(400);
    expect(errorOf(put.body).details).toEqual([{ path: 'config.oauth.backup.auth-client-secret', message: expect.stringContaining('auth-server-url changed') }]);
    // PATCH: only the server named, so the merge would keep the stored secret beside it.
    for (const token of [admin.token, SERVICE_TOKEN]) {
      for (const entry of [{ 'auth-server-url': evilUrl }, { 'auth-server-url': evilUrl, 'auth-client-secret': SECRET_MASK }]) {
        const patched = await invoke(patchSiteHandler, { method: 'PATCH', params: { siteId: site.id }, token, headers: MERGE_PATCH, body: { config: { oauth: { default: entry } } } });
        expect(patched.status, JSON.stringify(entry)).toBe(400);
        expect(errorOf(patched.body).details!.map((d) => d.path)).toEqual(['config.oauth.default.auth-client-secret']);
      }
    }
    expect(await storedSite(site.id)).toEqual(before);
    // Moving the login with the secret sent again is a configuration change like any other.
    const resent = await invoke(patchSiteHandler, {
      method: 'PATCH',
      params: { siteId: site.id },
      token: admin.token,
      headers: MERGE_PATCH,
      body: { config: { oauth: { backup: { 'auth-server-url': auth.url.replace('127.0.0.1', 'localhost'), 'auth-client-secret': 'typed-again-secret-2718' } } } },
    });
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(((await storedSite(site.id))!.config as ReturnType<typeof secretConfig>).oauth.backup['auth-client-secret']).toBe('typed-again-secret-2718');
  });

  it('error details never carry a secret: an invalid config beside a secret, a secret that is too long', async () => {
    const site = await createSite(secretConfig());
    const long = `${PLANTED.other}${'x'.repeat(10_001)}`;
    const attempts = [
      { config: { ...secretConfig(), votes: { voteType: PLANTED.other } } },
      { config: { oauth: { default: { 'auth-client-secret': long } } } },
      { config: { oauth: { default: { 'auth-client-secret': 12345, 'auth-server-url': PLANTED.basic } } } },
      { config: { basicAuth: { password: { nested: PLANTED.basic } } } },
    ];
    for (const body of attempts) {
      for (const [handler, method, headers] of [[updateSiteHandler, 'PUT', {}], [patchSiteHandler, 'PATCH', MERGE_PATCH]] as const) {
        const answer = await invoke(handler, { method, params: { siteId: site.id }, token: SERVICE_TOKEN, headers, body });
        expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(leaks(JSON.stringify(answer.body))).toEqual([]);
      }
    }
  });
});

describe('planted secrets never leave: every route, every caller, every log line', () => {
  let ctx: Ctx;
  beforeAll(async () => {
    ctx = await buildCtx({ config: secretConfig, cursors: false });
  });

  it('no answer (body or header) of any route, and no log line written in this file, carries a planted secret', { timeout: 600_000 }, async () => {
    const found: string[] = [];
    {
      const callers: Array<[string, (c: Ctx) => string | undefined]> = [
        ['anonymous', () => undefined],
        ['member', (c) => c.w.member.token],
        ['moderator', (c) => c.w.moderator.token],
        ['admin', (c) => c.w.admin.token],
        ['service token', () => SERVICE_TOKEN],
      ];
      // Reads first, deletes last: each baseline is valid, so most of these are real answers.
      const order = { GET: 0, POST: 1, PUT: 2, PATCH: 2, DELETE: 3 } as const;
      let answered = 0;
      for (const route of [...routes].sort((a, b) => order[a.method] - order[b.method])) {
        for (const [who, token] of callers) {
          const base = route.baseline(ctx);
          const { token: _drop, ...rest } = base;
          const value = token(ctx);
          const answer = await send(route.handler, route, value === undefined ? rest : { ...rest, token: value });
          if (answer.status < 400) answered++;
          const text = `${answer.text}\n${JSON.stringify(answer.headers)}`;
          for (const value of leaks(text)) found.push(`${route.name} as ${who} (${answer.status}) shows ${value}`);
        }
      }
      // Enough real answers that the walk meant something (every route answered its valid request once at least).
      expect(answered).toBeGreaterThan(routes.length);
    }
    expect(found).toEqual([]);
    const logged = lines.filter((line) => leaks(line).length > 0);
    expect(lines.length).toBeGreaterThan(routes.length);
    expect(logged).toEqual([]);
  });
});
