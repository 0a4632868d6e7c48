/**
 * Attack: the OpenStad surface as a second door. Every main route behind it, and its own stats
 * routes, asked by another site's admin (a valid token of site B on site A), a member acting as a
 * moderator (on records that are not theirs), a bad token and an anonymous browser.
 *
 * What must hold: the surface answers each of them exactly what the main API answers the same
 * request, except that a public read refused for its token is answered as the anonymous read it
 * becomes (OpenStad's rule): never more than anonymous. No write by another site's token or an
 * anonymous browser succeeds; nothing of site A changes through them; the stats show vote figures
 * only to those who may see votes, the dashboard only to moderators of the site.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as surface } from '../../../functions/openstad/handler.ts';
import { TARGETS } from '../../../functions/openstad/targets.ts';
import { ROUTES } from '#lib/openapi/routes';
import type { Route } from '#lib/routes/route';
import { invoke, type InvokeOptions } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN, type TestUser } from '#tests/support/fixtures';
import { createIdea } from '#tests/support/ideas-fixture';
import { validIdea } from '../ideas/helpers.ts';

type Rec = Record<string, unknown>;

/** Routes a token means nothing to (documents, health, the login redirects) are left out. */
const LEFT_OUT = new Set(['openapi', 'docs', 'health', 'oauthLogin', 'oauthDigestLogin', 'oauthLogout']);
const ATTACKED: Route[] = ROUTES.filter((route) => !LEFT_OUT.has(route.operationId) && route.handler in TARGETS);

/** A long enough argument text. */
const LONG = 'This argument is long enough to pass the default minimum length.';

interface World {
  siteId: number;
  params: Record<string, number>;
  owner: TestUser;
  member: TestUser;
  moderator: TestUser;
  otherAdmin: TestUser;
}

let w: World;

beforeAll(async () => {
  const siteId = (await createSite({ votes: { isActive: true, voteType: 'likes', isViewable: false } })).id;
  const otherSiteId = (await createSite({})).id;
  const [owner, member, moderator, otherAdmin] = await Promise.all([
    createUser(siteId, 'member'),
    createUser(siteId, 'member'),
    createUser(siteId, 'moderator'),
    createUser(otherSiteId, 'admin'),
  ]);
  const idea = await createIdea(siteId, owner.id);
  const as = (path: string, body: unknown, token = SERVICE_TOKEN) => invoke<Rec>(surface, { method: 'POST', path: `/openstad/api/site/${siteId}${path}`, token, body });
  const argument = await as(`/idea/${idea.id}/argument`, { description: LONG }, owner.token);
  const tag = await as('/tag', { name: 'Groen' });
  const article = await as('/article', { ...validIdea('article'), userId: moderator.id });
  const vote = await as('/vote', { ideaId: idea.id }, owner.token);
  expect(vote.status, JSON.stringify(vote.body)).toBe(200);
  for (const answer of [argument, tag, article]) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  w = {
    siteId,
    params: { siteId, ideaId: idea.id, argumentId: argument.body['id'] as number, tagId: tag.body['id'] as number, articleId: article.body['id'] as number, userId: owner.id, notificationId: 1, voteId: (vote.body as unknown as Rec[])[0]!['id'] as number },
    owner,
    member,
    moderator,
    otherAdmin,
  };
});

const pathOf = (route: Route) => route.path.replace(/\{(\w+)\}/g, (_m, name: string) => String(w.params[name] ?? 1));

/** One request to the main handler and the same one to the surface; the token as the attacker sends it. */
async function both(route: Route, token: string | undefined, extra: InvokeOptions = {}) {
  const path = pathOf(route);
  const options: InvokeOptions = { method: route.method, ...extra, ...(token ? { headers: { 'X-Authorization': `Bearer ${token}` } } : {}) };
  if (route.method !== 'GET') options.body = extra.body ?? {};
  const params = Object.fromEntries(Object.entries(w.params).filter(([name]) => route.path.includes(`{${name}}`)));
  const main = await invoke<Rec>(TARGETS[route.handler]!, { ...options, path: route.path, params });
  // OpenStad's rule: a public read refused for its token is answered as anonymous.
  const expected = route.method === 'GET' && main.status === 401 && token !== undefined ? (await invoke<Rec>(TARGETS[route.handler]!, { method: 'GET', path: route.path, params })).status : main.status;
  const viaSurface = await invoke<Rec>(surface, { ...options, path: `/openstad${path}` });
  return { main, expected, surface: viaSurface };
}

/** What a reader of site A sees of it (as its moderator): changes through an attack show here. */
async function snapshot() {
  const read = async (path: string) => (await invoke<unknown>(surface, { path: `/openstad/api/site/${w.siteId}${path}`, token: SERVICE_TOKEN })).body;
  return JSON.stringify(await Promise.all(['', '/idea', `/idea/${w.params['ideaId']}/argument?withVoteCount=1`, '/tag', '/article', '/user', '/vote'].map(read)));
}

const PUBLIC_WRITES = new Set(['newsletterSignupCreate', 'newsletterConfirm']);

describe.each([
  ['an anonymous browser', () => undefined],
  ["another site's admin", () => w.otherAdmin.token],
  ['a garbage token', () => 'not.a.token'],
])('%s on every route behind the surface', (_who, tokenOf) => {
  it('is answered as the main API answers it (never more than anonymous), and changes nothing', { timeout: 180_000 }, async () => {
    const before = await snapshot();
    for (const route of ATTACKED) {
      const { expected, surface: answer } = await both(route, tokenOf());
      expect(answer.status, `${route.method} ${route.path}: ${JSON.stringify(answer.body).slice(0, 200)}`).toBe(expected);
      if (route.method !== 'GET' && !PUBLIC_WRITES.has(route.operationId)) expect(answer.status, `${route.method} ${route.path}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${route.method} ${route.path}`).toBeLessThan(500);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('a member acting as moderator on every route behind the surface', () => {
  it("is answered as the main API answers it: a moderator's or another owner's route is 403, the record unchanged", { timeout: 180_000 }, async () => {
    const moderatorsOnly = new Set(['ideaUpdate', 'ideaDelete', 'argumentUpdate', 'argumentDelete', 'tagCreate', 'tagUpdate', 'tagDelete', 'articleCreate', 'articleUpdate', 'articleDelete', 'userList', 'userCreate', 'userUpdate', 'userDelete', 'voteList', 'newsletterSignupList', 'notificationList', 'notificationSent', 'siteUpdate', 'siteDelete', 'exportVotes', 'exportIdeas', 'voteCheckpointList', 'userActivity', 'userExport', 'voteReview']);
    const before = await snapshot();
    for (const route of ATTACKED) {
      // Writes a member may make (an idea, an argument, a vote) are left to the main tests: they would change the site.
      if (route.method !== 'GET' && !moderatorsOnly.has(route.operationId)) continue;
      // Bodies that pass their schema, so only the access rule can refuse them.
      const bodies: Record<string, unknown> = {
        ideaUpdate: { status: 'ACCEPTED' },
        userUpdate: { role: 'moderator' },
        userCreate: { email: 'made-by-a-member@example.org' },
        tagCreate: { name: 'Made by a member' },
        tagUpdate: { name: 'Renamed by a member' },
        articleCreate: validIdea('by a member'),
        articleUpdate: { title: 'Retitled by a member' },
        argumentUpdate: { description: `${LONG} (not mine)` },
        siteUpdate: { title: 'Retitled by a member' },
        voteReview: { rejected: true },
      };
      const body = bodies[route.operationId] ?? {};
      const { expected, surface: answer } = await both(route, w.member.token, { body });
      expect(answer.status, `${route.method} ${route.path}`).toBe(expected);
      if (moderatorsOnly.has(route.operationId)) expect(answer.status, `${route.method} ${route.path}`).toBe(403);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe("the surface's own stats routes", () => {
  const stat = (path: string, token?: string) => invoke<Rec>(surface, { path: `/openstad/stats/site/${w.siteId}${path}`, ...(token ? { headers: { 'X-Authorization': `Bearer ${token}` } } : {}) });

  it('counts ideas and arguments for everyone; vote figures only for those who may see votes; the dashboard only for moderators of the site', async () => {
    const callers: Array<[string, string | undefined]> = [
      ['anonymous', undefined],
      ["another site's admin", w.otherAdmin.token],
      ['a member', w.member.token],
      ['the moderator', w.moderator.token],
      ['a service token', SERVICE_TOKEN],
    ];
    const expected: Record<string, number[]> = {
      '/idea/total': [200, 200, 200, 200, 200],
      '/argument/total': [200, 200, 200, 200, 200],
      '/vote/total': [401, 401, 403, 200, 200],
      '/vote/no-of-users': [401, 401, 403, 200, 200],
      '/overview': [401, 401, 403, 200, 200],
    };
    for (const [path, statuses] of Object.entries(expected)) {
      const got = [];
      for (const [, token] of callers) got.push((await stat(path, token)).status);
      expect(got, path).toEqual(statuses);
    }
    expect((await stat('/idea/total', w.otherAdmin.token)).body).toEqual({ count: 1 });
    expect((await stat('/argument/total')).body).toEqual({ count: 1 });
    // The owner's one vote (a fresh results snapshot for the moderator).
    expect((await stat('/vote/no-of-users', w.moderator.token)).body).toEqual({ count: 1 });
    const dashboard = (await invoke<Array<{ key: string; result: unknown }>>(surface, { path: `/openstad/stats/site/${w.siteId}/overview`, token: w.moderator.token })).body;
    expect(Object.fromEntries(dashboard.map((entry) => [entry.key, entry.result]))).toMatchObject({ ideaTotal: [{ counted: 1 }], argumentCountTotal: [{ counted: 1 }], userVoteTotal: [{ counted: 1 }] });
    // An unknown stats path, or another site's id under this token: 404 or refused, never the figures.
    expect((await stat('/vote/everything', SERVICE_TOKEN)).status).toBe(404);
  });
});
