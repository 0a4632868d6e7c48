/**
 * Article rules for the shared content flow: `config.articles` and the article access cells of
 * CONTRACT (create: moderator+ while `canAddNewArticles`, editor+ always; change: owner or moderator+).
 */
import * as access from '#lib/auth/access';
import { deleteArticle, getArticle, putNewArticle, replaceArticle } from '#lib/store/articles/articles';
import type { ContentKindRules, ContentSection } from '#lib/content/kind';

export const articleKind: ContentKindRules = {
  label: 'Article',
  section: (config) => config.articles as ContentSection,
  assertCreate: (caller, config) => access.article.create(caller, config),
  assertModify: async (caller, item) => access.article.modify(caller, item),
  store: {
    get: getArticle,
    putNew: putNewArticle,
    replace: replaceArticle,
    remove: deleteArticle,
  },
};
