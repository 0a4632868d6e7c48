/**
 * A site admin points `auth-server-url` at the API's own network
 * (cloud metadata, loopback, private hosts, in every spelling the URL parser accepts) to make the API
 * call it, and reads from the answers whether something listens there.
 *
 * The stage is switched per test (the env module is wrapped: `stage.local`), and DNS answers for the
 * `*.attacker.example` names are made up (node:dns wrapped), as an attacker's DNS server would: a name
 * that resolved to a public address when the config was saved can resolve to an internal one later.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, SERVICE_TOKEN } from '#tests/support/fixtures';
import { loginCookie } from '#lib/oauth/login-cookie';
import { signState } from '#lib/oauth/state';
import { freePort } from '../../../scripts/dynamo-local.ts';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as createSiteHandler } from '../../../functions/sites/create.ts';
import { handler as updateSiteHandler } from '../../../functions/sites/update.ts';
import { handler as loginHandler } from '../../../functions/oauth/login.ts';
import { handler as digestHandler } from '../../../functions/oauth/digest-login.ts';
import { API_HOST, cookieJar, FRONTEND, oauthConfig, startTestAuthServer } from '../oauth/login-helpers.ts';
import { errorOf } from '#tests/support/bodies';

const stage = vi.hoisted(() => ({ local: true }));
vi.mock('#lib/config/env', async (importOriginal) => {
  const actual = await importOriginal<typeof import('#lib/config/env')>();
  return { ...actual, env: () => ({ ...actual.env(), stage: stage.local ? 'test' : 'prod', isLocalStage: stage.local }) };
});

/** Made-up DNS answers for the attacker's names; every other name resolves for real. */
const fakeDns = vi.hoisted(() => new Map<string, string[]>());
vi.mock('node:dns', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:dns')>();
  const lookup = (hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
    const answer = fakeDns.get(hostname);
    if (!answer) return (actual.lookup as (...args: unknown[]) => void)(hostname, options, callback);
    const addresses = answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    setImmediate(() => ((options as { all?: boolean }).all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family)));
  };
  return { ...actual, default: { ...actual, lookup }, lookup };
});

const EMAIL = 'someone@example.org';
let auth: RunningAuthServer;

beforeAll(async () => {
  auth = await startTestAuthServer([{ email: EMAIL, firstName: 'Some', lastName: 'One' }]);
});
afterAll(async () => {
  await auth.stop();
});
afterEach(() => {
  stage.local = true;
  fakeDns.clear();
  auth.control.failures = {};
});

const configWith = (url: string) => ({ allowedDomains: ['frontend.example.org'], oauth: { default: oauthConfig(url), other: oauthConfig('https://auth.example.org') } });

async function saveConfig(url: string) {
  const created = await invoke(createSiteHandler, { method: 'POST', token: SERVICE_TOKEN, body: { name: 'probe', config: configWith(url) } });
  const site = await createSite(configWith('https://auth.example.org'));
  const updated = await invoke(updateSiteHandler, { method: 'PUT', params: { siteId: site.id }, token: SERVICE_TOKEN, body: { config: configWith(url) } });
  return { created, updated };
}

const authPort = () => new URL(auth.url).port;

/** digest-login of a site whose stored config points at `url` (written past the save check, as an old config would be). */
async function digestAgainst(url: string) {
  const site = await createSite({ allowedDomains: ['frontend.example.org'], oauth: { default: oauthConfig(url) } });
  const nonce = 'nonce-for-the-probe-0123456789';
  const callback = `https://${API_HOST}/oauth/site/${site.id}/digest-login`;
  const state = await signState({ siteId: site.id, redirectUrl: `${FRONTEND}/`, oauth: 'default', callback }, undefined, nonce);
  return invoke(digestHandler, { params: { siteId: site.id }, query: { code: 'probe', state }, cookies: [`${loginCookie(callback).name}=${nonce}`] });
}

const GENERIC_502 = { status: 502, error: 'BadGateway', message: 'The auth server could not complete the code exchange; please try again later' };

describe('saving a config that points at an internal address', () => {
  it.each([
    ['the EC2/GCP/Azure metadata address', 'http://169.254.169.254/latest/meta-data'],
    ['a link-local address', 'https://169.254.10.1'],
    ['the metadata address as an IPv4-mapped IPv6 address', 'http://[::ffff:169.254.169.254]/'],
    ['the metadata address in decimal', 'http://2852039166/'],
    ['the metadata address in hex', 'http://0xa9fea9fe/'],
    ['the AWS IPv6 metadata address', 'http://[fd00:ec2::254]/'],
    ['an IPv6 link-local address', 'https://[fe80::1]/'],
    ['the GCP metadata name', 'http://metadata.google.internal/computeMetadata/v1'],
  ])('refuses %s with 400 and the config path, on every stage', async (_what, url) => {
    for (const local of [true, false]) {
      stage.local = local;
      const { created, updated } = await saveConfig(url);
      for (const res of [created, updated]) {
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: 'ValidationError', details: [{ path: 'config.oauth.default.auth-server-url' }] });
      }
    }
  });

  it.each([
    ['loopback', 'https://127.0.0.1'],
    ['loopback in decimal', 'https://2130706433/'],
    ['loopback in octal and short form', 'https://0177.1/'],
    ['loopback as IPv4-mapped IPv6', 'https://[::ffff:7f00:1]/'],
    ['IPv6 loopback', 'https://[::1]:8443/'],
    ['localhost', 'https://localhost:4000'],
    ['a private network', 'https://10.0.0.5'],
    ['a private network (172.16/12)', 'https://172.20.1.1'],
    ['a private network (192.168/16)', 'https://192.168.1.1'],
    ['carrier-grade NAT', 'https://100.64.0.1'],
    ['a unique-local IPv6 address', 'https://[fd12:3456::1]/'],
    ['the unspecified address', 'https://0.0.0.0/'],
    ['plain http', 'http://auth.example.org'],
  ])('refuses %s outside the local stage with 400', async (_what, url) => {
    stage.local = false;
    const { created, updated } = await saveConfig(url);
    for (const res of [created, updated]) {
      expect(res.status).toBe(400);
      expect(errorOf(res.body).details).toEqual([{ path: 'config.oauth.default.auth-server-url', message: expect.any(String) }]);
    }
  });

  it('accepts a public https auth server everywhere, and loopback over http on the local stage (npm start)', async () => {
    stage.local = false;
    const prod = await saveConfig('https://auth.example.org/base');
    expect([prod.created.status, prod.updated.status]).toEqual([201, 200]);
    stage.local = true;
    const local = await saveConfig(`http://localhost:${authPort()}`);
    expect([local.created.status, local.updated.status]).toEqual([201, 200]);
  });
});

describe('calling an auth server that is (or has become) internal', () => {
  it('a stored loopback config reaches nothing outside the local stage: 502, and the server listening there sees no request', async () => {
    stage.local = false;
    for (const url of [auth.url, `http://2130706433:${authPort()}`, `http://[::ffff:7f00:1]:${authPort()}`, `https://127.0.0.1:${authPort()}`]) {
      auth.control.requests = [];
      const res = await digestAgainst(url);
      expect(res.status).toBe(502);
      expect(res.body).toEqual(GENERIC_502);
      expect(auth.control.requests).toEqual([]);
    }
  });

  it('a name that resolves to the metadata address is refused at call time, on every stage', async () => {
    fakeDns.set('rebind.attacker.example', ['169.254.169.254']);
    for (const local of [true, false]) {
      stage.local = local;
      const res = await digestAgainst('https://rebind.attacker.example');
      expect(res.body).toEqual(GENERIC_502);
    }
  });

  it('one refused address among the resolved ones is enough: the call never connects to the allowed one', async () => {
    // Locally, loopback is allowed: this name reaches the real auth server...
    fakeDns.set('ok.attacker.example', ['127.0.0.1']);
    const site = await createSite({ allowedDomains: ['frontend.example.org'], oauth: { default: oauthConfig(`http://ok.attacker.example:${authPort()}`) } });
    const start = await invoke(loginHandler, { params: { siteId: site.id }, query: { redirectUrl: `${FRONTEND}/` }, headers: { host: API_HOST } });
    const authorize = new URL(start.headers.location!.replace(`http://ok.attacker.example:${authPort()}`, auth.url));
    authorize.searchParams.set('login_hint', EMAIL);
    const callback = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!);
    const ok = await invoke(digestHandler, { params: { siteId: site.id }, query: Object.fromEntries(callback.searchParams), cookies: cookieJar(start.cookies) });
    expect(ok.status).toBe(302);
    // ...but once it also resolves to the metadata address, it is refused before any connection.
    fakeDns.set('mixed.attacker.example', ['127.0.0.1', '169.254.169.254']);
    auth.control.requests = [];
    const res = await digestAgainst(`http://mixed.attacker.example:${authPort()}`);
    expect(res.body).toEqual(GENERIC_502);
    expect(auth.control.requests).toEqual([]);
  });

  it('every failure is the same 502: refused address, closed port, no such host, a server that answers 500', async () => {
    const closed = await digestAgainst(`http://127.0.0.1:${await freePort()}`);
    const refused = await digestAgainst('http://169.254.169.254');
    const noHost = await digestAgainst('http://no-such-host.invalid');
    auth.control.failures.token = 500;
    const failing = await digestAgainst(auth.url);
    for (const res of [closed, refused, noHost, failing]) expect(res.body).toEqual(GENERIC_502);
  });

  it.each([301, 302, 307, 308])('does not follow a %i redirect from the auth server', async (status) => {
    // An "auth server" that sends every request on to the real token endpoint.
    const redirector = createServer((_req, res) => res.writeHead(status, { location: `${auth.url}/oauth/token` }).end());
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      auth.control.requests = [];
      const res = await digestAgainst(`http://127.0.0.1:${(redirector.address() as AddressInfo).port}`);
      expect(res.body).toEqual(GENERIC_502);
      expect(auth.control.requests).toEqual([]);
    } finally {
      await new Promise((resolve) => redirector.close(resolve));
    }
  });
});
