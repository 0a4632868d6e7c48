/**
 * Attack: get one caller's answer served to another through a cache, or get a 304 past a check.
 * Public reads (lib/http/caching.ts) carry a strong ETag and a public Cache-Control only when asked
 * without credentials; an answer to a request with a token or Basic Auth is `private, no-store`, has
 * no tag and is never a 304, whatever `If-None-Match` says. Every public answer varies on the
 * credential headers and on Origin, so a cache that keeps the anonymous answer never hands it to a
 * caller with a token (who is owed another answer) nor to another origin's CORS.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN, type TestUser } from '#tests/support/fixtures';
import { castVotes, createIdea, votingSite } from '#tests/support/vote-fixtures';
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from '#lib/http/caching';
import { handler as getSite } from '../../../functions/sites/get.ts';
import { handler as updateSite } from '../../../functions/sites/update.ts';
import { handler as getIdea } from '../../../functions/ideas/get.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as markers } from '../../../functions/ideas/markers.ts';
import { handler as listTags } from '../../../functions/tags/list.ts';
import { handler as listArticles } from '../../../functions/articles/list.ts';
import { handler as me } from '../../../functions/oauth/me.ts';

type Handler = Parameters<typeof invoke>[0];
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

const read = (handler: Handler, path: string, params: Record<string, number>, extra: { token?: string; headers?: Record<string, string>; query?: Record<string, string> } = {}) =>
  invoke(handler, { method: 'GET', path, params, ...extra });

const expectPrivate = (res: { status: number; headers: Record<string, string> }) => {
  expect(res.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
  expect(res.headers.etag).toBeUndefined();
};

describe('public reads and caches', () => {
  let siteId: number;
  let editor: TestUser;
  let member: TestUser;
  let ideaId: number;
  beforeAll(async () => {
    siteId = (await votingSite({ voteType: 'likes', isViewable: false })).id;
    editor = await createUser(siteId, 'editor');
    member = await createUser(siteId, 'member');
    ideaId = (await createIdea(siteId)).id;
    expect((await castVotes(siteId, member.token, [{ ideaId, opinion: 'yes' }])).status).toBe(200);
  });

  it('the anonymous site read is public with a strong tag; the editor, who sees the whole config, gets a private answer and never a 304 for the anonymous tag', async () => {
    const anonymous = await read(getSite, '/api/site/{siteId}', { siteId });
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.etag).toMatch(/^"[\w-]{43}"$/);
    expect(anonymous.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
    for (const header of ['Origin', 'X-Authorization', 'Authorization']) expect(anonymous.headers.vary).toContain(header);
    expect(anonymous.body).not.toHaveProperty('config.project.endDateNotificationSent');

    for (const inm of [anonymous.headers.etag!, '*']) {
      const asEditor = await read(getSite, '/api/site/{siteId}', { siteId }, { token: editor.token, headers: { 'if-none-match': inm } });
      expect(asEditor.status).toBe(200);
      expectPrivate(asEditor);
      expect(asEditor.body).toHaveProperty('config.project.endDateNotificationSent');
    }

    const again = await read(getSite, '/api/site/{siteId}', { siteId }, { headers: { 'if-none-match': anonymous.headers.etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(anonymous.headers.etag);
    expect(again.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
  });

  it('a change of the site changes its tag: the old tag gets the new answer', async () => {
    const before = await read(getSite, '/api/site/{siteId}', { siteId });
    const put = await invoke(updateSite, { method: 'PUT', path: '/api/site/{siteId}', params: { siteId }, token: SERVICE_TOKEN, body: { title: 'Renamed for the cache' } });
    expect(put.status).toBe(200);
    expect(put.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
    const after = await read(getSite, '/api/site/{siteId}', { siteId }, { headers: { 'if-none-match': before.headers.etag! } });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body).toMatchObject({ title: 'Renamed for the cache' });
  });

  it("the member's own vote and the hidden counts are never in a public answer, and the anonymous tag never answers the member", async () => {
    const query = { includeUserVote: '1', includeVoteCount: '1' };
    const anonymous = await read(getIdea, '/api/site/{siteId}/idea/{ideaId}', { siteId, ideaId }, { query });
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
    expect(anonymous.body).toMatchObject({ userVote: null });
    expect(JSON.stringify(anonymous.body)).not.toMatch(/"yes":1/);

    const own = await read(getIdea, '/api/site/{siteId}/idea/{ideaId}', { siteId, ideaId }, { query, token: member.token, headers: { 'if-none-match': anonymous.headers.etag! } });
    expect(own.status).toBe(200);
    expectPrivate(own);
    expect(own.body).toMatchObject({ userVote: { opinion: 'yes' } });

    const list = await read(listIdeas, '/api/site/{siteId}/idea', { siteId }, { query });
    expect(list.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
    const ownList = await read(listIdeas, '/api/site/{siteId}/idea', { siteId }, { query, token: member.token, headers: { 'if-none-match': list.headers.etag! } });
    expect(ownList.status).toBe(200);
    expectPrivate(ownList);
  });

  it('any credential makes the answer private, even one the route does not need, and an invalid one is a 401 with no tag', async () => {
    const anonymous = await read(listTags, '/api/site/{siteId}/tag', { siteId });
    expect(anonymous.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
    expectPrivate(await read(listTags, '/api/site/{siteId}/tag', { siteId }, { token: member.token, headers: { 'if-none-match': anonymous.headers.etag! } }));
    const forged = await read(listArticles, '/api/site/{siteId}/article', { siteId }, { token: 'not-a-token', headers: { 'if-none-match': '*' } });
    expect(forged.status).toBe(401);
    expect(forged.headers.etag).toBeUndefined();
    expect(forged.headers['cache-control']).toBe(PRIVATE_CACHE_CONTROL);
  });

  it("a URL with a login's token in its query (where a login hands it back) is never kept by a cache: private, no tag, never a 304", async () => {
    const anonymous = await read(getSite, '/api/site/{siteId}', { siteId });
    expect(anonymous.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
    const landing = await read(getSite, '/api/site/{siteId}', { siteId }, { query: { jwt: member.token }, headers: { 'if-none-match': anonymous.headers.etag! } });
    expect(landing.status).toBe(200);
    expect(landing.body).toEqual(anonymous.body);
    expectPrivate(landing);
  });

  it('errors and reads that are not public are never cached', async () => {
    const missing = await read(getIdea, '/api/site/{siteId}/idea/{ideaId}', { siteId, ideaId: 999_999_999 }, { headers: { 'if-none-match': '*' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
    expect(missing.headers['cache-control']).toBe('no-store');
    const mine = await read(me, '/oauth/site/{siteId}/me', { siteId }, { token: member.token, headers: { 'if-none-match': '*' } });
    expect(mine.status).toBe(200);
    expectPrivate(mine);
  });

  it('the markers answer is public and revalidates', async () => {
    const first = await read(markers, '/api/site/{siteId}/idea-marker', { siteId });
    expect(first.status).toBe(200);
    expect((await read(markers, '/api/site/{siteId}/idea-marker', { siteId }, { headers: { 'if-none-match': `W/${first.headers.etag}, "other"` } })).status).toBe(304);
  });
});

describe('a site closed by Basic Auth', () => {
  let closed: number;
  beforeAll(async () => {
    closed = (await createSite({ basicAuth: { active: true, user: 'city', password: 'closed-for-now' } })).id;
  });

  it('a 304 never skips the check: without credentials any If-None-Match is a 401; with them the answer is private and whole', async () => {
    for (const inm of ['*', '"anything"']) {
      const refused = await read(getSite, '/api/site/{siteId}', { siteId: closed }, { headers: { 'if-none-match': inm } });
      expect(refused.status).toBe(401);
      expect(refused.headers.etag).toBeUndefined();
      expect(refused.headers['cache-control']).not.toMatch(/public/);
    }
    const wrong = await read(getSite, '/api/site/{siteId}', { siteId: closed }, { headers: { authorization: basic('city', 'guess'), 'if-none-match': '*' } });
    expect(wrong.status).toBe(401);
    const allowed = await read(getSite, '/api/site/{siteId}', { siteId: closed }, { headers: { authorization: basic('city', 'closed-for-now'), 'if-none-match': '*' } });
    expect(allowed.status).toBe(200);
    expectPrivate(allowed);
  });
});
