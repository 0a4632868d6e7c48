/**
 * Every route the document describes: the per-resource declarations of lib/routes, which the
 * handlers pass to apiHandler and scripts/routes writes the serverless function list from. Only the
 * document (and the tests) import them all; a handler imports its own resource's file.
 */
import type { Route } from '#lib/routes/route';
import { sitesRoutes } from '#lib/routes/sites/index';
import { ideasRoutes } from '#lib/routes/ideas/index';
import { tagsRoutes } from '#lib/routes/tags/index';
import { articlesRoutes } from '#lib/routes/articles/index';
import { argumentsRoutes } from '#lib/routes/arguments/index';
import { votesRoutes } from '#lib/routes/votes/index';
import { usersRoutes } from '#lib/routes/users/index';
import { newsletterRoutes } from '#lib/routes/newsletter/index';
import { notificationsRoutes } from '#lib/routes/notifications/index';
import { resultsRoutes } from '#lib/routes/results/index';
import { oauthRoutes } from '#lib/routes/oauth/index';
import { systemRoutes } from '#lib/routes/system/index';

export { TAGS } from '#lib/routes/tags';

/** Per resource, in the document's order; each group's handlers live in one functions/<resource> folder. */
export const ROUTE_GROUPS: Record<string, readonly Route[]> = {
  sites: sitesRoutes,
  ideas: ideasRoutes,
  tags: tagsRoutes,
  articles: articlesRoutes,
  arguments: argumentsRoutes,
  votes: votesRoutes,
  users: usersRoutes,
  newsletter: newsletterRoutes,
  notifications: notificationsRoutes,
  results: resultsRoutes,
  oauth: oauthRoutes,
  system: systemRoutes,
};

export const ROUTES: readonly Route[] = Object.values(ROUTE_GROUPS).flat();
