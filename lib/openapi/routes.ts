/**
 * The route table the OpenAPI document is built from: one entry per HTTP API route of serverless.yml
 * (tests/unit/openapi/routes.test.ts holds the two in step), with the same zod schemas the handlers
 * validate with. Access texts are CONTRACT's access table.
 *
 * Error statuses that follow from the route's shape are added by the document builder (document.ts):
 * a path id -> 400 and 404, a site in the path -> 401 (site Basic Auth), a token -> 401, a query -> 400,
 * a body -> 400, 413 and 415. `errors` lists the ones that come from the domain (403, 409, 502).
 */
import * as z from 'zod';
import { pageQuery, siteParams } from '#schemas/common';
import { articleIncludeQuery, articleParams, listArticlesQuery } from '#schemas/article';
import { argumentFlagsQuery, argumentListQuery, argumentParams, ideaArgumentsParams } from '#schemas/argument';
import { ideaIncludeQuery, ideaParams, listIdeasQuery } from '#schemas/idea';
import { listVotesQuery } from '#schemas/votes';
import { activityQuery, userParams } from '#schemas/user';
import { listSignupsQuery } from '#schemas/newsletter';
import { deleteSiteQuery } from '#schemas/site';
import { listNotificationsQuery, notificationParams } from '#schemas/notification';
import { exportIdeasQuery, exportVotesQuery, listCheckpointsQuery, userExportParams } from '#schemas/results';
import { digestLoginQuery, loginQuery, logoutQuery } from '#schemas/oauth';
import { listMarkersQuery } from '#schemas/discovery';
import { tagParams } from '#schemas/tag';
import type { InputComponent, OutputComponent } from '#lib/openapi/components';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** none: no token is read; optional: a token changes what is shown; required: 401 without one. */
export type Auth = 'none' | 'optional' | 'required';

export type DomainErrorStatus = 403 | 409 | 429 | 502 | 503;

export const TAGS = {
  Sites: 'Sites and their configuration.',
  Ideas: 'Ideas of a site, with include flags for votes, arguments, user and poster image, filters and map markers.',
  Tags: 'Tags of a site, which ideas carry; the idea list filters by them.',
  Articles: 'Articles (blog or news items) of a site: ideas without votes and arguments.',
  Arguments: 'Arguments for and against ideas, and votes on arguments.',
  Votes: 'Votes on ideas: likes, count, budgeting and their per-theme forms.',
  Results: 'Results, exports and the verifiable vote record (docs/results.md).',
  Users: 'Users of a site (a cache of the auth server), their activity and anonymization.',
  Newsletter: 'Newsletter signups and their confirmation.',
  Notifications: 'The outbox of a site: what the service would mail, for an external mailer (lifecycle).',
  Login: 'Login per site through the OAuth 2.0 auth server; the API issues the JWT.',
  System: 'This documentation and the health check.',
} as const;
export type Tag = keyof typeof TAGS;

export type SuccessSchema = OutputComponent | OutputComponent[] | 'OpenApiDocument' | 'Html' | 'Csv' | 'PabulibOrCsv';

export interface HeaderParam {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

export interface RouteDoc {
  operationId: string;
  method: Method;
  path: string;
  tag: Tag;
  summary: string;
  description?: string;
  /** Who may call it. */
  access: string;
  auth: Auth;
  params?: z.ZodType;
  query?: z.ZodType;
  headers?: HeaderParam[];
  /** Parameter descriptions that differ on this route from lib/openapi/parameters.ts. */
  parameterDocs?: Record<string, string>;
  body?: InputComponent;
  /** Default true when there is a body. */
  bodyRequired?: boolean;
  success: { status: 200 | 201 | 302; description: string; schema?: SuccessSchema };
  errors?: DomainErrorStatus[];
  /** What an error status means on this route, where the shared description says too little. */
  errorNotes?: Partial<Record<number, string>>;
}

const listQuery = z.object(pageQuery);
const ok = (schema: SuccessSchema, description = 'OK') => ({ status: 200 as const, description, schema });
const created = (schema: OutputComponent) => ({ status: 201 as const, description: 'Created', schema });
const deleted = ok('Deleted', 'Deleted');
const found = (description: string) => ({ status: 302 as const, description });

// Login: the statuses of an unknown `useOauth` and a bad `redirectUrl` (lib/oauth/config.ts, redirect-url.ts).
const OAUTH_404 = 'An unknown site, or the site has no `config.oauth.<useOauth or default>` entry (the message names the key).';
const OAUTH_400 =
  'A `redirectUrl` that is not absolute, not http(s), carries credentials or whose host is not in `allowedDomains`; no `redirectUrl` while the site configures no after-login redirect; a malformed `useOauth`.';

const anonymizeScope = (all: boolean) => (all ? 'on every site the auth-server user has' : 'on this site');

export const ROUTES: RouteDoc[] = [
  // Sites
  { operationId: 'siteList', method: 'GET', path: '/api/site', tag: 'Sites', summary: 'List all sites', access: 'everyone (config redacted; editors and above see all)', auth: 'optional', query: listQuery, success: ok('SiteList') },
  { operationId: 'siteCreate', method: 'POST', path: '/api/site', tag: 'Sites', summary: 'Create a site', access: 'a service token (a user JWT gets 403)', auth: 'required', body: 'CreateSiteBody', success: created('Site'), errors: [403] },
  { operationId: 'siteGet', method: 'GET', path: '/api/site/{siteId}', tag: 'Sites', summary: 'View one site', access: 'everyone (config redacted; editors and above see all)', auth: 'optional', params: siteParams, success: ok('Site') },
  { operationId: 'siteUpdate', method: 'PUT', path: '/api/site/{siteId}', tag: 'Sites', summary: 'Update one site', access: "a service token or the site's admin", auth: 'required', params: siteParams, body: 'UpdateSiteBody', success: ok('Site'), errors: [403] },
  { operationId: 'siteDelete', method: 'DELETE', path: '/api/site/{siteId}', tag: 'Sites', summary: 'Delete one site', description: 'A site whose project has not ended while it still has users who are not anonymized: 409, unless `force=1` with a service token.', access: "a service token or the site's admin", auth: 'required', params: siteParams, query: deleteSiteQuery, success: deleted, errors: [403, 409] },

  // Ideas
  { operationId: 'ideaList', method: 'GET', path: '/api/site/{siteId}/idea', tag: 'Ideas', summary: 'List the ideas of a site', access: 'everyone', auth: 'optional', params: siteParams, query: listIdeasQuery, success: ok('IdeaList') },
  { operationId: 'ideaCreate', method: 'POST', path: '/api/site/{siteId}/idea', tag: 'Ideas', summary: 'Create an idea', access: 'members and above while `ideas.canAddNewIdeas`; moderators and above always', auth: 'required', params: siteParams, body: 'CreateIdeaBody', success: created('Idea'), errors: [403, 409], errorNotes: { 409: 'A tag in `tags` was deleted while the idea was being stored; try again.' } },
  { operationId: 'ideaGet', method: 'GET', path: '/api/site/{siteId}/idea/{ideaId}', tag: 'Ideas', summary: 'View one idea', access: 'everyone', auth: 'optional', params: ideaParams, query: ideaIncludeQuery, success: ok('Idea') },
  { operationId: 'ideaUpdate', method: 'PUT', path: '/api/site/{siteId}/idea/{ideaId}', tag: 'Ideas', summary: 'Update one idea', access: 'moderators and above; the owner while the idea is OPEN and (unless `ideas.canEditAfterFirstLikeOrArg`) before its first vote or argument', auth: 'required', params: ideaParams, body: 'UpdateIdeaBody', success: ok('Idea'), errors: [403, 409] },
  { operationId: 'ideaDelete', method: 'DELETE', path: '/api/site/{siteId}/idea/{ideaId}', tag: 'Ideas', summary: 'Delete one idea, with its arguments and votes', access: 'as update', auth: 'required', params: ideaParams, success: deleted, errors: [403] },

  // Discovery (issue 18): map markers and tags
  { operationId: 'ideaMarkerList', method: 'GET', path: '/api/site/{siteId}/idea-marker', tag: 'Ideas', summary: 'Map markers of the ideas that have a location', description: 'The light records a map needs, `{id, title, status, location, tags}`, with the same filters, sorts and paging as the idea list (pageSize up to 500). A page may hold fewer records than `pageSize`; only `nextCursor: null` means the end.', access: 'everyone', auth: 'optional', params: siteParams, query: listMarkersQuery, success: ok('IdeaMarkerList') },
  { operationId: 'tagList', method: 'GET', path: '/api/site/{siteId}/tag', tag: 'Tags', summary: 'List the tags of a site', access: 'everyone', auth: 'optional', params: siteParams, query: listQuery, success: ok('TagList') },
  { operationId: 'tagCreate', method: 'POST', path: '/api/site/{siteId}/tag', tag: 'Tags', summary: 'Create a tag', description: '`name` (1-64 characters) is unique per site and `group`, compared case-insensitively: a duplicate is a 409.', access: 'moderators and above', auth: 'required', params: siteParams, body: 'CreateTagBody', success: created('Tag'), errors: [403, 409] },
  { operationId: 'tagUpdate', method: 'PUT', path: '/api/site/{siteId}/tag/{tagId}', tag: 'Tags', summary: 'Rename a tag or change its group', description: 'Partial. A name already taken in the group is a 409.', access: 'moderators and above', auth: 'required', params: tagParams, body: 'UpdateTagBody', success: ok('Tag'), errors: [403, 409] },
  { operationId: 'tagDelete', method: 'DELETE', path: '/api/site/{siteId}/tag/{tagId}', tag: 'Tags', summary: 'Delete a tag and remove it from every idea', description: 'A retried DELETE after a failure finishes the job.', access: 'moderators and above', auth: 'required', params: tagParams, success: deleted, errors: [403, 409] },

  // Articles
  { operationId: 'articleList', method: 'GET', path: '/api/site/{siteId}/article', tag: 'Articles', summary: 'List the articles of a site', access: 'everyone', auth: 'optional', params: siteParams, query: listArticlesQuery, success: ok('ArticleList') },
  { operationId: 'articleCreate', method: 'POST', path: '/api/site/{siteId}/article', tag: 'Articles', summary: 'Create an article', access: 'moderators and above while `articles.canAddNewArticles`; editors and above always', auth: 'required', params: siteParams, body: 'CreateArticleBody', success: created('Article'), errors: [403] },
  { operationId: 'articleGet', method: 'GET', path: '/api/site/{siteId}/article/{articleId}', tag: 'Articles', summary: 'View one article', access: 'everyone', auth: 'optional', params: articleParams, query: articleIncludeQuery, success: ok('Article') },
  { operationId: 'articleUpdate', method: 'PUT', path: '/api/site/{siteId}/article/{articleId}', tag: 'Articles', summary: 'Update one article', access: 'moderators and above, the owner', auth: 'required', params: articleParams, body: 'UpdateArticleBody', success: ok('Article'), errors: [403, 409] },
  { operationId: 'articleDelete', method: 'DELETE', path: '/api/site/{siteId}/article/{articleId}', tag: 'Articles', summary: 'Delete one article', access: 'moderators and above, the owner', auth: 'required', params: articleParams, success: deleted, errors: [403] },

  // Arguments
  { operationId: 'argumentListSite', method: 'GET', path: '/api/site/{siteId}/argument', tag: 'Arguments', summary: 'List all arguments of a site', access: 'everyone', auth: 'optional', params: siteParams, query: argumentListQuery, success: ok('ArgumentList') },
  { operationId: 'argumentList', method: 'GET', path: '/api/site/{siteId}/idea/{ideaId}/argument', tag: 'Arguments', summary: 'List the arguments of one idea', access: 'everyone', auth: 'optional', params: ideaArgumentsParams, query: argumentListQuery, success: ok('ArgumentList') },
  { operationId: 'argumentCreate', method: 'POST', path: '/api/site/{siteId}/idea/{ideaId}/argument', tag: 'Arguments', summary: 'Create an argument', access: 'members and above unless `arguments.isClosed` (moderators and above always)', auth: 'required', params: ideaArgumentsParams, body: 'CreateArgumentBody', success: created('Argument'), errors: [403] },
  { operationId: 'argumentGet', method: 'GET', path: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}', tag: 'Arguments', summary: 'View one argument', access: 'everyone', auth: 'optional', params: argumentParams, query: argumentFlagsQuery, success: ok('Argument') },
  { operationId: 'argumentUpdate', method: 'PUT', path: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}', tag: 'Arguments', summary: 'Update one argument', access: 'moderators and above, the owner', auth: 'required', params: argumentParams, body: 'UpdateArgumentBody', success: ok('Argument'), errors: [403] },
  { operationId: 'argumentDelete', method: 'DELETE', path: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}', tag: 'Arguments', summary: 'Delete one argument', access: 'moderators and above, the owner', auth: 'required', params: argumentParams, success: deleted, errors: [403] },
  { operationId: 'argumentVote', method: 'POST', path: '/api/site/{siteId}/idea/{ideaId}/argument/{argumentId}/vote', tag: 'Arguments', summary: "Toggle the caller's vote on an argument", description: 'Needs no body. Answers the argument with `yes` and `hasUserVoted`.', access: 'members and above', auth: 'required', params: argumentParams, success: ok('Argument'), errors: [403, 409], errorNotes: { 403: 'The role is below member, or the token is a service token (it has no user to vote as).' } },

  // Votes
  { operationId: 'voteList', method: 'GET', path: '/api/site/{siteId}/vote', tag: 'Votes', summary: 'List the votes of a site', access: 'everyone when `votes.isViewable`, else moderators and above; `userId` (field and filter) for moderators and above only', auth: 'optional', params: siteParams, query: listVotesQuery, success: ok('VoteList'), errors: [403] },
  {
    operationId: 'voteCast',
    method: 'POST',
    path: '/api/site/{siteId}/vote',
    tag: 'Votes',
    summary: 'Cast a round of votes',
    description:
      'The rules of `config.votes` apply: likes toggle; count and budgeting replace or refuse (`withExisting`); ' +
      'the number of ideas, the budget and the per-theme limits are checked. 403 while voting is closed, 409 when already voted with `withExisting` = `error`. ' +
      'An unknown idea in a round is a 400.',
    access: '`votes.requiredUserRole` or higher',
    auth: 'required',
    params: siteParams,
    headers: [
      {
        name: 'Idempotency-Key',
        description: 'A retried round with the same key gets the first answer back (header `Idempotent-Replayed: true`) and writes nothing; the same key with another round is a 409.',
        schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' },
      },
    ],
    body: 'VoteRoundBody',
    success: ok('VoteRound', "The caller's current votes on the site"),
    errors: [403, 409],
    errorNotes: { 403: 'Voting is closed (`votes.isActive`, `isActiveFrom` / `isActiveTo`), the role is below `votes.requiredUserRole`, or the token is a service token (it has no user to vote as).' },
  },

  // Users
  { operationId: 'userList', method: 'GET', path: '/api/site/{siteId}/user', tag: 'Users', summary: 'List the users of a site', access: 'moderators and above', auth: 'required', params: siteParams, query: listQuery, success: ok('UserList'), errors: [403] },
  { operationId: 'userCreate', method: 'POST', path: '/api/site/{siteId}/user', tag: 'Users', summary: 'Create a user (also on the auth server)', access: 'moderators and above while `users.canCreateNewUsers`', auth: 'required', params: siteParams, body: 'CreateUserBody', success: created('User'), errors: [403, 409, 502] },
  { operationId: 'userGet', method: 'GET', path: '/api/site/{siteId}/user/{userId}', tag: 'Users', summary: 'View one user', access: 'everyone; the owner and moderators and above see all fields, others `{id, role, displayName, nickName}`', auth: 'optional', params: userParams, success: ok(['User', 'PublicUser']) },
  { operationId: 'userUpdate', method: 'PUT', path: '/api/site/{siteId}/user/{userId}', tag: 'Users', summary: 'Update one user (also on the auth server)', access: 'the owner, moderators and above; nobody may give a role above their own', auth: 'required', params: userParams, body: 'UpdateUserBody', success: ok('User'), errors: [403, 409, 502] },
  { operationId: 'userDelete', method: 'DELETE', path: '/api/site/{siteId}/user/{userId}', tag: 'Users', summary: 'Delete one user', access: 'the owner, moderators and above', auth: 'required', params: userParams, success: deleted, errors: [403, 502] },
  { operationId: 'userActivity', method: 'GET', path: '/api/site/{siteId}/user/{userId}/activity', tag: 'Users', summary: "A user's ideas, articles, arguments and votes", description: '`includeOtherSites` (default true) adds the same auth-server user on other sites. When none of the four include flags is given, all are on.', access: 'the owner, moderators and above', auth: 'required', params: userParams, query: activityQuery, parameterDocs: { includeArguments: "The user's arguments (see includeIdeas)." }, success: ok('Activity'), errors: [403] },
  ...(['will-anonymize', 'will-anonymizeall'] as const).flatMap((action): RouteDoc[] =>
    (['GET', 'PUT'] as const).map((method) => ({
      operationId: `user${action === 'will-anonymize' ? 'WillAnonymize' : 'WillAnonymizeAll'}${method === 'GET' ? '' : 'Put'}`,
      method,
      path: `/api/site/{siteId}/user/{userId}/${action}`,
      tag: 'Users' as const,
      summary: `Preview anonymizing a user ${anonymizeScope(action.endsWith('all'))}`,
      description: 'Changes nothing. Answers the ideas and arguments that would be anonymized, the votes that would be removed, the users that would be anonymized and the sites related to them.',
      access: 'the owner, moderators and above',
      auth: 'required' as const,
      params: userParams,
      success: ok('AnonymizeReport'),
      errors: [403],
    })),
  ),
  ...(['do-anonymize', 'do-anonymizeall'] as const).map((action): RouteDoc => ({
    operationId: action === 'do-anonymize' ? 'userDoAnonymize' : 'userDoAnonymizeAll',
    method: 'PUT',
    path: `/api/site/{siteId}/user/{userId}/${action}`,
    tag: 'Users',
    summary: `Anonymize a user ${anonymizeScope(action.endsWith('all'))}`,
    description:
      'Removes personal data, replaces first and last name with `config.users.anonymize`, removes the votes while voting is active, ' +
      'unlinks the auth-server user and deletes it there when no other site has it. Answers the records as they were before.',
    access: 'the owner, moderators and above',
    auth: 'required',
    params: userParams,
    success: ok('AnonymizeReport'),
    errors: [403, 409, 502],
    errorNotes: { 409: 'The user or their votes kept changing while being anonymized; try again.' },
  })),

  // Newsletter
  { operationId: 'newsletterSignupList', method: 'GET', path: '/api/site/{siteId}/newslettersignup', tag: 'Newsletter', summary: 'List the newsletter signups of a site', access: 'moderators and above', auth: 'required', params: siteParams, query: listSignupsQuery, success: ok('NewsletterSignupList'), errors: [403] },
  { operationId: 'newsletterSignupCreate', method: 'POST', path: '/api/site/{siteId}/newslettersignup', tag: 'Newsletter', summary: 'Sign up for the newsletter', access: 'everyone while `newslettersignup.isActive`', auth: 'optional', params: siteParams, body: 'NewsletterSignupBody', success: created('NewsletterSignup'), errors: [403, 409, 429] },
  { operationId: 'newsletterConfirm', method: 'POST', path: '/api/site/{siteId}/confirm', tag: 'Newsletter', summary: 'Confirm a newsletter signup', description: 'An unknown token is a 404.', access: 'everyone', auth: 'optional', params: siteParams, body: 'ConfirmBody', success: ok('NewsletterSignup', 'The signup, with `confirmed: true`'), errors: [429] },

  // Lifecycle: the site's outbox (what the service would mail)
  { operationId: 'notificationList', method: 'GET', path: '/api/site/{siteId}/notification', tag: 'Notifications', summary: "List the site's outbox", description: 'Notifications the scheduled jobs wrote (project ended, inactivity warnings) for an external mailer; `status` filters.', access: "a service token or the site's admin", auth: 'required', params: siteParams, query: listNotificationsQuery, success: ok('NotificationList'), errors: [403] },
  { operationId: 'notificationSent', method: 'POST', path: '/api/site/{siteId}/notification/{notificationId}/sent', tag: 'Notifications', summary: 'Mark a notification sent', description: 'Needs no body. Marking it again answers it as first marked.', access: "a service token or the site's admin", auth: 'required', params: notificationParams, success: ok('Notification'), errors: [403] },

  // Results, exports and the vote record (issue 16)
  { operationId: 'resultsGet', method: 'GET', path: '/api/site/{siteId}/results', tag: 'Results', summary: 'The results of the vote', description: 'Computed from the ballots on each call (`computedAt`, `ballots` counted): ranking for every vote type; greedy and Equal Shares winners for budgeting types; the same per theme for per-theme types.', access: 'moderators and above always; everyone when `votes.isViewable` or once `project.projectHasEnded`', auth: 'optional', params: siteParams, success: ok('Results'), errors: [403] },
  { operationId: 'exportVotes', method: 'GET', path: '/api/site/{siteId}/export/votes', tag: 'Results', summary: 'Export the votes (Pabulib or CSV)', description: '`format=pabulib`: `text/plain` `.pb` file (META, PROJECTS, VOTES; count and budgeting types). `format=csv`: `text/csv`, header row `id,userId,ideaId,opinion,createdAt`, one row per vote. Long exports come in pages of a few MB: the next one is in the `Link: <...>; rel="next"` header (`?cursor=`); the pages concatenated are the whole file.', access: "a service token or the site's admin", auth: 'required', params: siteParams, query: exportVotesQuery, success: ok('PabulibOrCsv'), errors: [403] },
  { operationId: 'exportIdeas', method: 'GET', path: '/api/site/{siteId}/export/ideas', tag: 'Results', summary: 'Export the ideas with their tallies (CSV)', description: '`text/csv`, header row `id,title,status,budget,theme,yes,no,createdAt`. Paged like the vote export (`Link` header, `?cursor=`).', access: "a service token or the site's admin", auth: 'required', params: siteParams, query: exportIdeasQuery, success: ok('Csv'), errors: [403] },
  { operationId: 'voteCheckpointList', method: 'GET', path: '/api/site/{siteId}/vote-checkpoint', tag: 'Results', summary: 'List the published vote checkpoints', description: 'Oldest first. Written by the `vote-checkpoints` job when the ballots changed; `npm run verify-votes -- --site N` checks the latest.', access: 'moderators and above', auth: 'required', params: siteParams, query: listCheckpointsQuery, success: ok('VoteCheckpointList'), errors: [403] },
  { operationId: 'userExport', method: 'GET', path: '/api/site/{siteId}/user/{userId}/export', tag: 'Users', summary: "Export everything the API holds about a person", description: "GDPR art. 15/20: `{users, ideas, articles, arguments, votes, newsletterSignups}` over every site the same auth-server user is on (for the user themself or a service token; a site admin's export holds this site's records only).", access: "the user themself or a service token (every site); the site's admin (this site's records only)", auth: 'required', params: userExportParams, success: ok('UserExport'), errors: [403] },

  // Login
  { operationId: 'oauthLogin', method: 'GET', path: '/oauth/site/{siteId}/login', tag: 'Login', summary: 'Start a login', description: '`redirectUrl` must be absolute and its host listed in `allowedDomains` (else 400); without one, `cms.after-login-redirect-uri`, then the oauth entry\'s `after-login-redirect-uri`. A site without the oauth entry asked for: 404. Sets the HttpOnly login cookie that digest-login requires.', access: 'everyone', auth: 'none', params: siteParams, query: loginQuery, success: found('To the auth server (`config.oauth.<useOauth or default>`), with `response_type=code`, `client_id`, `redirect_uri` and a signed `state`'), errors: [429, 502], errorNotes: { 400: OAUTH_400, 404: OAUTH_404, 502: 'The oauth entry lacks `auth-server-url`, `auth-client-id` or `auth-client-secret`.' } },
  { operationId: 'oauthDigestLogin', method: 'GET', path: '/oauth/site/{siteId}/digest-login', tag: 'Login', summary: 'Finish a login (the auth server redirects here)', description: 'Needs the login cookie of the browser that started the login; a state works once (a replay is 400).', access: 'everyone', auth: 'none', params: siteParams, query: digestLoginQuery, success: found('To the `redirectUrl` of the login, with `jwt=<token>` added to its query'), errors: [409, 429, 502], errorNotes: { 400: 'No `code`, a `state` that is invalid, expired, of another site or already used, no login cookie of this browser, or a code the auth server refuses.', 404: 'An unknown site, or the `config.oauth` entry the login started with is gone (the message names the key).' } },
  { operationId: 'oauthMe', method: 'GET', path: '/oauth/site/{siteId}/me', tag: 'Login', summary: "The caller's own user record", access: 'a user token of this site', auth: 'required', params: siteParams, success: ok('User'), errorNotes: { 401: 'No, an invalid or expired token, a token of another site, or a service token (it is no user of the site, so it has no own record); or the site\'s Basic Auth missing or wrong.' } },
  { operationId: 'oauthLogout', method: 'GET', path: '/oauth/site/{siteId}/logout', tag: 'Login', summary: 'Log out at the auth server', access: 'everyone', auth: 'none', params: siteParams, query: logoutQuery, success: found("To the auth server's logout path"), errors: [502], errorNotes: { 400: 'A `redirectUrl` that is not absolute or whose host is not in `allowedDomains`.', 404: OAUTH_404, 502: 'The oauth entry lacks `auth-server-url`, `auth-client-id` or `auth-client-secret`.' } },

  // System
  { operationId: 'openapi', method: 'GET', path: '/api/openapi.json', tag: 'System', summary: 'This OpenAPI document', access: 'everyone', auth: 'none', success: ok('OpenApiDocument') },
  { operationId: 'docs', method: 'GET', path: '/api/docs', tag: 'System', summary: 'A readable page of this document', access: 'everyone', auth: 'none', success: ok('Html') },
  // Health check
  { operationId: 'health', method: 'GET', path: '/api/health', tag: 'System', summary: 'Is the API up and its database reachable?', access: 'everyone', auth: 'none', success: ok('Health'), errors: [503] },
];
