/**
 * One declaration per endpoint (DESIGN habit 15): the handler passes it to apiHandler (which reads
 * params, query, body and rateLimit), lib/openapi builds the document from it, and
 * scripts/routes writes the serverless function list from it. A fact written twice drifts; here each
 * is written once.
 *
 * One file per endpoint (lib/routes/<resource>/<action>.ts, beside functions/<resource>/<action>.ts),
 * each resource listed in order by its index.ts: a handler's bundle holds only its own declaration and
 * schemas. Declarations are plain object literals (helpers marked pure), so esbuild can drop what a
 * bundle does not use.
 *
 * Error statuses that follow from the route's shape are added by the document builder
 * (lib/openapi/document.ts): a path id -> 400 and 404, a site in the path -> 401 (site Basic Auth),
 * a token -> 401, a query -> 400, a body -> 400, 413 and 415, a rate limit -> 429. `errors` lists
 * the ones that come from the domain (403, 409, 502, 503).
 */
import type * as z from 'zod/mini';
import type { RateLimitGroup } from '#lib/request/rate-limit';
import type { Tag } from '#lib/routes/tags';
import type { OutputComponent } from '#lib/routes/outputs';
import type { AccessClass } from '#lib/config/access-classes';
import type { CachePolicy } from '#lib/http/caching';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** none: no token is read; optional: a token changes what is shown; required: 401 without one. */
export type Auth = 'none' | 'optional' | 'required';

export type BodyMediaType = 'application/merge-patch+json';

export type DomainErrorStatus = 403 | 409 | 502 | 503;

export type SuccessSchema = OutputComponent | OutputComponent[] | 'OpenApiDocument' | 'Html' | 'DocsAsset' | 'Csv' | 'PabulibOrCsv';

export interface HeaderParam {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

export interface Route {
  /** The OpenAPI operation id, and the name of the Lambda function that serves the route. */
  operationId: string;
  method: Method;
  path: string;
  /** The handler module without `.ts` (`functions/ideas/create`); its export is `handler`. */
  handler: string;
  /** Set when another route's function serves this one too (one Lambda, two methods). */
  functionName?: string;
  /** Lambda timeout in seconds, where the provider default (serverless.yml) is too short. */
  timeout?: number;
  /**
   * What the function may do (lib/config/access-classes.ts): its IAM role, whether it reads secrets.
   * A handler whose store calls leave the class fails the integration tests.
   */
  dataAccess: AccessClass;
  /** Files (from the project root) the function reads at run time, packaged beside its bundle. */
  packageFiles?: string[];

  // What request setup validates and enforces (lib/request/setup.ts RouteSpec).
  /** Path parameters; a `siteId` among them loads the site (404 when missing). */
  params?: z.core.$ZodType;
  query?: z.core.$ZodType;
  /** The body schema the edge validates with, and the one the document shows (lib/routes/body.ts). */
  body?: z.core.$ZodType;
  /** The one media type the body is taken in when it is not JSON's own (a merge patch); any other: 415. */
  bodyMediaType?: BodyMediaType;
  /** Brute-force limit of an unauthenticated door (lib/request/rate-limit.ts); documented as a 429. */
  rateLimit?: RateLimitGroup;
  /**
   * `public`: a read anyone may make, whose anonymous answer a CDN may keep for a minute, with a
   * strong ETag and 304 for `If-None-Match` (lib/http/caching.ts). Without it nothing is cached.
   */
  cache?: CachePolicy;

  // What the document says about it.
  tag: Tag;
  summary: string;
  description?: string;
  /** Who may call it (CONTRACT's access table). */
  access: string;
  auth: Auth;
  headers?: HeaderParam[];
  /** Parameter descriptions that differ on this route from lib/openapi/parameters.ts. */
  parameterDocs?: Record<string, string>;
  /** Default true when there is a body. */
  bodyRequired?: boolean;
  /**
   * `description` defaults to OK (200), Created (201) or Deleted (the Deleted answer). `location`: a
   * create's `Location` header, the path of the record it made; its parameters come from the request's
   * path, the one the request does not have is the new record's `id` (lib/http/response.ts locationOf).
   */
  success: { status: 200 | 201 | 202 | 302; description?: string; schema?: SuccessSchema; location?: string };
  errors?: DomainErrorStatus[];
  /** What an error status means on this route, where the shared description says too little. */
  errorNotes?: Partial<Record<number, string>>;
}

/** The same route for PUT, served by the same function (marked pure: a bundle without it drops it). */
export const alsoAsPut = <R extends Route>(route: R) => ({ ...route, operationId: `${route.operationId}Put`, method: 'PUT' as const, functionName: route.operationId }) satisfies Route;
