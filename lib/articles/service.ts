/**
 * The five article endpoints: the shared content flow with the article rules; reads add
 * `posterImage` and `user` (one BatchGet of users per page).
 */
import type { Caller } from '#lib/auth/caller';
import type { Site } from '#lib/sites/site';
import type { ContentItem } from '#lib/store/content/content-items';
import { listArticlesByCreation } from '#lib/store/articles/articles';
import { fitPage } from '#lib/content/page-budget';
import { loadUsersOf, toContentRecord, withCommonIncludes } from '#lib/content/record';
import { createContent, deleteContent, getContentOr404, updateContent } from '#lib/content/service';
import { articleKind } from '#lib/articles/kind';
import type { ArticleIncludes, ArticleRecord, ListArticlesQuery } from '#schemas/article';

async function toArticleRecords(site: Site, items: readonly ContentItem[], flags: ArticleIncludes): Promise<ArticleRecord[]> {
  const users = await loadUsersOf(site.id, items, flags);
  return items.map((item) => withCommonIncludes(toContentRecord(item), item, flags, users, site.config));
}

/** One Query (plus one BatchGet of users with `includeUser`), whatever the page holds. */
export async function listArticles(site: Site, query: ListArticlesQuery) {
  const page = await listArticlesByCreation(
    site.id,
    { newestFirst: query.sort === 'createdate_desc' },
    // The whole query: its cursor is bound to its sort and filters (lib/store/db/cursor.ts listQueryOf).
    query,
  );
  return fitPage(await toArticleRecords(site, page.items, query), page);
}

export async function getArticleRecord(site: Site, articleId: number, flags: ArticleIncludes): Promise<ArticleRecord> {
  const item = await getContentOr404(articleKind, site, articleId);
  const [record] = await toArticleRecords(site, [item], flags);
  return record!;
}

export async function createArticle(site: Site, caller: Caller, body: Record<string, unknown>): Promise<ArticleRecord> {
  return toContentRecord(await createContent(articleKind, site, caller, body));
}

export async function updateArticle(site: Site, caller: Caller, articleId: number, body: Record<string, unknown>): Promise<ArticleRecord> {
  return toContentRecord(await updateContent(articleKind, site, caller, articleId, body));
}

export const deleteArticle = (site: Site, caller: Caller, articleId: number) => deleteContent(articleKind, site, caller, articleId);
