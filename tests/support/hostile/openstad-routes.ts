/**
 * The OpenStad surface in the hostile route table (docs/openstad.md): one function for every path under
 * `/openstad`, so one entry per main route behind it (its twin: the same baseline, ids and refusals,
 * the path under the prefix) and one per stats route. The surface reads queries leniently (a bad value
 * is ignored) and translates bodies (string ids, GeoJSON), so its entries carry no query or body spec
 * of their own: the main entries attack those rules; these attack what the surface adds in front of
 * them (its routing, Basic Auth first, tokens, unreadable bodies, malformed text).
 */
import type { DeniedCaller, Route } from '#tests/support/hostile/routes';
import type { Handler } from '#tests/support/hostile/send';

export const OPENSTAD_FUNCTION = 'openstad';
const MODULE = 'functions/openstad/handler';

let loaded: Promise<Handler> | undefined;
/** Loaded on its first call, as the table's other handlers are. */
const surface: Handler = async (event, context) => {
  loaded ??= import('../../../functions/openstad/handler.ts').then((module) => module.handler as Handler);
  return (await loaded)(event, context);
};

/**
 * Not behind the surface (a path of theirs under the prefix is a 404): the catch-all is its own fallback,
 * the vote record's public key has an access class of its own, and the API's description and health
 * check are the main API's (tests/integration/openstad/surface.test.ts asks for them).
 */
export const NOT_BEHIND: ReadonlySet<string> = new Set(['notFound', 'voteRecordKey', 'openapi', 'docs', 'health']);

/** Refusals the surface answers otherwise by design (docs/openstad.md): OpenStad ignored a sort by votes the caller may not see. */
const SURFACE_DECISIONS = new Set(['an anonymous order by hidden votes', 'a member ordering by hidden votes']);

/**
 * A refusal the surface gives as the main API does. On a read, a token the main API refuses is asked
 * again without it (OpenStad's anonymous reader): there a refusal for the token itself (401) may become
 * the anonymous answer, so only the refusals of no token and of a valid token's role carry over.
 */
const carriesOver = (route: Route, denied: DeniedCaller) =>
  !SURFACE_DECISIONS.has(denied.label) && (route.method !== 'GET' || denied.status !== 401 || denied.label === 'no token');


function twin(main: Route): Route {
  return {
    name: OPENSTAD_FUNCTION,
    key: `${OPENSTAD_FUNCTION} ${main.name}`,
    operationId: main.operationId ?? main.name,
    module: MODULE,
    handler: surface,
    method: main.method,
    path: `/openstad${main.path}`,
    ids: main.ids,
    baseline: main.baseline,
    ...(main.denied ? { denied: main.denied.filter((denied) => carriesOver(main, denied)) } : {}),
    ...(main.watches ? { watches: main.watches } : {}),
    lenient: true,
  };
}

const STATS: Array<{ path: string; query?: Record<string, string> }> = [
  { path: 'idea/total' },
  { path: 'vote/total', query: { opinion: 'yes' } },
  { path: 'vote/no-of-users' },
  { path: 'argument/total', query: { sentiment: 'for' } },
  { path: 'overview' },
];

function statsRoute({ path, query }: (typeof STATS)[number]): Route {
  const moderatorOnly = path === 'overview';
  return {
    name: OPENSTAD_FUNCTION,
    key: `${OPENSTAD_FUNCTION} stats ${path}`,
    module: MODULE,
    handler: surface,
    method: 'GET',
    path: `/openstad/stats/site/{siteId}/${path}`,
    ids: {},
    baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId) }, ...(query ? { query } : {}), token: ctx.w.moderator.token }),
    ...(moderatorOnly
      ? {
          denied: [
            { label: 'no token', status: 401, change: (_ctx, { token: _token, ...base }) => base },
            { label: 'a member', status: 403, change: (ctx, base) => ({ ...base, token: ctx.w.member.token }) },
          ] satisfies DeniedCaller[],
        }
      : {}),
    lenient: true,
  };
}

/**
 * OpenStad's moderator toggle of a vote: a GET that writes (the main PUT /vote/:voteId behind it). Not
 * `lenient`: it is no read, so its refusals are the main route's exactly (a refused token is 401, never
 * asked again as anonymous; bad ids 400, another site's vote 404).
 */
export const VOTE_TOGGLE_KEY = `${OPENSTAD_FUNCTION} vote toggle`;
const voteToggle: Route = {
  name: OPENSTAD_FUNCTION,
  key: VOTE_TOGGLE_KEY,
  operationId: 'voteReview',
  module: MODULE,
  handler: surface,
  method: 'GET',
  path: '/openstad/api/site/{siteId}/vote/{voteId}/toggle',
  ids: { voteId: (ctx) => ctx.other.voteId },
  baseline: (ctx) => ({ params: { siteId: String(ctx.w.siteId), voteId: String(ctx.w.voteId) }, token: ctx.w.moderator.token }),
  denied: [
    { label: 'no token', status: 401, change: (_ctx, { token: _token, ...base }) => base },
    { label: 'the voter', status: 403, change: (ctx, base) => ({ ...base, token: ctx.w.member.token }) },
    { label: "another site's moderator", status: 401, change: (ctx, base) => ({ ...base, token: ctx.other.moderator.token }) },
  ],
};

/** The surface's entries: a twin of each main entry behind it, the stats routes and the vote toggle. */
export function openstadRoutes(main: readonly Route[]): Route[] {
  return [...main.filter((route) => route.name !== OPENSTAD_FUNCTION && !NOT_BEHIND.has(route.name)).map(twin), ...STATS.map(statsRoute), voteToggle];
}
