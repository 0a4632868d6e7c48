import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { readSiteTallies } from '#lib/store/ideas/tallies';
import { validIdea as validArticle } from '../ideas/helpers.ts';
import { handler as createArticle } from '../../../functions/articles/create.ts';
import { handler as getArticle } from '../../../functions/articles/get.ts';
import { handler as updateArticle } from '../../../functions/articles/update.ts';
import { handler as deleteArticle } from '../../../functions/articles/delete.ts';
import { handler as listArticles } from '../../../functions/articles/list.ts';
import type { ArticleRecord } from '#schemas/article';
import type { Deleted, ListEnvelope } from '#tests/support/bodies';
import { errorOf } from '#tests/support/bodies';

const post = (siteId: number, body: unknown, token?: string) =>
  invoke<ArticleRecord>(createArticle, { method: 'POST', params: { siteId }, body, ...(token ? { token } : {}) });
const put = (siteId: number, articleId: number | string, body: unknown, token?: string) =>
  invoke<ArticleRecord>(updateArticle, { method: 'PUT', params: { siteId, articleId }, body, ...(token ? { token } : {}) });
const del = (siteId: number, articleId: number | string, token?: string) =>
  invoke<Deleted>(deleteArticle, { method: 'DELETE', params: { siteId, articleId }, ...(token ? { token } : {}) });
const get = (siteId: number, articleId: number | string, query?: Record<string, string>) =>
  invoke<ArticleRecord>(getArticle, { params: { siteId, articleId }, ...(query ? { query } : {}) });
const list = (siteId: number, query: Record<string, string> = {}) => invoke<ListEnvelope<ArticleRecord>>(listArticles, { params: { siteId }, query });
const paths = (body: unknown) => (errorOf(body).details ?? []).map((d) => d.path).sort();

describe('article create', () => {
  it('creates an article for a moderator, with the idea record shape, and no tally registration', async () => {
    const site = await createSite();
    const moderator = await createUser(site.id, 'moderator');
    const res = await post(site.id, { ...validArticle(), extraData: { images: ['https://img/a.png'] } }, moderator.token);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ['id', 'siteId', 'userId', 'title', 'summary', 'description', 'status', 'budget', 'extraData', 'createdAt', 'updatedAt'].sort(),
    );
    expect(res.body).toMatchObject({ siteId: site.id, userId: moderator.id, status: 'OPEN', budget: null, ...validArticle() });
    expect((await get(site.id, res.body.id)).body).toEqual(res.body);
    expect((await readSiteTallies(site.id)).size).toBe(0);
  });

  it('needs a token (401), a moderator (403), and an editor while canAddNewArticles is false', async () => {
    const open = await createSite();
    expect((await post(open.id, validArticle())).status).toBe(401);
    const member = await createUser(open.id, 'member');
    expect((await post(open.id, validArticle(), member.token)).status).toBe(403);

    const closed = await createSite({ articles: { canAddNewArticles: false } });
    const moderator = await createUser(closed.id, 'moderator');
    const editor = await createUser(closed.id, 'editor');
    expect((await post(closed.id, validArticle(), moderator.token)).status).toBe(403);
    expect((await post(closed.id, validArticle(), editor.token)).status).toBe(201);
    expect((await list(closed.id)).body.records).toHaveLength(1);
  });

  it('uses the articles limits and extraData definitions, reporting every failure at once', async () => {
    const site = await createSite({
      ideas: { titleMinLength: 30 },
      articles: {
        titleMinLength: 3,
        summaryMaxLength: 25,
        extraDataMustBeDefined: true,
        extraData: { section: { type: 'enum', values: ['news', 'blog'] } },
      },
    });
    const res = await post(site.id, { ...validArticle(), title: 'ab', summary: 'x'.repeat(26), extraData: { section: 'sports', x: 1 } }, SERVICE_TOKEN);
    expect(res.status).toBe(400);
    expect(paths(res.body)).toEqual(['extraData.section', 'extraData.x', 'summary', 'title']);
    const ok = await post(site.id, { ...validArticle(), title: 'abc', summary: 'x'.repeat(25), extraData: { section: 'news' } }, SERVICE_TOKEN);
    expect(ok.status).toBe(201);
    expect((await list(site.id)).body.records).toHaveLength(1);
  });

  it('lets an editor name the author, who must be a user of the site', async () => {
    const site = await createSite();
    const editor = await createUser(site.id, 'editor');
    const author = await createUser(site.id, 'moderator');
    expect((await post(site.id, { ...validArticle(), userId: author.id, status: 'DONE' }, editor.token)).body).toMatchObject({
      userId: author.id,
      status: 'DONE',
    });
    expect(paths((await post(site.id, { ...validArticle(), userId: 999999999 }, editor.token)).body)).toEqual(['userId']);
  });
});

describe('article read, update and delete', () => {
  it('answers 400 for bad ids, 404 for unknown articles and those of another site', async () => {
    const site = await createSite();
    const other = await createSite();
    const foreign = await post(other.id, validArticle(), SERVICE_TOKEN);
    for (const bad of ['abc', '0', '012']) {
      const res = await get(site.id, bad);
      expect(res.status).toBe(400);
      expect(paths(res.body)).toEqual(['articleId']);
    }
    const missing = await get(site.id, 999999999);
    expect(missing.body).toEqual({ status: 404, error: 'NotFound', message: `Article 999999999 not found on site ${site.id}` });
    expect((await get(site.id, foreign.body.id)).status).toBe(404);
    expect((await put(site.id, foreign.body.id, { title: 'Some new title' }, SERVICE_TOKEN)).status).toBe(404);
    expect((await del(site.id, foreign.body.id, SERVICE_TOKEN)).status).toBe(404);
  });

  it('lets the owner and moderators change it, partially, with extraData merged', async () => {
    const site = await createSite();
    const author = await createUser(site.id, 'moderator');
    const other = await createUser(site.id, 'moderator');
    const member = await createUser(site.id, 'member');
    const created = await post(site.id, { ...validArticle(), extraData: { a: 1, b: 2 } }, author.token);
    expect((await put(site.id, created.body.id, { title: 'Anonymous title' })).status).toBe(401);
    expect((await put(site.id, created.body.id, { title: 'Member title here' }, member.token)).status).toBe(403);
    const res = await put(site.id, created.body.id, { summary: 'A different summary, long enough', extraData: { a: null, c: 3 } }, author.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: created.body.title, summary: 'A different summary, long enough', extraData: { b: 2, c: 3 } });
    expect((await put(site.id, created.body.id, { status: 'CLOSED' }, other.token)).body.status).toBe('CLOSED');
    // Articles have no OPEN rule: the author may still edit a closed one.
    expect((await put(site.id, created.body.id, { title: 'Edited when closed' }, author.token)).status).toBe(200);
    expect(paths((await put(site.id, created.body.id, { title: 'x' }, author.token)).body)).toEqual(['title']);
  });

  it('keeps a demoted author to the owner rights: edits yes, moderator fields no', async () => {
    const site = await createSite();
    const author = await createUser(site.id, 'member');
    const created = await post(site.id, { ...validArticle(), userId: author.id }, SERVICE_TOKEN);
    expect((await put(site.id, created.body.id, { title: 'Owner edits this' }, author.token)).status).toBe(200);
    expect((await put(site.id, created.body.id, { status: 'DONE' }, author.token)).status).toBe(403);
    expect((await get(site.id, created.body.id)).body.status).toBe('OPEN');
  });

  it('deletes for the owner or a moderator only', async () => {
    const site = await createSite();
    const author = await createUser(site.id, 'moderator');
    const member = await createUser(site.id, 'member');
    const created = await post(site.id, validArticle(), author.token);
    expect((await del(site.id, created.body.id)).status).toBe(401);
    expect((await del(site.id, created.body.id, member.token)).status).toBe(403);
    expect((await del(site.id, created.body.id, author.token)).body).toEqual({ id: created.body.id, deleted: true });
    expect((await get(site.id, created.body.id)).status).toBe(404);
    expect((await del(site.id, created.body.id, author.token)).status).toBe(404);
  });
});

describe('article list', () => {
  it('pages newest first (or oldest first) in the envelope, and has no vote sort', async () => {
    const site = await createSite();
    const created: number[] = [];
    for (let i = 0; i < 5; i++) created.push((await post(site.id, validArticle(i), SERVICE_TOKEN)).body.id);
    const first = await list(site.id, { pageSize: '2' });
    expect(first.body.metadata).toEqual({ pageSize: 2, nextCursor: expect.any(String) });
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(site.id, { pageSize: '2', ...(cursor ? { cursor } : {}) });
      seen.push(...res.body.records.map((r: { id: number }) => r.id));
      cursor = res.body.metadata.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...created].reverse());
    expect((await list(site.id, { sort: 'createdate_asc' })).body.records.map((r: { id: number }) => r.id)).toEqual(created);
    expect(paths((await list(site.id, { sort: 'votes_desc' })).body)).toEqual(['sort']);
    expect(paths((await list(site.id, { includeUser: 'maybe' })).body)).toEqual(['includeUser']);
  });

  it('adds posterImage and user when asked, at a constant number of requests', async () => {
    const measure = async (count: number) => {
      const site = await createSite();
      for (let i = 0; i < count; i++) {
        const author = await createUser(site.id, 'moderator', { firstName: 'Ann', lastName: `Author ${i}` });
        await post(site.id, { ...validArticle(i), extraData: { images: [{ url: `https://img/${i}.png` }] } }, author.token);
      }
      await post(site.id, validArticle('nobody'), SERVICE_TOKEN);
      return countRequests(() => list(site.id, { includePosterImage: '1', includeUser: '1' }));
    };
    const small = await measure(3);
    const large = await measure(25);
    expect(large.result.body.records).toHaveLength(26);
    const [nobody, ...rest] = large.result.body.records;
    expect(nobody).toMatchObject({ user: null, posterImage: null });
    for (const record of rest) {
      expect(record.posterImage).toEqual({ url: expect.stringMatching(/^https:\/\/img\/\d+\.png$/) });
      expect(record.user).toEqual({ id: record.userId, role: 'moderator', displayName: expect.stringMatching(/^Ann Author \d+$/), nickName: null });
    }
    expect(large.requests).toBe(small.requests);
    // site + Query articles + BatchGet users
    expect(small.requests).toBe(3);
    const plain = (await list(small.result.body.records[0]!.siteId)).body.records[0];
    expect(plain).not.toHaveProperty('user');
    expect(plain).not.toHaveProperty('posterImage');
  });
});
