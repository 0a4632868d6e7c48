/**
 * The main flows of a participation frontend, end to end over the local HTTP stack (serverless-offline
 * from the e2e global setup, handlers from source) against a real local auth server:
 * - log in by clicking the auth server's page in headless Chromium (playwright-core), and by the code
 *   flow with a cookie jar (as a browser carries cookies: the login may bind its state to one);
 * - create ideas and list them with every flag; a vote round with an Idempotency-Key and its replay;
 *   an argument and its vote; a newsletter signup and its confirmation.
 *
 * The Chromium test needs the Debian Chromium (`apt-get install -y chromium`); without /usr/bin/chromium
 * it is skipped and says so.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { hasChromium, skipNote, withBrowser } from '#tests/support/chromium';
import { startAuthServer, type AuthClient, type RunningAuthServer } from '../../scripts/auth-server/index.ts';
import { demoOauthConfig } from '../../scripts/auth-server/demo.ts';
import type { ListEnvelope, SiteBody } from '#tests/support/bodies';
import type { IdeaRecord } from '#schemas/idea';
import type { ArgumentRecordShape } from '#schemas/argument';
import type { SignupRecord } from '#schemas/newsletter';

const apiUrl = inject('apiUrl');
const service = { 'X-Authorization': `Bearer ${SERVICE_TOKEN}` };
const json = { 'Content-Type': 'application/json' };
const CLIENT: AuthClient = { clientId: 'e2e-flows', clientSecret: 'e2e-flows-secret-0123456789' };
const MEMBER = { email: 'mia.member@example.org', firstName: 'Mia', lastName: 'Member', role: 'member' };
const OTHER = { email: 'otto.other@example.org', firstName: 'Otto', lastName: 'Other', role: 'member' };

/** Cookies by host name (browsers share them across ports of one host), set and sent like a browser. */
class CookieJar {
  private readonly jars = new Map<string, Map<string, string>>();

  header(url: string): Record<string, string> {
    const jar = this.jars.get(new URL(url).hostname);
    return jar?.size ? { Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
  }

  store(url: string, res: Response) {
    const host = new URL(url).hostname;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now()));
      if (expired) jar.delete(name);
      else jar.set(name, pair!.slice(eq + 1).trim());
    }
    this.jars.set(host, jar);
  }
}

async function call<T = unknown>(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    headers: { ...(init.body === undefined ? {} : json), ...init.headers },
    redirect: 'manual',
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
}
const bearer = (token: string) => ({ 'X-Authorization': `Bearer ${token}` });

let auth: RunningAuthServer;
let siteId: number;
const loginStart = () => `${apiUrl}/oauth/site/${siteId}/login?redirectUrl=${encodeURIComponent(`${apiUrl}/api/site/${siteId}`)}`;

/** The authorization code flow as a script does it: redirects followed by hand, cookies carried. */
async function codeFlowLogin(email: string): Promise<string> {
  const jar = new CookieJar();
  let url = loginStart();
  for (let hop = 0; hop < 6; hop++) {
    const res = await fetch(url, { redirect: 'manual', headers: jar.header(url) });
    jar.store(url, res);
    await res.arrayBuffer();
    const location = res.headers.get('location');
    expect(res.status, `hop ${hop} to ${url}`).toBe(302);
    const next = new URL(location!, url);
    const jwt = next.searchParams.get('jwt');
    if (jwt) return jwt;
    // At the auth server: a known user's e-mail as login_hint approves without the page.
    if (next.pathname === '/dialog/authorize') next.searchParams.set('login_hint', email);
    url = next.toString();
  }
  throw new Error('the login did not come back with a jwt');
}

beforeAll(async () => {
  auth = await startAuthServer({ port: 0, clients: [CLIENT], users: [MEMBER, OTHER] });
  const site = await call<SiteBody>('POST', '/api/site', {
    headers: service,
    body: {
      name: 'e2e flows',
      config: {
        allowedDomains: ['127.0.0.1'],
        votes: { isViewable: true, isActive: true, voteType: 'likes', requiredUserRole: 'member' },
        newslettersignup: { isActive: true },
        oauth: { default: demoOauthConfig(auth.url, CLIENT) },
      },
    },
  });
  expect(site.status).toBe(201);
  siteId = site.body.id;
});

afterAll(async () => {
  await auth?.stop();
});

describe('logging in', () => {
  it('works by the code flow, and the token is the person on this site', async () => {
    const jwt = await codeFlowLogin(MEMBER.email);
    const me = await call('GET', `/oauth/site/${siteId}/me`, { headers: bearer(jwt) });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: MEMBER.email, role: 'member', siteId });
  });

  describe.skipIf(!hasChromium)(`in headless Chromium${skipNote('tests/e2e/flows.test.ts browser login')}`, () => {
    it('works by clicking a demo user on the auth server page, with no CSP violation', async () => {
      await withBrowser(async (page, seen) => {
        await page.goto(loginStart());
        await page.getByRole('button', { name: `${MEMBER.firstName} ${MEMBER.lastName}` }).click();
        await page.waitForURL(/[?&]jwt=/);
        const jwt = new URL(page.url()).searchParams.get('jwt')!;
        const me = await call('GET', `/oauth/site/${siteId}/me`, { headers: bearer(jwt) });
        expect(me.body).toMatchObject({ email: MEMBER.email, siteId });
        expect(seen.problems).toEqual([]);
      });
    });
  });
});

describe('ideas, votes, arguments and the newsletter', () => {
  let member: string;
  let other: string;
  let ideaId: number;

  beforeAll(async () => {
    member = await codeFlowLogin(MEMBER.email);
    other = await codeFlowLogin(OTHER.email);
  });

  it('creates ideas and lists them with every flag', async () => {
    const body = (n: number) => ({
      title: `Idea ${n} for the park`,
      summary: 'More trees and benches along the river path.',
      description: 'The river path lacks shade in summer. '.repeat(5),
    });
    const first = await call<IdeaRecord>('POST', `/api/site/${siteId}/idea`, { headers: bearer(member), body: body(1) });
    expect(first.status).toBe(201);
    ideaId = first.body.id;
    expect((await call('POST', `/api/site/${siteId}/idea`, { headers: bearer(other), body: body(2) })).status).toBe(201);

    const flags = 'includeVoteCount=1&includeUserVote=1&includeArguments=1&includeUser=1&includePosterImage=1&selectRunning=1&sort=createdate_asc&pageSize=10';
    const list = await call<ListEnvelope<IdeaRecord>>('GET', `/api/site/${siteId}/idea?${flags}`, { headers: bearer(member) });
    expect(list.status).toBe(200);
    expect(list.body.metadata).toMatchObject({ pageSize: 10, nextCursor: null });
    expect(list.body.records.map((r) => r.title)).toEqual(['Idea 1 for the park', 'Idea 2 for the park']);
    expect(list.body.records[0]).toMatchObject({ id: ideaId, yes: 0, user: expect.objectContaining({ displayName: 'Mia Member' }) });
    expect(list.body.records[0]).toHaveProperty('argumentsFor');
    expect((await call('GET', `/api/site/${siteId}/idea?includeVoteCount=maybe`)).body).toMatchObject({ status: 400 });
  });

  it('casts a vote round once for an Idempotency-Key, and replays its answer', async () => {
    const round = [{ ideaId, opinion: 'yes' }];
    const headers = { ...bearer(other), 'Idempotency-Key': `e2e-${siteId}-round-1` };
    const cast = await call('POST', `/api/site/${siteId}/vote`, { headers, body: round });
    expect(cast.status).toBe(200);
    expect(cast.body).toEqual([expect.objectContaining({ ideaId, opinion: 'yes' })]);
    const replay = await call('POST', `/api/site/${siteId}/vote`, { headers, body: round });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(cast.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const idea = await call('GET', `/api/site/${siteId}/idea/${ideaId}?includeVoteCount=1&includeUserVote=1`, { headers: bearer(other) });
    expect(idea.body).toMatchObject({ yes: 1 });
  });

  it('adds an argument and votes for it', async () => {
    const argument = await call<ArgumentRecordShape>('POST', `/api/site/${siteId}/idea/${ideaId}/argument`, {
      headers: bearer(other),
      body: { description: 'Shade matters: the path is unusable in July.', sentiment: 'for' },
    });
    expect(argument.status).toBe(201);
    const voted = await call('POST', `/api/site/${siteId}/idea/${ideaId}/argument/${argument.body.id}/vote`, { headers: bearer(member) });
    expect(voted.status).toBe(200);
    const list = await call<ListEnvelope<ArgumentRecordShape>>('GET', `/api/site/${siteId}/idea/${ideaId}/argument?withVoteCount=1&withUserVote=1`, { headers: bearer(member) });
    expect(list.body.records).toEqual([expect.objectContaining({ id: argument.body.id, yes: 1, hasUserVoted: true, sentiment: 'for' })]);
  });

  it('signs up for the newsletter and confirms it', async () => {
    const signup = await call('POST', `/api/site/${siteId}/newslettersignup`, { body: { email: 'reader@example.org', firstName: 'Rea' } });
    expect(signup.status).toBe(201);
    const list = await call<ListEnvelope<SignupRecord>>('GET', `/api/site/${siteId}/newslettersignup`, { headers: service });
    const record = list.body.records.find((r) => r.email === 'reader@example.org');
    expect(record?.confirmToken).toEqual(expect.any(String));
    const confirmed = await call('POST', `/api/site/${siteId}/confirm`, { body: { confirmToken: record!.confirmToken } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ email: 'reader@example.org', confirmed: true });
  });
});
