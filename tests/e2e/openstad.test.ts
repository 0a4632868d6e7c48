/**
 * The OpenStad v1 surface over HTTP (serverless-offline, handlers from source): the calls OpenStad's
 * widgets (openstad-components) and its CMS (openstad-frontend) make, with their paths, query strings,
 * headers and bodies as read from their source (docs/openstad.md lists them), and the fields those
 * clients read, including the like and argument-vote answers they count from.
 */
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';

vi.hoisted(() => {
  // The store writes of the fixtures go to the local stack's table (scripts/local-stack-env.ts
  // LOCAL_TABLE_NAME), where serverless-offline reads; checked below.
  process.env.TABLE_NAME = 'participation-api-local';
});

import { LOCAL_TABLE_NAME } from '../../scripts/local-stack-env.ts';
import { createSite, createUser, SERVICE_TOKEN, type TestUser } from '#tests/support/fixtures';

type Rec = Record<string, unknown>;
const base = `${inject('apiUrl')}/openstad`;

/** As the widgets call: `X-Authorization: Bearer <jwt>` and a JSON content type even on GET. */
async function widget<T = unknown>(path: string, token: string | undefined, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'Content-type': 'application/json', ...(token ? { 'X-Authorization': `Bearer ${token}` } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    redirect: 'manual',
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

/** As the CMS calls server-side: its fixed SITE_API_KEY without `Bearer`, or a user's JWT. */
async function cms<T = unknown>(path: string, init: { method?: string; body?: unknown; key?: string } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...(init.key ? { 'X-Authorization': init.key } : {}) },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

describe('OpenStad widgets and CMS against /openstad', () => {
  let siteId: number;
  let member: TestUser;
  let other: TestUser;
  let moderator: TestUser;
  let ideaId: number;

  beforeAll(async () => {
    expect(process.env.TABLE_NAME).toBe(LOCAL_TABLE_NAME);
    siteId = (
      await createSite({
        allowedDomains: ['city.example.org'],
        votes: { isViewable: true, isActive: true, voteType: 'likes', requiredUserRole: 'member' },
        ideas: { minimumYesVotes: 4 },
        users: { allowUseOfNicknames: true },
      })
    ).id;
    member = await createUser(siteId, 'member', { nickName: 'Mia' });
    other = await createUser(siteId, 'member');
    moderator = await createUser(siteId, 'moderator');
    const tag = await cms<Rec>(`/api/site/${siteId}/tag`, { method: 'POST', key: SERVICE_TOKEN, body: { name: 'Groen', group: 'theme' } });
    expect(tag.status).toBe(201);
    // ideas-on-map's form: the location as a JSON string, lat first.
    const created = await widget<Rec>(`/api/site/${siteId}/idea`, member.token, {
      method: 'POST',
      body: {
        title: 'Bomen langs de gracht',
        summary: 'Meer bomen maken de straat koeler en mooier.',
        description: 'Een lange beschrijving van het plan voor meer bomen langs de gracht. '.repeat(3),
        location: JSON.stringify({ type: 'Point', coordinates: [52.3731, 4.8922] }),
        extraData: { theme: 'groen' },
        tags: [tag.body['id']],
      },
    });
    expect(created.status).toBe(201);
    ideaId = created.body['id'] as number;
  });

  it('libs/user: GET /oauth/site/:id/me', async () => {
    const me = await widget<Rec>(`/oauth/site/${siteId}/me`, member.token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: member.id, role: 'member', displayName: 'Mia' });
  });

  it('idea-details: the like and its answer (this round only), then the idea as the widget reads it', async () => {
    const like = await widget<Rec[]>(`/api/site/${siteId}/vote`, other.token, { method: 'POST', body: { ideaId, opinion: 'yes' } });
    expect(like.status).toBe(200);
    expect(like.body[0]).toMatchObject({ ideaId, opinion: 'yes' });
    const unlike = await widget<Rec[]>(`/api/site/${siteId}/vote`, other.token, { method: 'POST', body: { ideaId, opinion: 'yes' } });
    expect(unlike.body).toEqual([]);
    await widget(`/api/site/${siteId}/vote`, other.token, { method: 'POST', body: { ideaId, opinion: 'yes' } });
    const detail = await widget<Rec>(
      `/api/site/${siteId}/idea/${ideaId}?includeVoteCount=1&includeArguments=1&includeArgsCount=1&includeUser=1&includeUserVote=1`,
      other.token,
    );
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ yes: 1, no: 0, argCount: 0, can: { edit: false, delete: false }, userVote: { opinion: 'yes' }, user: { id: member.id } });
    expect(detail.body['createDateHumanized']).toMatch(/^\d{1,2} [a-z]+ \d{4} \d{2}:\d{2}$/);
    const own = await widget<Rec>(`/api/site/${siteId}/idea/${ideaId}?includeVoteCount=1`, member.token);
    // The owner may no longer edit after the first like (the site's rule): can says so.
    expect(own.body['can']).toEqual({ edit: false, delete: false });
  });

  it('ideas-overview and ideas-on-map: bare arrays with counts, progress and GeoJSON points', async () => {
    const overview = await widget<Rec[]>(`/api/site/${siteId}/idea?summary=1&includeVoteCount=1&includeArgsCount=1`, member.token);
    expect(Array.isArray(overview.body)).toBe(true);
    expect(overview.body[0]).toMatchObject({ id: ideaId, yes: 1, no: 0, argCount: 0, progress: 25, extraData: { theme: 'groen' } });
    const map = await widget<Rec[]>(`/api/site/${siteId}/idea?includeVoteCount=1&includeArgsCount=1&includeUser=1`, undefined);
    const point = map.body[0]!['location'] as { coordinates: number[] };
    expect(point.coordinates[0]).toBe(52.3731);
    expect(point.coordinates[1]).toBe(4.8922);
  });

  it('reactions: post, reply, list nested with users and can, like, edit and delete', async () => {
    const argument = await widget<Rec>(`/api/site/${siteId}/idea/${ideaId}/argument`, other.token, {
      method: 'POST',
      body: { sentiment: 'for', description: 'Goed plan, bomen geven schaduw in de zomer.' },
    });
    expect(argument.status).toBe(201);
    const argumentId = argument.body['id'] as number;
    const reply = await widget<Rec>(`/api/site/${siteId}/idea/${ideaId}/argument`, member.token, {
      method: 'POST',
      body: { parentId: String(argumentId), sentiment: 'for', description: 'Dank je, dat was ook het idee erachter.' },
    });
    expect(reply.status).toBe(201);
    for (const sentiment of ['for', 'undefined']) {
      const list = await widget<Rec[]>(
        `/api/site/${siteId}/idea/${ideaId}/argument?sentiment=${sentiment}&withUser=1&withUserVote=1&withVoteCount=1&includeReactionsOnReactions=1`,
        other.token,
      );
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(1);
      const [top] = list.body;
      expect(top).toMatchObject({ id: argumentId, user: { id: other.id }, can: { edit: true, delete: true, reply: true }, yes: 0, hasUserVoted: false });
      expect(top!['createDateHumanized']).toEqual(expect.any(String));
      expect(top!['reactions']).toEqual([expect.objectContaining({ parentId: argumentId, user: expect.objectContaining({ id: member.id }), can: { edit: false, delete: false, reply: false } })]);
    }
    const voted = await widget<Rec>(`/api/site/${siteId}/idea/${ideaId}/argument/${argumentId}/vote`, member.token, { method: 'POST', body: {} });
    expect(voted.body).toMatchObject({ yes: 1, hasUserVoted: true });
    const edited = await widget(`/api/site/${siteId}/idea/${ideaId}/argument/${argumentId}`, other.token, { method: 'PUT', body: { description: 'Goed plan, bomen geven veel schaduw in de zomer.' } });
    expect(edited.status).toBe(200);
    const idea = await widget<Rec>(`/api/site/${siteId}/idea/${ideaId}?includeArgsCount=1`, undefined);
    expect(idea.body['argCount']).toBe(2);
    const removed = await widget(`/api/site/${siteId}/idea/${ideaId}/argument/${argumentId}`, other.token, { method: 'DELETE', body: {} });
    expect(removed.status).toBe(200);
    expect((await widget<Rec>(`/api/site/${siteId}/idea/${ideaId}?includeArgsCount=1`, undefined)).body['argCount']).toBe(0);
  });

  it('CMS: the site list with its fixed key, a site PUT, ideas with its sorts, paging and filters', async () => {
    const sites = await cms<Rec[]>('/api/site', { key: SERVICE_TOKEN });
    expect(sites.status).toBe(200);
    expect(sites.body.some((s) => s['id'] === siteId)).toBe(true);
    const site = await cms<Rec>(`/api/site/${siteId}`, { key: SERVICE_TOKEN });
    const put = await cms<Rec>(`/api/site/${siteId}`, { method: 'PUT', key: SERVICE_TOKEN, body: { id: siteId, areaId: null, config: site.body['config'] } });
    expect(put.status).toBe(200);
    expect((put.body['config'] as Rec)['votes']).toMatchObject({ voteType: 'likes' });
    for (const sort of ['random', 'title', 'ranking', 'budget_asc', 'date_desc', 'createdate_asc', 'createdate_desc', 'votes_asc', 'votes_desc']) {
      const list = await cms<Rec[]>(`/api/site/${siteId}/idea?sort=${sort}&includeVoteCount=1&includeUserVote=1&includeTags=1&includeArgsCount=1`);
      expect(list.status, sort).toBe(200);
      expect(list.body.map((i) => i['id'])).toContain(ideaId);
    }
    const page = await cms<{ metadata: Rec; records: Rec[] }>(
      `/api/site/${siteId}/idea?page=0&pageSize=10&includeUserVote=1&includeVoteCount=1&includeArgsCount=1&sort=createdate_desc&tags=&filters%5Btheme%5D=&filters%5Barea%5D=&search%5Bcriteria%5D=`,
    );
    expect(page.body.metadata).toMatchObject({ page: 0, pageSize: 10, pageCount: 1, totalCount: 1 });
    // Tag ids are shown as OpenStad's tag objects (it showed them with includeTags; objects are harmless without).
    expect(page.body.records[0]!['tags']).toEqual([expect.objectContaining({ name: 'Groen', type: 'theme' })]);
    const tagged = await cms<Rec>(`/api/site/${siteId}/idea/${ideaId}?includeUser=1&includeArguments=1&includeTags=1`);
    expect(tagged.body['publishDate']).toEqual(expect.any(String));
    expect(tagged.body['tags']).toEqual([expect.objectContaining({ name: 'Groen', type: 'theme' })]);
    const tags = await cms<Rec[]>(`/api/site/${siteId}/tag`);
    expect(tags.body).toEqual([expect.objectContaining({ name: 'Groen', type: 'theme' })]);
  });

  it('CMS: votes with string ids, the moderator overview, the newsletter and the counters', async () => {
    const round = await cms<Rec[]>(`/api/site/${siteId}/vote`, { method: 'POST', key: `Bearer ${member.token}`, body: [{ ideaId: String(ideaId), opinion: 'yes' }] });
    expect(round.status).toBe(200);
    expect(round.body).toEqual([expect.objectContaining({ ideaId, opinion: 'yes' })]);
    const form = await cms<Rec[]>(`/api/site/${siteId}/vote`, { method: 'POST', key: `Bearer ${member.token}`, body: { ideaId: String(ideaId), opinion: 'yes', redirectUrl: 'https://city.example.org/plan' } });
    expect(form.body).toEqual([]);
    const overview = await cms<Rec[]>(`/api/site/${siteId}/vote?ideaId=${ideaId}&sortBy=id&orderBy=ASC`, { key: `Bearer ${moderator.token}` });
    expect(overview.status).toBe(200);
    expect(overview.body).toEqual([expect.objectContaining({ ideaId, opinion: 'yes' })]);
    const signup = await cms<Rec>(`/api/site/${siteId}/newslettersignup`, { method: 'POST', body: { firstName: 'Lees', email: 'lezer@example.org' } });
    expect(signup.status).toBe(403);
    expect(signup.body['message']).toEqual(expect.any(String));
    expect((await cms<Rec>(`/stats/site/${siteId}/idea/total`)).body).toEqual({ count: 1 });
    expect((await cms<Rec>(`/stats/site/${siteId}/vote/total?opinion=yes`)).body).toEqual({ count: 1 });
    // The reactions test deleted its argument, and with it the reply.
    expect((await cms<Rec>(`/stats/site/${siteId}/argument/total`)).body).toEqual({ count: 0 });
    // The counter widget's voters, and the admin dashboard's figures (moderator+).
    expect((await cms<Rec>(`/stats/site/${siteId}/vote/no-of-users`, { key: `Bearer ${moderator.token}` })).body).toEqual({ count: 1 });
    const dashboard = await cms<Array<{ key: string; result: unknown }>>(`/stats/site/${siteId}/overview`, { key: `Bearer ${moderator.token}` });
    expect(dashboard.status).toBe(200);
    const figures = Object.fromEntries(dashboard.body.map((entry) => [entry.key, entry.result]));
    expect(figures).toMatchObject({ ideaTotal: [{ counted: 1 }], ideaVotesCountForTotal: [{ counted: 1 }], userVoteTotal: [{ counted: 1 }], argumentCountTotal: [{ counted: 0 }] });
    expect(figures['votesPerDay']).toEqual([{ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), counted: 1 }]);
    expect((await cms(`/stats/site/${siteId}/overview`)).status).toBe(401);
    expect((await cms(`/stats/site/${siteId}/overview`, { key: `Bearer ${member.token}` })).status).toBe(403);
  });

  it("CMS: the moderator's vote toggle rejects a vote (checked: false) and reinstates it (checked: true); counts follow; nobody else may", async () => {
    // A voter of its own: a like of a user who liked before would take that like back.
    const voter = await createUser(siteId, 'member');
    const cast = await widget<Rec[]>(`/api/site/${siteId}/vote`, voter.token, { method: 'POST', body: { ideaId, opinion: 'yes' } });
    expect(cast.status).toBe(200);
    const voteId = cast.body[0]!['id'] as number;
    const yes = async () => (await widget<Rec>(`/api/site/${siteId}/idea/${ideaId}?includeVoteCount=1`, undefined)).body['yes'];
    const before = (await yes()) as number;
    const toggle = `/api/site/${siteId}/vote/${voteId}/toggle`;
    expect((await cms(toggle)).status).toBe(401);
    expect((await cms(toggle, { key: `Bearer ${voter.token}` })).status).toBe(403);
    expect((await cms(toggle, { key: `Bearer ${other.token}` })).status).toBe(403);
    expect((await widget(toggle, member.token)).status).toBe(403);
    expect(await yes()).toBe(before);

    const rejected = await cms<Rec>(toggle, { key: `Bearer ${moderator.token}` });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toEqual({ id: voteId, ideaId, userId: voter.id, confirmed: false, opinion: 'yes', ip: null, createdAt: expect.any(String), checked: false });
    expect(await yes()).toBe(before - 1);
    const overview = await cms<Rec[]>(`/api/site/${siteId}/vote?ideaId=${ideaId}`, { key: `Bearer ${moderator.token}` });
    expect(overview.body.find((vote) => vote['id'] === voteId)).toMatchObject({ checked: false, rejected: true });
    expect((await cms<Rec>(`/stats/site/${siteId}/vote/total?opinion=yes`)).body).toEqual({ count: before - 1 });
    // Public readers do not see a rejected vote at all.
    expect((await cms<Rec[]>(`/api/site/${siteId}/vote?ideaId=${ideaId}`)).body.map((vote) => vote['id'])).not.toContain(voteId);

    // The CMS's fixed key toggles too (a service token acts as admin), back to counted.
    const reinstated = await cms<Rec>(toggle, { key: SERVICE_TOKEN });
    expect(reinstated.status).toBe(200);
    expect(reinstated.body['checked']).toBe(true);
    expect(await yes()).toBe(before);
    expect((await cms<Rec>(`/api/site/${siteId}/vote/${voteId}/toggle`, { method: 'POST', key: SERVICE_TOKEN })).status).toBe(404);
    expect((await cms<Rec>(`/api/site/${siteId}/vote/${voteId + 1}/toggle`, { key: SERVICE_TOKEN })).status).toBe(404);
  });

  it('auth: the login redirect with forceNewLogin, and CORS preflights as the main API answers them', async () => {
    const login = await fetch(`${base}/oauth/site/${siteId}/login?redirectUrl=${encodeURIComponent('https://city.example.org/')}&forceNewLogin=1`, { redirect: 'manual' });
    // This site has no auth server configured: the main API's answer, unchanged.
    expect(login.status).toBe(404);
    const preflight = await fetch(`${base}/api/site/${siteId}/idea`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://city.example.org', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://city.example.org');
    const evil = await fetch(`${base}/api/site/${siteId}/idea`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example.com', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-authorization' },
    });
    expect(evil.headers.get('access-control-allow-origin')).not.toBe('https://evil.example.com');
  });
});
