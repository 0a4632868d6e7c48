/**
 * A deployed stage's secrets, attacked through real handlers: the functions run as stage "prod",
 * read their secrets from an SSM endpoint (tests/support/ssm-endpoint.ts) through Powertools
 * Parameters, and talk to DynamoDB Local. Token keys rotate by `kid` without logging anybody out;
 * service tokens are held as hashes; a secret in the environment, a weak or missing stored value, or a
 * route that reads no secrets are each what the design says.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SignJWT } from 'jose';
import { randomBytes } from 'node:crypto';
import { startSsmEndpoint, ssmEnvironment, type SsmEndpoint } from '#tests/support/ssm-endpoint';
import { invoke } from '#tests/support/invoke';

const PATH = '/participation-api/prod/';
const key = () => randomBytes(48).toString('base64url');
const SERVICE_TOKEN = randomBytes(32).toString('base64url');
const sha256 = async (text: string) => (await import('node:crypto')).createHash('sha256').update(text).digest('hex');

let ssm: SsmEndpoint;
const keys = { a: { kid: '2026-01-01-aaaaaa', key: key() }, b: { kid: '2026-06-01-bbbbbb', key: key() } };

async function storeTokenKeys(value: { current: typeof keys.a; next: typeof keys.a | null; previous: typeof keys.a | null }) {
  ssm.set(`${PATH}token-keys`, JSON.stringify(value));
}

beforeAll(async () => {
  ssm = await startSsmEndpoint();
  await storeTokenKeys({ current: keys.a, next: null, previous: null });
  ssm.set(`${PATH}server-key`, key());
  ssm.set(`${PATH}service-tokens`, JSON.stringify([{ name: 'cms', sha256: await sha256(SERVICE_TOKEN) }]));
  // This file's modules run as a deployed stage: no secret in the environment, the store's path set.
  Object.assign(process.env, ssmEnvironment(ssm), { STAGE: 'prod', SECRETS_PATH: PATH });
  delete process.env.JWT_SECRET;
  delete process.env.API_SERVICE_TOKENS;
  delete process.env.DYNAMO_FAULTS;
  // The setup file loaded the store (and the environment) as the test stage: start this file's modules afresh.
  vi.resetModules();
});

afterAll(async () => {
  vi.useRealTimers();
  await ssm?.close();
});

/** The handlers and helpers, imported after the environment above is set. */
const load = async () => ({
  getSite: (await import('../../../functions/sites/get.ts')).handler,
  updateSite: (await import('../../../functions/sites/update.ts')).handler,
  me: (await import('../../../functions/oauth/me.ts')).handler,
  health: (await import('../../../functions/system/health.ts')).handler,
  fixtures: await import('#tests/support/fixtures'),
  secrets: await import('#lib/store/secrets/load'),
  config: await import('#lib/config/secrets'),
  jwt: await import('#lib/auth/jwt'),
});

const signWith = (k: { kid?: string; key: string }, claims: { userId: number; siteId: number }) =>
  new SignJWT(claims)
    .setProtectedHeader(k.kid === undefined ? { alg: 'HS256' } : { alg: 'HS256', kid: k.kid })
    .setIssuer('participation-api')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(Buffer.from(k.key, 'base64url'));

/** Moves the clock past the secret cache's max age, so the next request reads the store again. */
function pastMaxAge(seconds: number) {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (seconds + 1) * 1000 });
}

describe('secrets from the store on a deployed stage', () => {
  it('a token signed with the current key verifies; the store is read once, then cached', async () => {
    const { me, fixtures, secrets } = await load();
    await secrets.loadSecrets(["tokenKeys", "serverKey", "serviceTokens"]);
    const site = await fixtures.createSite();
    const member = await fixtures.createUser(site.id, 'member');
    const before = ssm.calls.get('GetParameters') ?? 0;
    for (let i = 0; i < 3; i++) expect((await invoke(me, { params: { siteId: site.id }, token: member.token })).status).toBe(200);
    expect(ssm.calls.get('GetParameters') ?? 0).toBe(before);
    expect(JSON.parse(Buffer.from(member.token.split('.')[0]!, 'base64url').toString()).kid).toBe(keys.a.kid);
  });

  it('rotation: a prepared key verifies, a promoted one signs, the previous one verifies until retired, an unknown or missing kid is 401', async () => {
    const { me, fixtures, secrets, jwt } = await load();
    const site = await fixtures.createSite();
    const member = await fixtures.createUser(site.id, 'member');
    const call = async (token: string) => (await invoke(me, { params: { siteId: site.id }, token })).status;
    const claims = { userId: member.id, siteId: site.id };

    // Before the rotation a token signed with key b (not stored yet) is refused.
    expect(await call(await signWith(keys.b, claims))).toBe(401);

    await storeTokenKeys({ current: keys.a, next: keys.b, previous: null });
    pastMaxAge(secrets.SECRETS_MAX_AGE_SECONDS);
    expect(await call(await signWith(keys.b, claims))).toBe(200);
    expect(await call(await signWith(keys.a, claims))).toBe(200);

    await storeTokenKeys({ current: keys.b, next: null, previous: keys.a });
    pastMaxAge(2 * secrets.SECRETS_MAX_AGE_SECONDS);
    await secrets.loadSecrets(["tokenKeys", "serverKey", "serviceTokens"]);
    const issued = await jwt.issueToken(claims);
    expect(JSON.parse(Buffer.from(issued.split('.')[0]!, 'base64url').toString()).kid).toBe(keys.b.kid);
    expect(await call(issued)).toBe(200);
    expect(await call(await signWith(keys.a, claims)), 'the previous key still verifies').toBe(200);

    await storeTokenKeys({ current: keys.b, next: null, previous: null });
    pastMaxAge(3 * secrets.SECRETS_MAX_AGE_SECONDS);
    expect(await call(await signWith(keys.a, claims)), 'a retired key').toBe(401);
    expect(await call(await signWith({ kid: 'no-such-kid', key: keys.b.key }, claims)), 'an unknown kid').toBe(401);
    expect(await call(await signWith({ key: keys.b.key }, claims)), 'no kid').toBe(401);
    expect(await call(await signWith({ kid: keys.b.kid, key: key() }, claims)), 'the current kid, another key').toBe(401);
    expect(await call(issued)).toBe(200);
    vi.useRealTimers();
  });

  it('a service token is checked against its stored hash: the token is admin, its hash, a near miss and the dev token are not', async () => {
    const { getSite, updateSite, fixtures } = await load();
    const site = await fixtures.createSite({ oauth: { default: { 'auth-server-url': 'https://auth.example' } } });
    const config = async (token?: string) => (await invoke<{ config: Record<string, unknown> }>(getSite, { params: { siteId: site.id }, ...(token ? { token } : {}) })).body.config;
    expect(await config(SERVICE_TOKEN)).toHaveProperty('oauth');
    expect((await invoke(updateSite, { method: 'PUT', params: { siteId: site.id }, token: SERVICE_TOKEN, body: { title: 'By the CMS' } })).status).toBe(200);
    for (const wrong of [await sha256(SERVICE_TOKEN), `${SERVICE_TOKEN}x`, SERVICE_TOKEN.slice(1), 'local-dev-service-token', 'test-service-token-aaaaaaaaaaaaaaaa']) {
      expect((await invoke(updateSite, { method: 'PUT', params: { siteId: site.id }, token: wrong, body: { title: 'Hijacked' } })).status, wrong).toBe(401);
    }
  });

  it("another site's admin, a moderator and an anonymous browser cannot change a site", async () => {
    const { updateSite, fixtures } = await load();
    const site = await fixtures.createSite();
    const other = await fixtures.createSite();
    const otherAdmin = await fixtures.createUser(other.id, 'admin');
    const moderator = await fixtures.createUser(site.id, 'moderator');
    const admin = await fixtures.createUser(site.id, 'admin');
    const put = async (token?: string) => (await invoke(updateSite, { method: 'PUT', params: { siteId: site.id }, ...(token ? { token } : {}), body: { title: 'Changed' } })).status;
    expect(await put(otherAdmin.token), "another site's admin").toBe(401);
    expect(await put(moderator.token), 'a moderator').toBe(403);
    expect(await put(), 'an anonymous browser').toBe(401);
    expect(await put(admin.token)).toBe(200);
  });

  it("a function holds only its class's secrets: a reading route has no vote record key, and asking for one throws", async () => {
    const { secrets, config } = await load();
    const { ACCESS_CLASSES } = await import('#lib/config/access-classes');
    await secrets.loadSecrets(ACCESS_CLASSES.read.secrets);
    expect(config.secret('serverKey').length).toBeGreaterThanOrEqual(32);
    for (const name of ['voteChainKey', 'voteSigningKey', 'votePublicKey'] as const) expect(() => config.secret(name), name).toThrow(/not one this function's access class reads/);
    // Only the checkpoint job's class names the signing key; the key route holds the public half alone.
    const holding = (name: string) => Object.entries(ACCESS_CLASSES).filter(([, grant]) => (grant.secrets as readonly string[]).includes(name)).map(([cls]) => cls);
    expect(holding('voteSigningKey')).toEqual(['checkpoint']);
    expect(holding('voteChainKey').sort()).toEqual(['ballot', 'checkpoint', 'job']);
    expect(ACCESS_CLASSES.publicKey.secrets).toEqual(['votePublicKey']);
  });

  it('the health check reads no secret, even when a token is sent', async () => {
    const { health } = await load();
    const before = ssm.calls.get('GetParameters') ?? 0;
    const answer = await invoke(health, { token: SERVICE_TOKEN });
    expect(answer.status).toBe(200);
    expect(ssm.calls.get('GetParameters') ?? 0).toBe(before);
  });
});

describe('the OpenStad surface on a deployed stage', () => {
  it("a cold start recognises the CMS's service token sent without Bearer (the secrets are read before the token); a wrong one is anonymous", async () => {
    // A cold start: the module reset drops the secrets read by the tests above.
    vi.resetModules();
    const surface = (await import('../../../functions/openstad/handler.ts')).handler;
    const { fixtures } = await load();
    const site = await fixtures.createSite({ oauth: { default: { 'auth-server-url': 'https://auth.example' } } });
    const read = (token: string) => invoke<{ config: Record<string, unknown> }>(surface, { path: `/openstad/api/site/${site.id}`, headers: { 'X-Authorization': token } });
    const cms = await read(SERVICE_TOKEN);
    expect(cms.status, JSON.stringify(cms.body)).toBe(200);
    expect(cms.body.config, 'the service token is admin: the oauth section shows').toHaveProperty('oauth');
    const stranger = await read(`${SERVICE_TOKEN}x`);
    expect(stranger.status).toBe(200);
    expect(stranger.body.config, 'a wrong token reads as anonymous').not.toHaveProperty('oauth');
  });
});

describe('a deployed function with unfit secrets refuses to serve', () => {
  it.each([
    ['a short token key', () => storeTokenKeys({ current: { kid: 'k', key: randomBytes(16).toString('base64url') }, next: null, previous: null })],
    ['the dev key', () => storeTokenKeys({ current: { kid: 'k', key: 'local-dev-jwt-secret-change-me-0123456789abcdef' }, next: null, previous: null })],
    ['no service token', () => ssm.set(`${PATH}service-tokens`, '[]')],
    ['a missing parameter', () => ssm.parameters.delete(`${PATH}server-key`)],
  ])('%s: every request that needs secrets is a 500, none is served with them', async (_label, spoil) => {
    vi.resetModules();
    const saved = new Map(ssm.parameters);
    await spoil();
    // A cold start: the module reset drops the provider and its cache.
    try {
      const { getSite } = await load();
      const answer = await invoke(getSite, { params: { siteId: 1 }, token: SERVICE_TOKEN });
      expect(answer.status).toBe(500);
      expect(JSON.stringify(answer.body)).not.toMatch(/token|secret|key/i);
    } finally {
      ssm.parameters.clear();
      for (const [k, v] of saved) ssm.parameters.set(k, v);
      vi.resetModules();
    }
  });
});
