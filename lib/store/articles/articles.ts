/**
 * Articles: content items (lib/store/content/content-items.ts) without votes or arguments, so every write is
 * a single conditional Put or Delete (or a transaction with the owner check when a moderator names
 * the user).
 */
import {
  deleteContentItem,
  getContentItem,
  listContentByCreation,
  putNewContentItem,
  replaceContentItem,
  type ContentItem,
} from '#lib/store/content/content-items';
import type { PageRequest } from '#lib/store/db/query';

type ArticleItem = ContentItem;

export const getArticle = (siteId: number, articleId: number, options: { includeDeleting?: boolean } = {}) =>
  getContentItem('ARTICLE', siteId, articleId, options);
export const listArticlesByCreation = (siteId: number, options: { newestFirst: boolean }, page: PageRequest) =>
  listContentByCreation('ARTICLE', siteId, options, page);
export const putNewArticle = (item: ArticleItem, options: { checkUser?: number | undefined } = {}) =>
  putNewContentItem('ARTICLE', item, options);
export const replaceArticle = (item: ArticleItem, expectedVersion: number, options: { checkUser?: number | undefined } = {}) =>
  replaceContentItem('ARTICLE', item, expectedVersion, options);
export const deleteArticle = (siteId: number, articleId: number) => deleteContentItem('ARTICLE', siteId, articleId);
