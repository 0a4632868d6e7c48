/**
 * Request setup: what every route needs before its one domain call, in the order CONTRACT answers
 * errors, with nothing of API Gateway in it (lib/http/handler.ts hands over the request as
 * `RequestInput` and turns the result into a response):
 *
 *   site id (400) -> first read -> site (404) -> site Basic Auth (401) -> brute-force limit (429)
 *   -> other path params (strict ids) -> body (size, type, JSON, reserved keys, well-formed text, kind)
 *   -> query text well-formed -> caller (401; not read on routes that take no token)
 *   -> the route's access check (401/403) -> query and body schemas (400) -> domain call
 *   -> activity of a write
 *
 * Basic Auth comes before everything but the site id (CONTRACT "Decided details, security"): a
 * closed site answers 401 to any sub-id, body or query, so nothing about it can be probed without
 * the credentials.
 *
 * The first read is ONE BatchGet (lib/store/db/prefetch.ts): the site, the token's user and what the
 * route's read-ahead plan asks for. The plan is built from the route's own validated params, query and
 * body (validated here before the read; their errors are still answered in their place above), so a
 * plan cannot read for an input the domain would never see.
 */
import type * as z from 'zod/mini';
import { validationError, type ErrorDetail } from '#lib/errors';
import { identify, resolveCaller, tokenUser, type Caller, type Identity } from '#lib/auth/caller';
import { assertBasicAuth } from '#lib/auth/basic-auth';
import { loadSite, type Site } from '#lib/sites/site';
import { getSite } from '#lib/store/sites/sites';
import { getUser } from '#lib/store/users/users';
import { joinPlans, prefetch, withPrefetchScope, type ReadPlan } from '#lib/store/db/prefetch';
import { parseOrThrow } from '#lib/validation/zod-errors';
import { malformedTextPaths } from '#lib/validation/reserved-keys';
import { pathId } from '#schemas/common';
import { enforceRateLimit, type RateLimitGroup } from '#lib/request/rate-limit';
import { recordWriteActivity } from '#lib/request/activity-touch';
import { ACCESS_CLASSES, type AccessClass } from '#lib/config/access-classes';
import { loadSecrets } from '#lib/store/secrets/load';
import type { SecretName } from '#lib/config/secret-values';
import { logger } from '#lib/log/logger';

const logStaleSecrets = (error: unknown) => logger.error('secret store refresh failed; using the values read before', { error: error as Error });

type AnySchema = z.core.$ZodType;
export type Out<S> = S extends z.core.$ZodType ? z.output<S> : undefined;

/** What a route's read-ahead plan is built from: its inputs as validated (undefined when they failed). */
export interface ReadAheadInput<P, Q, B> {
  siteId: number;
  /** The calling site user, when a verified token names one on this site. */
  userId: number | undefined;
  params: P;
  query: Q | undefined;
  body: B | undefined;
  /** The request headers (lower-cased); a plan reading one validates it itself. */
  headers: Record<string, string | undefined>;
}

export interface RouteSpec<P extends AnySchema | undefined, Q extends AnySchema | undefined, B extends AnySchema | undefined> {
  /**
   * Set when the spec is a route declaration (lib/routes/route.ts), which handlers pass whole; not
   * read here, but it lets a declaration without inputs (the health check) be a spec too.
   */
  operationId?: string;
  /**
   * The route's access class (lib/config/access-classes.ts): only its secrets are loaded, and a class
   * without the token keys (the health check, the public key) reads no token (its IAM role could not
   * verify one).
   */
  dataAccess?: AccessClass;
  /** Path parameters; a `siteId` among them loads the site (404 when missing). */
  params?: P;
  query?: Q;
  /** Body schema; without one, any body is ignored. */
  body?: B;
  /** The one media type the body is taken in, when not JSON's own (a merge patch; lib/http/body.ts). */
  bodyMediaType?: string;
  /** `none`: the route reads no token, so a stale one cannot turn it into a 401 (the login doors, the health check). */
  auth?: 'none' | 'optional' | 'required';
  /** A create's `Location` template (lib/routes/route.ts), set on its 201 by the adapter. */
  success?: { status: number; location?: string };
  /**
   * An access check that needs only the caller and the site, run BEFORE the query and body are
   * validated: a caller without the right to call the endpoint at all gets 401/403, not a 400 that
   * would describe the body it may not send.
   */
  authorize?: (caller: Caller, site: Site | undefined) => void;
  /** The error for a body that fails its schema (default: a ValidationError "Invalid body" with the details). */
  invalidBody?: (details: ErrorDetail[]) => Error;
  /** Brute-force limit of an unauthenticated door (lib/request/rate-limit.ts); right after the site and its Basic Auth. */
  rateLimit?: RateLimitGroup;
  /**
   * What the call will read by key beyond the site and the caller, so it joins their one BatchGet:
   * built from the store's own access patterns (each read's `.plan`). Called on a site-scoped route
   * whose path params are valid; a plan that throws is no plan.
   */
  prefetch?: (input: ReadAheadInput<Out<P>, Out<Q>, Out<B>>) => ReadPlan | undefined;
}

/** A value, or the error computing it raised, kept until its turn to be answered. */
type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

export function attempt<T>(run: () => T): Attempt<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** A request as the adapter hands it over. */
interface RequestInput {
  pathParameters: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  /** Lower-cased names. */
  headers: Record<string, string | undefined>;
  /** The parsed JSON body (undefined: none), or the 400/413/415 parsing it raised. */
  body: Attempt<unknown>;
  /** The client address the brute-force limit counts (set by the front door, not the client). */
  sourceIp: string | undefined;
  /** Epoch milliseconds of the request, when the front door says (the brute-force window's clock). */
  timeEpoch: number | undefined;
  /** Anything but a read: a successful one is activity on the site. */
  isWrite: boolean;
  /** Told the site as soon as it is loaded, before any check that can refuse the request. */
  onSite?: (site: Site) => void;
}

/** What the domain call gets: validated input, the site and the caller. */
export interface PreparedRequest<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** Present on every route under `/api/site/:SITE_ID` and `/oauth/site/:SITE_ID`. */
  site: Site | undefined;
  caller: Caller;
  headers: Record<string, string | undefined>;
}

/**
 * The one interface of request setup: prepares the request, runs the domain call with it, and records
 * the activity of a successful write. Runs in a read-ahead scope of its own.
 */
export function handleRequest<P extends AnySchema | undefined, Q extends AnySchema | undefined, B extends AnySchema | undefined, R>(
  spec: RouteSpec<P, Q, B>,
  input: RequestInput,
  call: (request: PreparedRequest<Out<P>, Out<Q>, Out<B>>) => Promise<R>,
): Promise<R> {
  return withPrefetchScope(async () => {
    const request = await prepare(spec, input);
    const result = await call(request);
    // Lifecycle: a successful write is activity on the site (at most one extra request per user per day).
    if (input.isWrite) await recordWriteActivity(request.caller, request.site?.id);
    return result;
  });
}

async function prepare<P extends AnySchema | undefined, Q extends AnySchema | undefined, B extends AnySchema | undefined>(
  spec: RouteSpec<P, Q, B>,
  input: RequestInput,
): Promise<PreparedRequest<Out<P>, Out<Q>, Out<B>>> {
  const { headers } = input;
  const siteId = siteIdOf(spec.params, input.pathParameters);
  // Everything is validated now, for the plan; each error is thrown in its place below.
  const params = attempt(() => (spec.params ? parseOrThrow(spec.params, input.pathParameters, 'path') : undefined) as Out<P>);
  const query = attempt(() => (spec.query ? parseOrThrow(spec.query, input.query, 'query') : undefined) as Out<Q>);
  const rawBody = input.body;
  const body = rawBody.ok
    ? attempt(() => (spec.body ? parseOrThrow(spec.body, rawBody.value, 'body', '', spec.invalidBody) : undefined) as Out<B>)
    : rawBody;

  const secrets: readonly SecretName[] = spec.dataAccess === undefined ? ACCESS_CLASSES.write.secrets : ACCESS_CLASSES[spec.dataAccess].secrets;
  if (secrets.length) await loadSecrets(secrets, logStaleSecrets);
  // A class without the token keys (static content, the health check, the public key) reads no token, nor a route without auth.
  const identity: Identity = secrets.includes('tokenKeys') && spec.auth !== 'none' ? await identify(headers, siteId) : { kind: 'none' };
  const user = tokenUser(identity);
  await prefetch([
    joinPlans(siteId === undefined ? undefined : getSite.plan(siteId), user ? getUser.plan(user.siteId, user.userId) : undefined),
    routePlan(spec, siteId, identity, params, query, body, headers),
  ]);

  let site: Site | undefined;
  if (siteId !== undefined) {
    site = await loadSite(siteId);
    input.onSite?.(site);
    assertBasicAuth(site.config, headers['authorization'], site.name);
    if (spec.rateLimit) {
      await enforceRateLimit({ group: spec.rateLimit, siteId: site.id, ignoreBruteForce: site.config.ignoreBruteForce, sourceIp: input.sourceIp, nowMs: input.timeEpoch ?? Date.now() });
    }
  }
  const validParams = valueOf(params);
  if (!rawBody.ok) throw rawBody.error;
  assertWellFormedQuery(input.query);
  if (spec.body && rawBody.value !== undefined) assertContainer(rawBody.value);

  const caller = await resolveCaller(headers, siteId, identity);
  spec.authorize?.(caller, site);
  return { params: validParams, query: valueOf(query), body: valueOf(body), site, caller, headers } as PreparedRequest<Out<P>, Out<Q>, Out<B>>;
}

function valueOf<T>(result: Attempt<T>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/** The route's own read-ahead plan, for a site-scoped route with valid path params; a plan that fails to build is no plan. */
function routePlan<P extends AnySchema | undefined, Q extends AnySchema | undefined, B extends AnySchema | undefined>(
  spec: RouteSpec<P, Q, B>,
  siteId: number | undefined,
  identity: Identity,
  params: Attempt<Out<P>>,
  query: Attempt<Out<Q>>,
  body: Attempt<Out<B>>,
  headers: Record<string, string | undefined>,
): ReadPlan | undefined {
  if (!spec.prefetch || siteId === undefined || !params.ok) return undefined;
  const user = tokenUser(identity);
  try {
    return spec.prefetch({
      siteId,
      userId: user?.siteId === siteId ? user.userId : undefined,
      params: params.value,
      query: query.ok ? query.value : undefined,
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
function siteIdOf(params: AnySchema | undefined, path: Record<string, string | undefined>): number | undefined {
  if (!params) return undefined;
  const declared = (params as { shape?: Record<string, AnySchema> }).shape;
  const rule = declared ? declared['siteId'] : path['siteId'] !== undefined ? pathId : undefined;
  if (!rule) return undefined;
  return (parseOrThrow(rule, path['siteId'], 'path', 'siteId') as number | undefined) ?? undefined;
}

/**
 * Text that is not well-formed UTF-16 (a lone surrogate) anywhere in the query, names and values of
 * every parameter, read or not (CONTRACT "Decided details, security"): 400 naming each. Such text
 * cannot be encoded as UTF-8, so it would fail later in a URL, a key or a log line. (The body's
 * text is checked where it is parsed, lib/http/body.ts.)
 */
function assertWellFormedQuery(query: Record<string, string | undefined>): void {
  const details = malformedTextPaths(query);
  if (details.length > 0) throw validationError(details, 'Invalid query');
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
