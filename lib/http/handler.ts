/**
 * The route wrapper that turns an API Gateway (HTTP API, payload 2.0) event into validated input for one
 * domain call, inside the one Middy stack every route shares (lib/http/stack.ts, DESIGN habit 2):
 *
 *   site id (400) -> site (404) -> site Basic Auth (401) -> other path params (strict ids)
 *   -> body (size, type, JSON, reserved keys, kind) -> caller (401 on a bad token)
 *   -> query and body schemas (400) -> handler -> JSON response
 *
 * Basic Auth comes before everything but the site id (CONTRACT "Decided details, security"): a
 * closed site answers 401 to any sub-id, body or query, so nothing about it can be probed without
 * the credentials.
 *
 * Handlers never see the raw event; domain code never sees API Gateway.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { CorsContext } from '#lib/http/cors';
import { withHttpStack } from '#lib/http/stack';
import type * as z from 'zod/mini';
import { parseJsonBody } from '#lib/http/body';
import { httpResponse, type ApiResult } from '#lib/http/response';
import { parseOrThrow } from '#lib/http/zod-errors';
import { readCookies } from '#lib/http/cookies';
import { enforceRateLimit, type RateLimitGroup } from '#lib/http/rate-limit';
import { validationError, type ErrorDetail } from '#lib/errors';
import { pathId } from '#schemas/common';
import { identify, resolveCaller, tokenUser, type Caller, type Identity } from '#lib/auth/caller';
import { prefetch, withPrefetchScope, type ReadPlan } from '#lib/store/prefetch';
import { siteAndCallerPlan } from '#lib/store/request-reads';
import { assertBasicAuth } from '#lib/auth/basic-auth';
import { loadSite, type Site } from '#lib/sites/service';
import { recordWriteActivity } from '#lib/users/activity-touch';
import { ACCESS_CLASSES, type AccessClass } from '#lib/config/access-classes';
import { loadSecrets } from '#lib/config/secrets';

type AnySchema = z.core.$ZodType;
type Out<S> = S extends z.core.$ZodType ? z.output<S> : undefined;

export interface RouteSpec<P extends AnySchema | undefined, Q extends AnySchema | undefined, B extends AnySchema | undefined> {
  /**
   * Set when the spec is a route declaration (lib/routes/route.ts), which handlers pass whole; not
   * read here, but it lets a declaration without inputs (the health check) be a spec too.
   */
  operationId?: string;
  /**
   * The route's access class (lib/config/access-classes.ts): a class that reads no secrets (the
   * health check) never loads them, and reads no token (its IAM role could not verify one).
   */
  dataAccess?: AccessClass;
  /** Path parameters; a `siteId` among them loads the site (404 when missing). */
  params?: P;
  query?: Q;
  /** Body schema; without one, any body is ignored. */
  body?: B;
  /**
   * An access check that needs only the caller and the site, run BEFORE the query and body are
   * validated: a caller without the right to call the endpoint at all gets 401/403, not a 400 that
   * would describe the body it may not send.
   */
  authorize?: (caller: Caller, site: Site | undefined) => void;
  /** The error for a body that fails its schema (default: a ValidationError "Invalid body" with the details). */
  invalidBody?: (details: ErrorDetail[]) => Error;
  /** Brute-force limit of an unauthenticated door (lib/http/rate-limit.ts); right after the site and its Basic Auth. */
  rateLimit?: RateLimitGroup;
  /**
   * What the call will read by key beyond the site and the caller, planned from the raw request so it
   * joins their one BatchGet (lib/store/prefetch.ts). Gets inputs not yet validated: plan defensively.
   */
  prefetch?: (request: PrefetchRequest) => ReadPlan | undefined;
}

/** The raw request as the route's prefetch plan sees it (nothing validated but the token). */
export interface PrefetchRequest {
  siteId: number;
  /** The calling site user, when a valid token names one on this site. */
  userId: number | undefined;
  pathParameters: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  /** The parsed JSON body, or undefined (absent or malformed). */
  body: unknown;
  headers: Record<string, string | undefined>;
}

export interface ApiRequest<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** Present on every route under `/api/site/:SITE_ID` and `/oauth/site/:SITE_ID`. */
  site: Site | undefined;
  caller: Caller;
  headers: Record<string, string | undefined>;
  /** Request cookies by name (lib/http/cookies.ts). */
  cookies: Record<string, string>;
  requestId: string;
}

type SiteRequired<P> = P extends { siteId: number } ? { site: Site } : object;

export type RouteHandler<P, Q, B> = (req: ApiRequest<P, Q, B> & SiteRequired<P>) => Promise<ApiResult>;

export function apiHandler<
  P extends AnySchema | undefined = undefined,
  Q extends AnySchema | undefined = undefined,
  B extends AnySchema | undefined = undefined,
>(spec: RouteSpec<P, Q, B>, handler: RouteHandler<Out<P>, Out<Q>, Out<B>>) {
  const readsSecrets = spec.dataAccess === undefined || ACCESS_CLASSES[spec.dataAccess].secrets;
  const run = (event: APIGatewayProxyEventV2, context: Context) => withPrefetchScope(() => answer(event, context));
  const answer = async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const headers = event.headers as Record<string, string | undefined>;
    const siteId = siteIdOf(spec.params, event.pathParameters);
    // Read ahead, in ONE BatchGet: the site, the token's user and what the route plans (issue 17).
    // Errors found on the way (a bad token, a malformed body) are answered later, in their order.
    if (readsSecrets) await loadSecrets();
    const identity: Identity = readsSecrets ? await identify(headers, siteId) : { kind: 'none' };
    const body = attempt(() => parseJsonBody(event.body, event.isBase64Encoded, headers['content-type']));
    // A create's id is reserved in the same round trip when its plan asks for it (`newId`).
    await prefetch([siteAndCallerPlan(siteId, tokenUser(identity)), routePlan(spec, siteId, identity, event, headers, body)]);
    let site: Site | undefined;
    if (siteId !== undefined) {
      site = await loadSite(siteId);
      (context as unknown as CorsContext).allowedDomains = site.config.allowedDomains;
      assertBasicAuth(site.config, headers['authorization'], site.name);
      if (spec.rateLimit) {
        const { http, timeEpoch } = event.requestContext ?? {};
        await enforceRateLimit({ group: spec.rateLimit, siteId: site.id, ignoreBruteForce: site.config.ignoreBruteForce, sourceIp: http?.sourceIp, nowMs: timeEpoch ?? Date.now() });
      }
    }
    const params = (spec.params ? parseOrThrow(spec.params, event.pathParameters ?? {}, 'path') : undefined) as Out<P>;
    if (!body.ok) throw body.error;
    const rawBody = body.value;
    if (spec.body && rawBody !== undefined) assertContainer(rawBody);

    const caller = await resolveCaller(headers, siteId, identity);
    spec.authorize?.(caller, site);
    const query = (spec.query ? parseOrThrow(spec.query, event.queryStringParameters ?? {}, 'query') : undefined) as Out<Q>;
    const validBody = (spec.body ? parseOrThrow(spec.body, rawBody, 'body', '', spec.invalidBody) : undefined) as Out<B>;

    const result = await handler({
      params,
      query,
      body: validBody,
      site,
      caller,
      headers,
      cookies: readCookies(event.cookies, headers['cookie']),
      requestId: context.awsRequestId,
    } as ApiRequest<Out<P>, Out<Q>, Out<B>> & SiteRequired<Out<P>>);
    // Lifecycle: a successful write is activity on the site (at most one extra request per user per day).
    if (event.requestContext?.http?.method !== 'GET') await recordWriteActivity(caller, siteId);
    const response = httpResponse(result);
    return result.cookies ? { ...response, cookies: result.cookies } : response;
  };
  // The declaration's access class and name travel with the handler, for tests/support/access-check.ts.
  return Object.assign(withHttpStack(run, spec.operationId ? { route: spec.operationId } : {}), { dataAccess: spec.dataAccess, operationId: spec.operationId });
}

type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };
function attempt<T>(run: () => T): Attempt<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The route's own read plan, for a site-scoped route; a plan that fails to build is no plan. */
function routePlan(
  spec: { prefetch?: (request: PrefetchRequest) => ReadPlan | undefined },
  siteId: number | undefined,
  identity: Identity,
  event: APIGatewayProxyEventV2,
  headers: Record<string, string | undefined>,
  body: Attempt<unknown>,
): ReadPlan | undefined {
  if (!spec.prefetch || siteId === undefined) return undefined;
  const user = tokenUser(identity);
  try {
    return spec.prefetch({
      siteId,
      userId: user?.siteId === siteId ? user.userId : undefined,
      pathParameters: event.pathParameters ?? {},
      query: event.queryStringParameters ?? {},
      body: body.ok ? body.value : undefined,
      headers,
    });
  } catch {
    return undefined;
  }
}

/**
 * The site id alone, parsed with the route's own rule for it (400 when malformed): the one input
 * read before the site's Basic Auth. Undefined on site-less routes. A params schema that is not a
 * plain object (no `shape`) falls back to the CONTRACT rule for path ids.
 */
function siteIdOf(params: AnySchema | undefined, path: Record<string, string | undefined> | undefined): number | undefined {
  if (!params) return undefined;
  const declared = (params as { shape?: Record<string, AnySchema> }).shape;
  const rule = declared ? declared['siteId'] : path?.['siteId'] !== undefined ? pathId : undefined;
  if (!rule) return undefined;
  return (parseOrThrow(rule, path?.['siteId'], 'path', 'siteId') as number | undefined) ?? undefined;
}

/**
 * Every body endpoint takes a JSON object (a vote round also an array): `false`, `0`, `"x"` or
 * `null` is a 400 here, whatever the route's schema would make of it.
 */
function assertContainer(body: unknown): void {
  if (typeof body === 'object' && body !== null) return;
  const kind = body === null ? 'null' : typeof body;
  throw validationError([{ path: '', message: `the body must be a JSON object, not ${kind}` }], 'Invalid body');
}
