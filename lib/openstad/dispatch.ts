/**
 * The OpenStad v1 surface (`/openstad/api/...`, `/openstad/oauth/...`, `/openstad/stats/...`): one
 * function for the whole prefix, an adapter at the edge (DESIGN habit 21). It translates the request
 * into the main API's (path without the prefix, lenient query, ids and GeoJSON in the body, a service
 * token without `Bearer`), calls the main route's own handler with it, and translates the answer into
 * OpenStad's shapes. Every rule stays the main API's: the handler it calls is the one behind the same
 * main route, with its site loading, Basic Auth, tenancy, roles, rate limits, body limits and CORS;
 * the adapter adds no access decision of its own and can only take a token away, never add one.
 *
 *   - A request the adapter cannot read (a body that is not clean JSON, too large, a reserved key)
 *     goes to the main handler untouched, which answers it in its own order (Basic Auth first).
 *   - A GET answered 401 because of the caller's token (not the site's Basic Auth) is asked again
 *     without it: OpenStad served public reads to a bad, expired or other-site token as anonymous.
 *   - Lists are read whole through the main API's cursor (500 records a call) and answered as a bare
 *     array, or with `page` as OpenStad's page envelope. A bare array stops before Lambda's 6 MB answer
 *     limit: then it carries `X-Openstad-Truncated: true` and `X-Total-Count`, and `page` reads the rest.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { withHttpStack } from '#lib/http/stack';
import { jsonResponse } from '#lib/http/response';
import { parseJsonBody } from '#lib/http/body';
import { isServiceToken } from '#lib/auth/service-tokens';
import { loadSecrets } from '#lib/store/secrets/load';
import { logger } from '#lib/log/logger';
import { OPENSTAD_PREFIX } from '#lib/openstad/function';
import { ROUTES } from '#lib/openapi/routes';
import type { Route } from '#lib/routes/route';
import { lenientQuery, readOpenStadQuery, type OpenStadQuery } from '#lib/openstad/query';
import { translateBody } from '#lib/openstad/body';
import { argumentView, articleView, ideaView, tagView, toggleView, voteView, type TagView } from '#lib/openstad/records';
import { filterRecords, MAIN_SORTS, pageEnvelope, sortIdeas } from '#lib/openstad/lists';
import { overview } from '#lib/openstad/stats';

export type TargetHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

const NOT_FOUND = 'functions/system/not-found';
/** The main API's largest page: whole lists are read in as few calls as it allows. */
const LIST_PAGE = '500';
/** What a bare list may hold of JSON: under Lambda's 6 MB answer, with room for the added fields. */
const BARE_LIST_BYTES = 5_000_000;

type Rec = Record<string, unknown>;

interface Answer {
  result: APIGatewayProxyStructuredResultV2;
  status: number;
  json: unknown;
}

interface Compiled {
  route: Route;
  pattern: RegExp;
  names: string[];
}

/** OpenStad paths that differ from the main API's: its newsletter confirm lived under the signup path. */
/** A stats path's site, as the main API's paths name it (for the catch-all: its preflight, its Basic Auth). */
const STATS_SITE = /^\/stats\/site\/([^/]+)(?=\/|$)/;

/** The stats paths the surface answers (lib/openstad/stats.ts). */
const STATS_ROUTE = /^\/stats\/site\/([^/]+)\/(idea\/total|vote\/total|vote\/no-of-users|argument\/total|overview)\/?$/;

const ALIASES: [RegExp, string][] = [[/^(\/api\/site\/[^/]+)\/newslettersignup\/confirm\/?$/, '$1/confirm']];

/** OpenStad's moderator toggle of a vote (a GET that writes): served by the main PUT /vote/:voteId (lib/votes/review.ts). */
const VOTE_TOGGLE = /^\/api\/site\/([^/]*)\/vote\/([^/]*)\/toggle\/?$/;

function compile(routes: readonly Route[]): Compiled[] {
  return routes.map((route) => {
    const names: string[] = [];
    const source = route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { route, pattern: new RegExp(`^${source}/?$`), names };
  });
}

const isObject = (value: unknown): value is Rec => typeof value === 'object' && value !== null && !Array.isArray(value);
const isEnvelope = (json: unknown): json is { records: unknown[]; metadata: { nextCursor: string | null } } =>
  isObject(json) && Array.isArray(json['records']) && isObject(json['metadata']) && 'nextCursor' in json['metadata'];

/**
 * `X-Authorization` as the main API reads it: a service token without `Bearer` (the CMS's
 * SITE_API_KEY) gets the scheme; anything else without it is no token (OpenStad ignored it).
 */
function normaliseAuthorization(headers: Record<string, string | undefined>): Record<string, string | undefined> {
  const value = headers['x-authorization'];
  if (value === undefined || /^bearer\s/i.test(value)) return headers;
  const { ['x-authorization']: _dropped, ...rest } = headers;
  const token = value.trim();
  return token && isServiceToken(token) ? { ...rest, 'x-authorization': `Bearer ${token}` } : rest;
}

/**
 * Request headers no inner call receives: a validator of the OpenStad answer (which the outer stack
 * tags from the body it sends) means nothing to the main answer it is built from, and a 304 there
 * would leave the adapter without the records it reshapes.
 */
const CONDITIONAL = new Set(['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range']);
/** Inner answer headers that describe the inner body: the adapter sends another body, the outer stack decides these. */
const INNER_CACHE_HEADERS = new Set(['etag', 'cache-control', 'vary', 'last-modified']);

const isPublicAnswer = (result: APIGatewayProxyStructuredResultV2) =>
  Object.entries(result.headers ?? {}).some(([name, value]) => name.toLowerCase() === 'cache-control' && /(^|,)\s*public\s*(,|$)/i.test(String(value)));

/** An answer without the inner answer's cache headers. */
function withoutInnerCacheHeaders(result: APIGatewayProxyStructuredResultV2): APIGatewayProxyStructuredResultV2 {
  if (!result.headers) return result;
  return { ...result, headers: Object.fromEntries(Object.entries(result.headers).filter(([name]) => !INNER_CACHE_HEADERS.has(name.toLowerCase()))) };
}

export function openstadHandler(targets: Readonly<Record<string, TargetHandler>>) {
  // Only the routes behind the surface: a path of another (the API's description, its health check, the
  // vote record's public key) is not found here, as any unknown path.
  const compiled = compile(ROUTES.filter((route) => route.handler in targets));

  // The outer stack tags and caches an answer as a public read (an ETag of the exact body sent,
  // lib/http/caching.ts) only when every main answer it was built from was itself public; any other
  // is `no-store` (and `private, no-store` for a request with credentials, as everywhere).
  return withHttpStack(
    async (event: APIGatewayProxyEventV2, context: Context) => {
      const built = { public: true };
      const result = withoutInnerCacheHeaders(await answerOf(event, context, built));
      if (built.public) return result;
      return { ...result, headers: { ...result.headers, 'cache-control': 'no-store' } };
    },
    { cache: 'public' },
  );

  async function answerOf(event: APIGatewayProxyEventV2, context: Context, built: { public: boolean }): Promise<APIGatewayProxyStructuredResultV2> {
    // Before the token is read: a service token is recognised by the stored hashes (a deployed stage's secret store).
    await loadSecrets(['serviceTokens'], (error) => logger.error('secret store refresh failed; using the values read before', { error: error as Error }));
    const method = event.requestContext.http.method.toUpperCase();
    const outerPath = event.rawPath ?? event.requestContext.http.path;
    let path = outerPath.startsWith(`${OPENSTAD_PREFIX}/`) ? outerPath.slice(OPENSTAD_PREFIX.length) : '/';
    for (const [pattern, replacement] of ALIASES) path = path.replace(pattern, replacement);
    const headers = Object.fromEntries(
      Object.entries(normaliseAuthorization(event.headers as Record<string, string | undefined>)).filter(([name]) => !CONDITIONAL.has(name.toLowerCase())),
    );
    const query = readOpenStadQuery(event.rawQueryString);

    // A read's body goes as it came to every main handler the read calls: each judges it as it judges its
    // own (a malformed, oversized or mistyped one is refused there, as on the main route).
    const readBody = method === 'GET' ? { text: event.body, base64: event.isBase64Encoded ?? false } : { text: undefined, base64: false };

    // The main handler with an event for `path`; `pathParameters` from its route.
    const call = async (
      target: Compiled | undefined,
      params: Rec,
      mainQuery: Record<string, string>,
      givenBody: string | undefined,
      givenBase64 = false,
      givenHeaders: Record<string, string | undefined> = {},
    ): Promise<Answer> => {
      const body = givenBody ?? readBody.text;
      const base64 = givenBody === undefined ? readBody.base64 : givenBase64;
      const handler = targets[target ? target.route.handler : NOT_FOUND];
      if (!handler) throw new Error(`no handler for ${target?.route.operationId ?? 'not-found'}`);
      const send = async (sendHeaders: Record<string, string | undefined>) => {
        const inner: APIGatewayProxyEventV2 = {
          ...event,
          routeKey: target ? `${target.route.method} ${target.route.path}` : '$default',
          rawPath: path,
          rawQueryString: new URLSearchParams(mainQuery).toString(),
          queryStringParameters: Object.keys(mainQuery).length > 0 ? mainQuery : undefined,
          pathParameters: params as Record<string, string>,
          headers: sendHeaders as Record<string, string>,
          body,
          isBase64Encoded: base64,
          // The main route's own method: OpenStad's toggle is a GET that the main API serves as a PUT.
          requestContext: { ...event.requestContext, http: { ...event.requestContext.http, path, method: target ? target.route.method : event.requestContext.http.method } },
        };
        const result = ((await handler(inner, context)) ?? { statusCode: 500 }) as APIGatewayProxyStructuredResultV2;
        const status = result.statusCode ?? 200;
        if (!isPublicAnswer(result)) built.public = false;
        let json: unknown;
        const type = String(result.headers?.['content-type'] ?? '');
        if (type.includes('json') && typeof result.body === 'string' && result.body !== '') json = JSON.parse(result.body);
        return { result, status, json };
      };
      const first = await send({ ...headers, ...givenHeaders });
      // A public read with a token the main API refuses (bad, expired, another site's): OpenStad's anonymous.
      if (method === 'GET' && (target?.route.method ?? 'GET') === 'GET' && first.status === 401 && headers['x-authorization'] !== undefined && !hasChallenge(first.result)) {
        const { ['x-authorization']: _token, ...anonymous } = headers;
        return send(anonymous);
      }
      return first;
    };

    // A CORS preflight never carries credentials and needs none: the main catch-all answers it 204 with
    // the CORS headers of the site in the path (a stats path names its site as the API's paths do).
    if (method === 'OPTIONS') {
      path = path.replace(STATS_SITE, '/api/site/$1');
      return (await call(undefined, {}, {}, undefined)).result;
    }
    if (path.startsWith('/stats/')) {
      // Only GET reads a figure; another method or an unknown stats path is the catch-all's answer for
      // the site the path names (its Basic Auth first, then 404).
      if (method === 'GET' && STATS_ROUTE.test(path)) return stats(path, query, compiled, call);
      path = path.replace(STATS_SITE, '/api/site/$1');
      return (await call(undefined, {}, {}, event.body, event.isBase64Encoded)).result;
    }

    const toggle = method === 'GET' ? VOTE_TOGGLE.exec(path) : null;
    if (toggle) return toggleVote(decodePathPart(toggle[1]!), decodePathPart(toggle[2]!));

    const match = findRoute(compiled, method, path);
    if (!match) return (await call(undefined, {}, {}, event.body, event.isBase64Encoded)).result;
    const { target, params } = match;
    const route = target.route;
    const body = requestBody(event);
    const mainQuery = lenientQuery(route.query, query.main);

    if (method !== 'GET') {
      const answer = await call(target, params, mainQuery, body.text, body.base64);
      if (route.operationId === 'voteCast') return roundAnswer(answer, body.parsed);
      return reshape(answer, route, undefined);
    }

    // Reads: lists whole (then bare or paged), single records reshaped.
    const isIdeaList = route.operationId === 'ideaList';
    const sortInMain = query.sort !== undefined && MAIN_SORTS.has(query.sort);
    const listQuery = isIdeaList ? lenientQuery(route.query, { ...query.main, sort: sortInMain ? query.sort! : 'createdate_asc' }) : mainQuery;
    let first = await call(target, params, { ...listQuery, pageSize: LIST_PAGE }, undefined);
    // A sort by votes the caller may not see counts for: OpenStad ignored such a sort.
    if (isIdeaList && first.status === 403 && sortInMain && query.sort!.startsWith('votes_')) {
      first = await call(target, params, { ...listQuery, sort: 'createdate_asc', pageSize: LIST_PAGE }, undefined);
    }
    if (first.status !== 200 || !isEnvelope(first.json)) {
      const hasTags = isObject(first.json) && Array.isArray(first.json['tags']) && first.json['tags'].length > 0;
      const tags = hasTags && route.operationId.startsWith('idea') ? await tagsOf(params) : undefined;
      if (tags && !(tags instanceof Map)) return tags.result;
      return reshape(first, route, tags);
    }
    const all = await wholeList(first, (cursor) => call(target, params, { ...listQuery, pageSize: LIST_PAGE, cursor }, undefined));
    if (!Array.isArray(all)) return all.result;
    let records = all as Rec[];
    if (isIdeaList) records = sortIdeas(filterRecords(records, query.filters, query.exclude), sortInMain ? undefined : query.sort);
    else if (route.operationId === 'voteList' && query.main['orderBy']?.toUpperCase() === 'DESC') records = [...records].reverse();
    const tags = isIdeaList && records.some((r) => Array.isArray(r['tags']) && r['tags'].length > 0) ? await tagsOf(params) : undefined;
    if (tags && !(tags instanceof Map)) return tags.result;
    const shaped = records.map((record) => shapeRecord(route, record, tags));
    const headersOut = passHeaders(first.result);
    if (query.page !== undefined) return jsonResponse(200, pageEnvelope(shaped, query.page, query.pageSize, { path: outerPath, query: event.rawQueryString }), headersOut);
    return bareList(shaped, headersOut);

    /**
     * OpenStad's toggle: the vote's state read through the main PUT without a change (`{}`), then set to
     * the other one, both as the caller (moderators and above; anyone else gets the main route's 401/403
     * at the first call, before anything is written). Answered as openstad-api answered it.
     */
    async function toggleVote(siteId: string, voteId: string): Promise<APIGatewayProxyStructuredResultV2> {
      const target = compiled.find((c) => c.route.operationId === 'voteReview')!;
      path = `/api/site/${siteId}/vote/${voteId}`;
      const json = { 'content-type': 'application/json' };
      // OpenStad's toggle takes no body. One sent anyway is judged by the main route as it came (a
      // malformed, oversized or mistyped one is refused there), less a `rejected` that would set a state.
      // Its query goes to the main route as it came, to judge (it ignores what it does not know).
      const asSent = Object.fromEntries(Object.entries(event.queryStringParameters ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
      const sent = toggleReadBody(event);
      const current = sent ? await call(target, { siteId, voteId }, asSent, sent.text, sent.base64) : await call(target, { siteId, voteId }, asSent, '{}', false, json);
      if (current.status !== 200 || !isObject(current.json)) return current.result;
      const flipped = await call(target, { siteId, voteId }, {}, JSON.stringify({ rejected: current.json['rejected'] !== true }), false, json);
      if (flipped.status !== 200 || !isObject(flipped.json)) return flipped.result;
      return { ...withoutInnerCacheHeaders(flipped.result), body: JSON.stringify(toggleView(flipped.json)) };
    }

    /**
     * The site's tags by id, for ideas that show tag objects (one more call of the main tag list), or the
     * answer that stopped it: ideas are never answered with their tags silently left out.
     */
    async function tagsOf(siteParams: Rec): Promise<Map<number, TagView> | Answer> {
      const tagRoute = compiled.find((c) => c.route.operationId === 'tagList');
      const map = new Map<number, TagView>();
      if (!tagRoute || siteParams['siteId'] === undefined) return map;
      const tagParams = { siteId: siteParams['siteId'] };
      const firstTags = await call(tagRoute, tagParams, { pageSize: LIST_PAGE }, undefined);
      if (firstTags.status !== 200 || !isEnvelope(firstTags.json)) return firstTags;
      const list = await wholeList(firstTags, (cursor) => call(tagRoute, tagParams, { pageSize: LIST_PAGE, cursor }, undefined));
      if (!Array.isArray(list)) return list;
      for (const tag of list as Rec[]) map.set(Number(tag['id']), { id: Number(tag['id']), name: String(tag['name']), type: (tag['group'] as string | null) ?? null });
      return map;
    }
  }
}

function findRoute(compiled: readonly Compiled[], method: string, path: string): { target: Compiled; params: Rec } | undefined {
  for (const target of compiled) {
    if (target.route.method !== method) continue;
    const found = target.pattern.exec(path);
    if (!found) continue;
    const params: Rec = {};
    target.names.forEach((name, i) => {
      params[name] = decodePathPart(found[i + 1]!);
    });
    return { target, params };
  }
  return undefined;
}

/** A path segment decoded; one whose percent-encoding is broken stays as sent (the main route answers it 400). */
function decodePathPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

const hasChallenge = (result: APIGatewayProxyStructuredResultV2) =>
  Object.keys(result.headers ?? {}).some((name) => name.toLowerCase() === 'www-authenticate');

/** The request body to send on: translated when it is clean JSON, else as it came (the main API answers it). */
function requestBody(event: APIGatewayProxyEventV2): { text: string | undefined; base64: boolean; parsed: unknown } {
  const headers = event.headers as Record<string, string | undefined>;
  let parsed: unknown;
  try {
    parsed = parseJsonBody(event.body, event.isBase64Encoded, headers['content-type']);
  } catch {
    return { text: event.body, base64: event.isBase64Encoded ?? false, parsed: undefined };
  }
  if (parsed === undefined) return { text: event.body, base64: event.isBase64Encoded ?? false, parsed };
  return { text: JSON.stringify(translateBody(parsed)), base64: false, parsed };
}

/**
 * The body of a toggle's first call, when the GET carried one: as it came when it is not clean JSON (the
 * main route refuses it), else the same JSON without `rejected` (the first call only reads the state).
 */
function toggleReadBody(event: APIGatewayProxyEventV2): { text: string; base64: boolean } | undefined {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  let parsed: unknown;
  try {
    parsed = parseJsonBody(event.body, event.isBase64Encoded, (event.headers as Record<string, string | undefined>)['content-type']);
  } catch {
    return { text: event.body, base64: event.isBase64Encoded ?? false };
  }
  if (!isObject(parsed)) return { text: event.body, base64: event.isBase64Encoded ?? false };
  const { rejected: _state, ...rest } = parsed;
  return { text: JSON.stringify(rest), base64: false };
}

/** The rest of a list after its first page, read through its cursor; an error answer stops it. */
async function wholeList(first: Answer, next: (cursor: string) => Promise<Answer>): Promise<unknown[] | Answer> {
  let page = first;
  const records: unknown[] = [];
  for (;;) {
    const envelope = page.json as { records: unknown[]; metadata: { nextCursor: string | null } };
    records.push(...envelope.records);
    const cursor = envelope.metadata.nextCursor;
    if (!cursor) return records;
    page = await next(cursor);
    if (page.status !== 200 || !isEnvelope(page.json)) return page;
  }
}

function shapeRecord(route: Route, record: unknown, tags: ReadonlyMap<number, TagView> | undefined): unknown {
  const op = route.operationId;
  if (op.startsWith('idea') && op !== 'ideaMarkerList') return ideaView(record, tags);
  if (op === 'ideaMarkerList') return ideaView(record);
  if (op.startsWith('argument')) return argumentView(record);
  if (op.startsWith('article')) return articleView(record);
  if (op === 'tagList' || op === 'tagCreate' || op === 'tagUpdate') return isObject(record) ? tagView(record) : record;
  if (op === 'voteList') return voteView(record);
  return record;
}

/**
 * Security, CORS and cookie headers of the main answer, kept on the adapter's own; not its type nor its
 * cache headers, which describe the main body (the outer stack tags the body the adapter sends).
 */
function passHeaders(result: APIGatewayProxyStructuredResultV2): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(withoutInnerCacheHeaders(result).headers ?? {})) if (name.toLowerCase() !== 'content-type' && value !== undefined) out[name] = String(value);
  return out;
}

/** A single-record answer in OpenStad's shape; errors, redirects and text answers as they came. */
function reshape(answer: Answer, route: Route, tags: ReadonlyMap<number, TagView> | undefined): APIGatewayProxyStructuredResultV2 {
  if (answer.status >= 300 || !isObject(answer.json)) return answer.result;
  return { ...withoutInnerCacheHeaders(answer.result), body: JSON.stringify(shapeRecord(route, answer.json, tags)) };
}

/** A bare array, cut before Lambda's answer limit (saying so in its headers). */
function bareList(records: unknown[], headers: Record<string, string>): APIGatewayProxyStructuredResultV2 {
  let bytes = 2;
  let kept = records.length;
  for (let i = 0; i < records.length; i++) {
    bytes += JSON.stringify(records[i]).length + 1;
    if (bytes > BARE_LIST_BYTES) {
      kept = i;
      break;
    }
  }
  if (kept === records.length) return jsonResponse(200, records, headers);
  logger.warn('openstad bare list cut at the answer limit', { kept, total: records.length });
  return jsonResponse(200, records.slice(0, kept), { ...headers, 'x-openstad-truncated': 'true', 'x-total-count': String(records.length) });
}

/** OpenStad's vote answer: the caller's votes on the ideas of THIS round (the widgets read `[0]`). */
function roundAnswer(answer: Answer, body: unknown): APIGatewayProxyStructuredResultV2 {
  if (answer.status !== 200 || !Array.isArray(answer.json)) return answer.result;
  const entries = Array.isArray(body) ? body : [body];
  const ideaIds = new Set(entries.map((entry) => (isObject(entry) ? Number(entry['ideaId']) : NaN)));
  const votes = (answer.json as Rec[]).filter((vote) => ideaIds.has(Number(vote['ideaId'])));
  return { ...answer.result, body: JSON.stringify(votes) };
}

type Call = (target: Compiled | undefined, params: Rec, query: Record<string, string>, body: string | undefined) => Promise<Answer>;

/**
 * `/stats/site/:SITE_ID/...` (lib/openstad/stats.ts): counts from the main API's own lists and
 * results, so each figure is visible exactly to those who may read what it counts.
 *   - `idea/total`, `argument/total` (`?sentiment=`, `?ideaId=`): everyone, as the lists.
 *   - `vote/total` (`?opinion=`): the vote list's rule (viewable votes, or moderator+); the ideas'
 *     tallies give the sum.
 *   - `vote/no-of-users`: the ballots of the results snapshot, under the results' rule (OpenStad
 *     answered it to everyone; here the counts stay hidden where the votes are).
 *   - `overview`: moderator+ (the user list's rule); OpenStad's dashboard figures.
 */
async function stats(path: string, query: OpenStadQuery, compiled: readonly Compiled[], call: Call): Promise<APIGatewayProxyStructuredResultV2> {
  const found = STATS_ROUTE.exec(path)!;
  const byOp = (op: string) => compiled.find((c) => c.route.operationId === op)!;
  const siteId = found[1]!;
  /** A whole main list, or the answer that stopped it (an error, a refusal). */
  const listAll = async (op: string, params: Rec, q: Record<string, string>): Promise<{ records: Rec[]; first: Answer } | { stop: APIGatewayProxyStructuredResultV2 }> => {
    const target = byOp(op);
    const mainQuery = { ...lenientQuery(target.route.query, q), pageSize: LIST_PAGE };
    const first = await call(target, params, mainQuery, undefined);
    if (first.status !== 200 || !isEnvelope(first.json)) return { stop: first.result };
    const all = await wholeList(first, (cursor) => call(target, params, { ...mainQuery, cursor }, undefined));
    return Array.isArray(all) ? { records: all as Rec[], first } : { stop: all.result };
  };
  const count = async (op: string, params: Rec, q: Record<string, string>, sum?: (r: Rec) => number) => {
    const list = await listAll(op, params, q);
    if ('stop' in list) return list.stop;
    const total = sum ? list.records.reduce((n, r) => n + sum(r), 0) : list.records.length;
    return jsonResponse(200, { count: total }, passHeaders(list.first.result));
  };
  switch (found[2]) {
    case 'idea/total':
      return count('ideaList', { siteId }, {});
    case 'argument/total': {
      const sentiment = query.main['sentiment'];
      const filter: Record<string, string> = sentiment === 'for' || sentiment === 'against' ? { sentiment } : {};
      const ideaId = query.main['ideaId'];
      return ideaId ? count('argumentList', { siteId, ideaId }, filter) : count('argumentListSite', { siteId }, filter);
    }
    case 'vote/total': {
      // Who may see vote counts: the vote list's rule, asked with one record.
      const allowed = await call(byOp('voteList'), { siteId }, { pageSize: '1' }, undefined);
      if (allowed.status !== 200) return allowed.result;
      const opinion = query.main['opinion'];
      return count('ideaList', { siteId }, { includeVoteCount: '1' }, (idea) =>
        opinion === 'yes' || opinion === 'no' ? Number(idea[opinion] ?? 0) : Number(idea['yes'] ?? 0) + Number(idea['no'] ?? 0),
      );
    }
    case 'vote/no-of-users': {
      const results = await call(byOp('resultsGet'), { siteId }, {}, undefined);
      if (results.status !== 200 || !isObject(results.json)) return results.result;
      return jsonResponse(200, { count: Number(results.json['ballots'] ?? 0) }, passHeaders(results.result));
    }
    default: {
      // Moderator+: the user list's rule, asked with one record.
      const allowed = await call(byOp('userList'), { siteId }, { pageSize: '1' }, undefined);
      if (allowed.status !== 200) return allowed.result;
      const [ideas, votes, args] = await Promise.all([listAll('ideaList', { siteId }, {}), listAll('voteList', { siteId }, {}), listAll('argumentListSite', { siteId }, {})]);
      for (const list of [ideas, votes, args]) if ('stop' in list) return list.stop;
      const records = (list: typeof ideas) => ('records' in list ? list.records : []);
      return jsonResponse(200, overview({ ideas: records(ideas), votes: records(votes), arguments: records(args) }), passHeaders(allowed.result));
    }
  }
}
