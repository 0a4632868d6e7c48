/**
 * Attack: probe a site closed by Basic Auth without its credentials. The site was in
 * the public site list, and under it bad ids, bad bodies and unknown routes answered 400/404/413/415
 * before the 401, telling an outsider which records and routes exist. CONTRACT "Decided details,
 * security": a `basicAuth.active` site is not in the public site list (service tokens and its admins
 * see it), and under it the Basic Auth check comes before every other: without valid credentials
 * every request (any path, body or id) is 401 with `WWW-Authenticate: Basic`. Only the site id itself
 * is read first (a malformed one is 400, an unknown one 404: there is no site to protect).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { invoke, type InvokeResult } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { countRequests } from '#tests/support/request-counter';
import { routeNamed, routes } from '#tests/support/hostile/routes';
import { send, type HostileRequest } from '#tests/support/hostile/send';
import { oversizedBodyText } from '#tests/support/hostile/arbitraries';
import { handler as listSites } from '../../../functions/sites/list.ts';
import type { ListEnvelope } from '#tests/support/bodies';
import type { SiteRecord } from '#schemas/site';

const USER = 'city';
const PASSWORD = 'closed-for-now';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const GOOD = { authorization: basic(USER, PASSWORD) };

let closed: { id: number };
let open: { id: number };
beforeAll(async () => {
  closed = await createSite({ basicAuth: { active: true, user: USER, password: PASSWORD } }, 'Closed site');
  open = await createSite({}, 'Open site');
});

/** Every site id of the site list as this caller sees it (all pages). */
async function listedIds(token?: string): Promise<Set<number>> {
  const ids = new Set<number>();
  let cursor: string | null = null;
  for (let page = 0; page < 200; page++) {
    const res: InvokeResult<ListEnvelope<SiteRecord>> = await invoke<ListEnvelope<SiteRecord>>(listSites, { query: { pageSize: '500', ...(cursor ? { cursor } : {}) }, ...(token ? { token } : {}) });
    expect(res.status).toBe(200);
    for (const site of res.body.records) ids.add(site.id);
    cursor = res.body.metadata.nextCursor;
    if (cursor === null) return ids;
  }
  throw new Error('paging did not end');
}

describe('the public site list leaves closed sites out', () => {
  it('anonymous callers and users of other sites do not see it; service tokens and its own admins do', async () => {
    const admin = await createUser(closed.id, 'admin');
    const editor = await createUser(closed.id, 'editor');
    const otherAdmin = await createUser(open.id, 'admin');
    const anonymous = await listedIds();
    expect(anonymous.has(open.id)).toBe(true);
    expect(anonymous.has(closed.id)).toBe(false);
    expect((await listedIds(otherAdmin.token)).has(closed.id)).toBe(false);
    expect((await listedIds(editor.token)).has(closed.id)).toBe(false);
    expect((await listedIds(admin.token)).has(closed.id)).toBe(true);
    expect((await listedIds(SERVICE_TOKEN)).has(closed.id)).toBe(true);
  });
});

/** The path parameters of a route, each set to `value` (the site id set apart). */
function paramsOf(path: string, siteId: string, value: string): Record<string, string> {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return Object.fromEntries(names.map((n) => [n, n === 'siteId' ? siteId : value]));
}

const siteRoutes = routes.filter((r) => r.path.includes('{siteId}'));

/** Requests that would each get another 4xx on an open site. */
const probes: Array<{ what: string; req: (route: (typeof routes)[number]) => HostileRequest }> = [
  { what: 'valid-looking ids', req: (r) => ({ params: paramsOf(r.path, String(closed.id), '1') }) },
  { what: 'malformed sub-ids', req: (r) => ({ params: paramsOf(r.path, String(closed.id), 'abc') }) },
  { what: 'unknown sub-ids', req: (r) => ({ params: paramsOf(r.path, String(closed.id), '999999999999') }) },
  { what: 'an oversized body', req: (r) => ({ params: paramsOf(r.path, String(closed.id), '1'), rawBody: oversizedBodyText('ascii') }) },
  { what: 'malformed JSON', req: (r) => ({ params: paramsOf(r.path, String(closed.id), '1'), rawBody: '{"a":' }) },
  { what: 'a wrong content type', req: (r) => ({ params: paramsOf(r.path, String(closed.id), '1'), rawBody: 'a=1', contentType: 'application/x-www-form-urlencoded' }) },
  { what: 'a reserved key', req: (r) => ({ params: paramsOf(r.path, String(closed.id), '1'), rawBody: '{"constructor": 1}' }) },
  { what: 'a body of the wrong kind', req: (r) => ({ params: paramsOf(r.path, String(closed.id), '1'), rawBody: 'false' }) },
  { what: 'bad query values', req: (r) => ({ params: paramsOf(r.path, String(closed.id), '1'), query: { pageSize: '0', cursor: '!!', sort: 'x', includeUser: 'maybe' } }) },
  { what: 'a forged token', req: (r) => ({ params: paramsOf(r.path, String(closed.id), '1'), token: 'forged.token.value' }) },
  { what: 'the service token', req: (r) => ({ params: paramsOf(r.path, String(closed.id), '1'), token: SERVICE_TOKEN }) },
  { what: 'wrong credentials', req: (r) => ({ params: paramsOf(r.path, String(closed.id), '1'), headers: { authorization: basic(USER, 'wrong') } }) },
];

describe('under a closed site, Basic Auth comes first', () => {
  it(`every route (${siteRoutes.length}) answers every probe without valid credentials with 401 and a Basic challenge`, async () => {
    for (const route of siteRoutes) {
      for (const probe of probes) {
        const answer = await send(route.handler, route, probe.req(route));
        const label = `${route.name} with ${probe.what}: ${answer.status} ${answer.text.slice(0, 200)}`;
        expect(answer.status, label).toBe(401);
        expect(JSON.parse(answer.text), label).toMatchObject({ status: 401, error: 'Unauthorized' });
        expect(answer.headers['www-authenticate'], label).toMatch(/^Basic realm=/);
      }
    }
  });

  it('with the credentials the same requests get their usual answers (the order, not a blanket 401)', async () => {
    const ideaGet = routeNamed('ideaGet');
    const ideaCreate = routeNamed('ideaCreate');
    const withAuth = (req: HostileRequest): HostileRequest => ({ ...req, headers: { ...req.headers, ...GOOD } });
    expect((await send(ideaGet.handler, ideaGet, withAuth({ params: { siteId: String(closed.id), ideaId: 'abc' } }))).status).toBe(400);
    expect((await send(ideaGet.handler, ideaGet, withAuth({ params: { siteId: String(closed.id), ideaId: '999999999999' } }))).status).toBe(404);
    const base = { params: { siteId: String(closed.id) }, token: SERVICE_TOKEN };
    expect((await send(ideaCreate.handler, ideaCreate, withAuth({ ...base, rawBody: oversizedBodyText('ascii') }))).status).toBe(413);
    expect((await send(ideaCreate.handler, ideaCreate, withAuth({ ...base, rawBody: 'a=1', contentType: 'text/plain' }))).status).toBe(415);
    expect((await send(ideaCreate.handler, ideaCreate, withAuth({ ...base, rawBody: '{"constructor": 1}' }))).status).toBe(400);
  });

  it('only the site id is read first: a malformed one is 400, an unknown one 404', async () => {
    const ideaGet = routeNamed('ideaGet');
    expect((await send(ideaGet.handler, ideaGet, { params: { siteId: 'abc', ideaId: 'abc' } })).status).toBe(400);
    expect((await send(ideaGet.handler, ideaGet, { params: { siteId: '999999999999', ideaId: 'abc' } })).status).toBe(404);
  });

  it('a 401 costs one request (the site read), whatever the request holds', async () => {
    const ideaCreate = routeNamed('ideaCreate');
    const { result, requests } = await countRequests(() =>
      send(ideaCreate.handler, ideaCreate, { params: { siteId: String(closed.id) }, token: SERVICE_TOKEN, rawBody: '{"title": "x"}' }),
    );
    expect(result.status).toBe(401);
    expect(requests).toBe(1);
  });
});

describe('the catch-all under a closed site', () => {
  const notFound = routeNamed('notFound');
  const paths = (id: number) => [`/api/site/${id}/nothing-here`, `/api/site/${id}/idea/1/nothing`, `/oauth/site/${id}/unknown`, `/api/site/${id}/idea/abc/argument/x/y/z`];

  it('answers unknown paths with 401 and a challenge, with any method and body; with the credentials, 404', async () => {
    for (const rawPath of paths(closed.id)) {
      for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
        for (const extra of [{}, { rawBody: oversizedBodyText('ascii') }, { rawBody: '{', contentType: 'text/plain' }, { token: SERVICE_TOKEN }]) {
          const answer = await send(notFound.handler, notFound, { method, rawPath, ...extra });
          expect(answer.status, `${method} ${rawPath}`).toBe(401);
          expect(answer.headers['www-authenticate']).toMatch(/^Basic realm=/);
        }
      }
      expect((await send(notFound.handler, notFound, { rawPath, headers: GOOD })).status).toBe(404);
      expect((await send(notFound.handler, notFound, { rawPath: rawPath.replace(String(closed.id), String(open.id)) })).status).toBe(404);
    }
  });

  it('still answers a preflight (browsers send no credentials on one) with 204, and reads the site once', async () => {
    const { result, requests } = await countRequests(() =>
      send(notFound.handler, notFound, { method: 'OPTIONS', rawPath: `/api/site/${closed.id}/idea`, headers: { origin: 'https://x.example', 'access-control-request-method': 'GET' } }),
    );
    expect(result.status).toBe(204);
    expect(requests).toBe(1);
    const unknown = await countRequests(() => send(notFound.handler, notFound, { rawPath: `/api/site/${closed.id}/nothing` }));
    expect(unknown.result.status).toBe(401);
    expect(unknown.requests).toBe(1);
  });
});
