/**
 * The OpenStad v1 surface in-process (functions/openstad/handler.ts against DynamoDB Local): OpenStad's
 * shapes and lenient reading, and the same rules as the main API behind them. The HTTP walk through the
 * widgets' and the CMS's calls is tests/e2e/openstad.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/openstad/handler.ts';
import { invoke, type InvokeOptions } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN, type TestUser } from '#tests/support/fixtures';
import { putIdea } from '#tests/support/ideas-fixture';
import { humanizeDate } from '#lib/openstad/humanize';

type Rec = Record<string, unknown>;
const os = <T = unknown>(path: string, options: InvokeOptions = {}) => invoke<T>(handler, { ...options, path: `/openstad${path}` });
const queryOf = (query: string) => Object.fromEntries(new URLSearchParams(query));

describe('the OpenStad surface', () => {
  let siteId: number;
  let otherSiteId: number;
  let member: TestUser;
  let moderator: TestUser;
  let otherModerator: TestUser;
  let ideaIds: number[];
  let tagId: number;

  beforeAll(async () => {
    siteId = (await createSite({ votes: { isViewable: true, isActive: true, voteType: 'likes' }, allowedDomains: ['city.example.org'] })).id;
    otherSiteId = (await createSite({})).id;
    member = await createUser(siteId, 'member');
    moderator = await createUser(siteId, 'moderator');
    otherModerator = await createUser(otherSiteId, 'moderator');
    const tag = await os<Rec>(`/api/site/${siteId}/tag`, { method: 'POST', token: SERVICE_TOKEN, body: { name: 'Groen', group: 'theme' } });
    expect(tag.status).toBe(201);
    tagId = tag.body['id'] as number;
    ideaIds = [];
    for (const [i, theme] of ['groen', 'verkeer', 'groen'].entries()) {
      const idea = await putIdea(siteId, {
        userId: member.id,
        budget: (3 - i) * 1000,
        theme,
        fields: { title: `Plan ${String.fromCharCode(67 - i)} for the park`, tags: i === 0 ? [tagId] : [], location: i === 0 ? { lat: 52.37, lng: 4.89 } : null },
      });
      ideaIds.push(idea.id);
    }
  });

  it('lists ideas as a bare array, with GeoJSON points, tag objects and createDateHumanized', async () => {
    const { status, body } = await os<Rec[]>(`/api/site/${siteId}/idea`, { query: { includeVoteCount: '1', includeTags: '1' } });
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(body.map((i) => i['id'])).toEqual(ideaIds);
    const first = body[0]!;
    expect(first['location']).toEqual({ type: 'Point', coordinates: [52.37, 4.89] });
    expect(first['position']).toEqual({ lat: 52.37, lng: 4.89 });
    expect(first['tags']).toEqual([{ id: tagId, name: 'Groen', type: 'theme' }]);
    expect(first['createDateHumanized']).toBe(humanizeDate(first['createdAt']));
    expect(first).toMatchObject({ yes: 0, no: 0 });
    expect(body[1]!['location']).toBeNull();
  });

  it('pages with OpenStad envelope, filters on extraData, and sorts as OpenStad did', async () => {
    const { body } = await os<{ metadata: Rec; records: Rec[] }>(`/api/site/${siteId}/idea`, {
      query: queryOf('page=0&pageSize=1&sort=title&tags=&filters[theme]=groen&filters[area]=&search[criteria]='),
    });
    expect(body.metadata).toMatchObject({ page: 0, pageSize: 1, pageCount: 2, totalCount: 2 });
    expect((body.metadata['links'] as Rec)['next']).toContain('page=1');
    expect(body.records.map((r) => r['title'])).toEqual(['Plan A for the park']);
    const budget = await os<Rec[]>(`/api/site/${siteId}/idea`, { query: { sort: 'budget_asc' } });
    expect(budget.body.map((r) => r['budget'])).toEqual([1000, 2000, 3000]);
    const random = await os<Rec[]>(`/api/site/${siteId}/idea`, { query: { sort: 'random', sentiment: 'undefined', includeVoteCount: 'yes' } });
    expect(random.status).toBe(200);
    expect(random.body.map((r) => r['id']).sort()).toEqual([...ideaIds].sort());
    expect(random.body[0]).toHaveProperty('yes');
  });

  it('takes the CMS service token without Bearer and answers the site list as a bare array', async () => {
    const { status, body } = await os<Rec[]>('/api/site', { headers: { 'X-Authorization': SERVICE_TOKEN } });
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(body.some((site) => site['id'] === siteId)).toBe(true);
  });

  it('posts an idea with its location as a GeoJSON string, and string ids in a vote round', async () => {
    const created = await os<Rec>(`/api/site/${siteId}/idea`, {
      method: 'POST',
      token: member.token,
      body: {
        title: 'A bench by the water',
        summary: 'Somewhere to sit and watch the boats go by.',
        description: 'A long description of the bench. '.repeat(6),
        location: JSON.stringify({ type: 'Point', coordinates: [52.1, 5.1] }),
      },
    });
    expect(created.status).toBe(201);
    expect(created.body['location']).toEqual({ type: 'Point', coordinates: [52.1, 5.1] });
    const round = await os<Rec[]>(`/api/site/${siteId}/vote`, { method: 'POST', token: member.token, body: { ideaId: String(ideaIds[0]), opinion: 'yes' } });
    expect(round.status).toBe(200);
    expect(round.body).toHaveLength(1);
    const second = await os<Rec[]>(`/api/site/${siteId}/vote`, { method: 'POST', token: member.token, body: [{ ideaId: String(ideaIds[1]), opinion: 'no' }] });
    // This round's votes only, although the caller holds two.
    expect(second.body.map((v) => [v['ideaId'], v['opinion']])).toEqual([[ideaIds[1], 'no']]);
    const again = await os<Rec[]>(`/api/site/${siteId}/vote`, { method: 'POST', token: member.token, body: { ideaId: ideaIds[1], opinion: 'no' } });
    expect(again.body).toEqual([]);

    // The CMS's moderator vote toggle (openstad-api's GET .../vote/:voteId/toggle): the main PUT
    // /vote/:voteId behind it; rejected, the vote leaves the count, toggled again it is back.
    const voteId = (round.body[0] as Rec)['id'];
    const yes = async () => (await os<Rec>(`/api/site/${siteId}/idea/${ideaIds[0]}`, { query: { includeVoteCount: '1' } })).body['yes'];
    expect((await os<Rec>(`/api/site/${siteId}/vote/${voteId}/toggle`, { token: member.token })).status).toBe(403);
    const rejected = await os<Rec>(`/api/site/${siteId}/vote/${voteId}/toggle`, { token: moderator.token });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ id: voteId, ideaId: ideaIds[0], userId: member.id, opinion: 'yes', checked: false });
    expect(await yes()).toBe(0);
    const reinstated = await os<Rec>(`/api/site/${siteId}/vote/${voteId}/toggle`, { token: moderator.token });
    expect(reinstated.body).toMatchObject({ id: voteId, checked: true });
    expect(await yes()).toBe(1);
  });

  it('counts ideas, votes and arguments on the stats routes, votes only for those who may see them', async () => {
    const ideas = await os<Rec>(`/stats/site/${siteId}/idea/total`);
    expect(ideas.body['count']).toBeGreaterThanOrEqual(3);
    const votes = await os<Rec>(`/stats/site/${siteId}/vote/total`, { query: { opinion: 'yes' } });
    expect(votes.body).toEqual({ count: 1 });
    const hidden = await os(`/stats/site/${otherSiteId}/vote/total`);
    expect(hidden.status).toBe(401);
    const byMember = await os(`/stats/site/${otherSiteId}/vote/total`, { token: otherModerator.token });
    expect(byMember.status).toBe(200);
    const args = await os<Rec>(`/stats/site/${siteId}/argument/total`);
    expect(args.body).toEqual({ count: 0 });
  });

  describe('is a second door to the same rules', () => {
    it('a bad or other-site token on a public read is anonymous, and grants nothing', async () => {
      const bad = await os<Rec[]>(`/api/site/${siteId}/idea`, { headers: { 'X-Authorization': 'Bearer not-a-token' } });
      expect(bad.status).toBe(200);
      const other = await os<Rec>(`/api/site/${siteId}/idea/${ideaIds[0]}`, { token: otherModerator.token, query: { includeUserVote: '1' } });
      expect(other.status).toBe(200);
      expect(other.body['userVote']).toBeNull();
      // Another site's moderator cannot write here, nor read what only moderators read.
      const write = await os(`/api/site/${siteId}/idea/${ideaIds[0]}`, { method: 'PUT', token: otherModerator.token, body: { status: 'CLOSED' } });
      expect(write.status).toBe(401);
      const users = await os(`/api/site/${siteId}/user`, { token: otherModerator.token });
      expect(users.status).toBe(401);
      const own = await os(`/api/site/${siteId}/user`, { token: moderator.token });
      expect(own.status).toBe(200);
    });

    it('an anonymous write is 401, a member may not moderate (403)', async () => {
      expect((await os(`/api/site/${siteId}/idea`, { method: 'POST', body: { title: 'x' } })).status).toBe(401);
      expect((await os(`/api/site/${siteId}/vote`, { method: 'POST', body: [{ ideaId: ideaIds[0] }] })).status).toBe(401);
      expect((await os(`/api/site/${siteId}/idea/${ideaIds[0]}`, { method: 'PUT', token: member.token, body: { status: 'ACCEPTED' } })).status).toBe(403);
    });

    it('string ids that overflow or are not integers are a 400, never another record', async () => {
      for (const ideaId of ['99999999999999999999', '1e3', '012', '-1', '1.5', ' 12']) {
        const answer = await os<Rec>(`/api/site/${siteId}/vote`, { method: 'POST', token: member.token, body: [{ ideaId, opinion: 'yes' }] });
        expect(answer.status, ideaId).toBe(400);
      }
      for (const id of ['99999999999999999999', 'abc', '012']) expect((await os(`/api/site/${siteId}/idea/${id}`)).status, id).toBe(400);
    });

    it('GeoJSON with out-of-range coordinates is a 400', async () => {
      for (const location of [{ type: 'Point', coordinates: [91, 5] }, JSON.stringify({ type: 'Point', coordinates: [52, 181] }), { type: 'Polygon', coordinates: [] }]) {
        const answer = await os(`/api/site/${siteId}/idea/${ideaIds[1]}`, { method: 'PUT', token: moderator.token, body: { location } });
        expect(answer.status).toBe(400);
      }
    });

    it('a site closed by Basic Auth answers 401 first, whatever the token', async () => {
      const closed = (await createSite({ basicAuth: { active: true, user: 'u', password: 'secret-pass' } })).id;
      const attempts: Record<string, string>[] = [{ 'X-Authorization': SERVICE_TOKEN }, { 'X-Authorization': `Bearer ${SERVICE_TOKEN}` }, {}];
      for (const headers of attempts) {
        const answer = await os(`/api/site/${closed}/idea`, { headers });
        expect(answer.status).toBe(401);
        expect(answer.headers['www-authenticate']).toMatch(/^Basic/);
      }
      const open = await os(`/api/site/${closed}/idea`, { headers: { Authorization: `Basic ${Buffer.from('u:secret-pass').toString('base64')}` } });
      expect(open.status).toBe(200);
      const sites = await os<Rec[]>('/api/site');
      expect(sites.body.some((s) => s['id'] === closed)).toBe(false);
    });

    it('keeps CORS and the error body of the main API', async () => {
      const answer = await os<Rec>(`/api/site/${siteId}/idea/${ideaIds[0]}`, { method: 'DELETE', headers: { Origin: 'https://evil.example.com' }, token: member.token, body: {} });
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      const missing = await os<Rec>(`/api/site/${siteId}/nothing-here`);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ status: 404, error: 'NotFound' });
      // Main paths not behind the surface are unknown paths here, not a failure.
      for (const path of ['/api/health', '/api/docs', '/api/openapi.json', '/api/vote-record/key']) {
        const answer = await os<Rec>(path);
        expect(answer.status, path).toBe(404);
        expect(answer.body, path).toMatchObject({ status: 404, error: 'NotFound' });
      }
    });

    it('answers the preflight of every stats route 204 without credentials, as the main API answers preflights', async () => {
      const closed = (await createSite({ allowedDomains: ['city.example.org'], basicAuth: { active: true, user: 'u', password: 'secret-pass' } })).id;
      const paths = ['idea/total', 'vote/total?opinion=yes', 'vote/no-of-users', 'argument/total?sentiment=for', 'overview'];
      for (const site of [siteId, closed]) {
        for (const path of paths) {
          const [pathname, query] = path.split('?');
          const asked = { 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-authorization, content-type' };
          const own = await os(`/stats/site/${site}/${pathname}`, { method: 'OPTIONS', query: queryOf(query ?? ''), headers: { Origin: 'https://city.example.org', ...asked } });
          expect(own.status, `${site} ${path}`).toBe(204);
          expect(own.headers['access-control-allow-origin'], path).toBe('https://city.example.org');
          expect(own.headers['access-control-allow-headers'], path).toMatch(/X-Authorization/);
          // Another origin may not make the browser send a token (CONTRACT "Decided details, security").
          const evil = await os(`/stats/site/${site}/${pathname}`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example.com', ...asked } });
          expect(evil.status, path).toBe(204);
          expect(evil.headers['access-control-allow-origin'], path).toBeUndefined();
          const main = await os(`/api/site/${site}/idea`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example.com', ...asked } });
          expect(evil.headers['access-control-allow-headers']).toBe(main.headers['access-control-allow-headers']);
        }
      }
    });
  });
});
