/**
 * Builds the OpenAPI 3.1 document from the route declarations (lib/routes, collected in routes.ts) and
 * the zod schemas (components.ts) with zod's own JSON Schema output (draft 2020-12, OpenAPI 3.1's
 * dialect). No generator dependency.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import pkg from '../../package.json' with { type: 'json' };
import { inputComponents, type InputComponent } from '#lib/openapi/components';
import { outputComponents } from '#lib/routes/outputs';
import { ROUTES, TAGS } from '#lib/openapi/routes';
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL, PUBLIC_MAX_AGE_SECONDS } from '#lib/http/caching';
import type { Route, SuccessSchema } from '#lib/routes/route';
import { PARAMETER_DOCS } from '#lib/openapi/parameters';
import { BODY_EXAMPLES, RESPONSE_EXAMPLES, TEXT_EXAMPLES } from '#lib/openapi/examples';

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

export interface OpenApiDocument {
  openapi: string;
  jsonSchemaDialect: string;
  info: Json;
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; securitySchemes: Record<string, Json> };
}

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const ref = (name: string) => `#/components/schemas/${name}`;

/**
 * On answers, drops what only adds noise to a reader: the safe-integer bounds zod puts on every
 * integer, and `additionalProperties: false` (CONTRACT: records may carry more fields than listed).
 * Requests keep the bounds: the server refuses an integer beyond 2^53-1 (it would lose digits), so
 * the document says so (a generator or fuzzer then stays within what is taken).
 */
const tidy =
  (io: Io) =>
  ({ jsonSchema }: { jsonSchema: Json }) => {
    if (io === 'input') return;
    if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
  };

const jsonSchemaOf = (schema: z.core.$ZodType, io: Io): Json => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', override: tidy(io) }) as Json;
  return rest;
};

/** Replaces every `$ref` the callback maps to a new value, in place. */
function rewriteRefs(node: unknown, map: (ref: string) => string): void {
  if (Array.isArray(node)) {
    for (const n of node) rewriteRefs(n, map);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const obj = node as Json;
  if (typeof obj.$ref === 'string') obj.$ref = map(obj.$ref);
  for (const value of Object.values(obj)) rewriteRefs(value, map);
}

/**
 * One named component per registered schema; nested registered schemas become `$ref`s. Recursive
 * schemas land in zod's `__shared` entry, which is hoisted to components of their own so every `$ref`
 * is a plain `#/components/schemas/<name>` pointer.
 */
function componentSchemas(components: Record<string, { schema: z.core.$ZodType; shownAs?: z.core.$ZodType; description?: string }>, io: Io): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, c] of Object.entries(components)) registry.add(c.shownAs ?? c.schema, { id });
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, uri: ref, unrepresentable: 'any', override: tidy(io) }) as {
    schemas: Record<string, Json>;
  };
  const out: Record<string, Json> = {};
  const sharedPrefix = `${ref('__shared')}#/$defs/`;
  const sharedName = (key: string) => `${io === 'input' ? 'Input' : 'Output'}Shared_${key}`;
  for (const [id, schema] of Object.entries(schemas)) {
    if (id === '__shared') {
      for (const [key, def] of Object.entries((schema.$defs ?? {}) as Record<string, Json>)) out[sharedName(key)] = def;
      continue;
    }
    const { $schema: _dialect, $id: _id, ...rest } = schema;
    const description = components[id]?.description;
    out[id] = description ? { description, ...rest } : rest;
  }
  rewriteRefs(out, (r) => (r.startsWith(sharedPrefix) ? ref(sharedName(r.slice(sharedPrefix.length))) : r));
  return out;
}

/**
 * Ids and pageSize are read from the URL as strict decimal strings (schemas/common.ts: a regex, then a
 * number); a client sends integers, so the document says so, with the real ranges (the regex alone
 * would allow pageSize 0 and 501-999).
 */
const PATH_ID_PATTERN = '^[1-9][0-9]{0,15}$';
const PAGE_SIZE_PATTERN = '^[0-9]{1,3}$';
function asClientWritesIt(name: string, schema: Json): Json {
  if (schema.type === 'string' && schema.pattern === PATH_ID_PATTERN) return { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
  if (name === 'pageSize' && schema.type === 'string' && schema.pattern === PAGE_SIZE_PATTERN) return { type: 'integer', minimum: 1, maximum: 500, default: 100 };
  return schema;
}

/** Path, query and header parameters from the route's zod objects (input side: what a client writes). */
function parameters(route: Route): Json[] {
  const out: Json[] = [];
  const add = (schema: z.core.$ZodType | undefined, where: 'path' | 'query') => {
    if (!schema) return;
    const json = jsonSchemaOf(schema, 'input');
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((json.properties ?? {}) as Record<string, Json>)) {
      const description = route.parameterDocs?.[name] ?? PARAMETER_DOCS[`${where}.${name}`] ?? PARAMETER_DOCS[name];
      out.push({ name, in: where, required: where === 'path' || required.has(name), ...(description ? { description } : {}), schema: asClientWritesIt(name, property) });
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  if (route.cache === 'public') out.push(IF_NONE_MATCH);
  for (const header of route.headers ?? []) out.push({ name: header.name, in: 'header', required: false, description: header.description, schema: header.schema });
  return out;
}

/** What a public read's answer says about caching it (lib/http/caching.ts). */
const PUBLIC_CACHE_HEADERS: Json = {
  ETag: { description: 'A strong tag of this answer, on answers to requests without credentials; send it back as `If-None-Match`.', schema: { type: 'string' } },
  'Cache-Control': {
    description: `\`${PUBLIC_CACHE_CONTROL}\` without credentials (a CDN may keep the answer for ${PUBLIC_MAX_AGE_SECONDS} s); \`${PRIVATE_CACHE_CONTROL}\` with them.`,
    schema: { type: 'string' },
  },
};
const IF_NONE_MATCH: Json = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'The `ETag` of an answer you hold: 304 without a body while it is still the current one.',
  schema: { type: 'string' },
};

const isSiteScoped = (path: string) => /^\/(api|oauth)\/site\/\{siteId\}/.test(path);

/** The error statuses of a route: those that follow from its shape, plus its domain ones. */
export function errorStatuses(route: Route): number[] {
  const statuses = new Set<number>(route.errors ?? []);
  if (route.rateLimit) statuses.add(429);
  const hasPathIds = route.path.includes('{');
  if (hasPathIds || route.query || route.body) statuses.add(400);
  if (route.auth !== 'none' || isSiteScoped(route.path)) statuses.add(401);
  if (hasPathIds) statuses.add(404);
  if (route.body) {
    statuses.add(413);
    statuses.add(415);
  }
  return [...statuses].sort((a, b) => a - b);
}

const ERROR_RESPONSES: Record<number, { name: string; description: string; example: Json }> = {
  400: {
    name: 'BadRequest',
    description: 'Malformed JSON, a bad id, query or body (ValidationError with `details`), or a domain rule (length limits, extraData, vote rules).',
    example: { status: 400, error: 'ValidationError', message: 'Validation failed', details: [{ path: 'title', message: 'must be between 10 and 50 characters long (is 3)' }] },
  },
  401: {
    name: 'Unauthorized',
    description: "No, an invalid, expired or tampered token where one is needed, a token of another site, or the site's Basic Auth missing or wrong (then with `WWW-Authenticate: Basic`).",
    example: { status: 401, error: 'Unauthorized', message: 'Authentication required' },
  },
  403: {
    name: 'Forbidden',
    description: 'Authenticated, but the role or ownership is not enough, or the feature is closed on this site.',
    example: { status: 403, error: 'Forbidden', message: 'Requires the moderator role' },
  },
  404: { name: 'NotFound', description: 'An unknown site or record (or route).', example: { status: 404, error: 'NotFound', message: 'Idea 12 not found on site 3' } },
  409: { name: 'Conflict', description: 'Conflicts with what is stored, or with a change made at the same time (retry).', example: { status: 409, error: 'Conflict', message: 'You have already voted; on this site a vote cannot be changed' } },
  413: { name: 'PayloadTooLarge', description: 'The body is over 256 KiB.', example: { status: 413, error: 'PayloadTooLarge', message: 'Request body is larger than 256 KiB' } },
  415: { name: 'UnsupportedMediaType', description: 'A body that is not `application/json`.', example: { status: 415, error: 'UnsupportedMediaType', message: 'Request body must be application/json' } },
  429: { name: 'TooManyRequests', description: 'A brute-force limit of the unauthenticated doors (per client address and site, per minute); `Retry-After` says when to try again.', example: { status: 429, error: 'TooManyRequests', message: 'Too many requests from this address; try again later' } },
  500: { name: 'InternalError', description: 'A bug. The message is generic; the error is logged with the request id.', example: { status: 500, error: 'InternalError', message: 'Something went wrong on our side; the error has been logged' } },
  502: { name: 'BadGateway', description: 'The auth server failed or is not configured; nothing was changed here.', example: { status: 502, error: 'BadGateway', message: 'The auth server could not complete the code exchange; please try again later' } },
  // Every route: the function ran past its time limit (API Gateway's answer; locally the same body).
  504: { name: 'GatewayTimeout', description: 'The function ran past its time limit; what it wrote before may be stored (a retried vote round with its Idempotency-Key is safe).', example: { status: 504, error: 'GatewayTimeout', message: 'The request took longer than the function timeout' } },
  // Health check (GET /api/health)
  503: { name: 'ServiceUnavailable', description: 'The API cannot reach its database.', example: { status: 503, error: 'ServiceUnavailable', message: 'The database is not reachable' } },
};

function errorResponses(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [status, r] of Object.entries(ERROR_RESPONSES)) {
    out[r.name] = {
      description: r.description,
      ...(status === '401' ? { headers: { 'WWW-Authenticate': { description: '`Basic` on a site Basic Auth failure', schema: { type: 'string' } } } } : {}),
      ...(status === '429' ? { headers: { 'Retry-After': { description: 'Seconds until the limit window ends', schema: { type: 'integer' } } } } : {}),
      content: { 'application/json': { schema: { $ref: ref('Error') }, example: r.example } },
    };
  }
  return out;
}

/** The input component a route's body is: the very schema object, not one of the same shape. */
const bodyComponents = new Map<z.core.$ZodType, InputComponent>(Object.entries(inputComponents).map(([name, c]) => [c.schema as z.core.$ZodType, name as InputComponent]));
export function bodyComponentOf(route: Route): InputComponent | undefined {
  if (!route.body) return undefined;
  const name = bodyComponents.get(route.body);
  if (!name) throw new Error(`The body of ${route.operationId} is no component of lib/openapi/components.ts`);
  return name;
}

function successDescription({ status, description, schema }: Route['success']): string {
  if (description) return description;
  if (status === 201) return 'Created';
  if (status === 202) return 'Accepted';
  return schema === 'Deleted' ? 'Deleted' : 'OK';
}

function successContent(schema: SuccessSchema | undefined): Json | undefined {
  if (schema === undefined) return undefined;
  if (schema === 'Html') return { 'text/html': { schema: { type: 'string' }, example: TEXT_EXAMPLES.Html } };
  if (schema === 'DocsAsset') return { 'text/javascript': { schema: { type: 'string' }, example: TEXT_EXAMPLES.Script }, 'text/css': { schema: { type: 'string' }, example: TEXT_EXAMPLES.Style } };
  // Exports: text, with the next page in the `Link` header.
  if (schema === 'Csv') return { 'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV with a header row' }, example: TEXT_EXAMPLES.Csv } };
  if (schema === 'PabulibOrCsv') {
    return {
      'text/plain': { schema: { type: 'string', description: 'A Pabulib .pb file (format=pabulib)' }, example: TEXT_EXAMPLES.Pabulib },
      'text/csv': { schema: { type: 'string', description: 'RFC 4180 CSV with a header row (format=csv)' }, example: TEXT_EXAMPLES.VotesCsv },
    };
  }
  if (schema === 'OpenApiDocument') {
    return { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document' }, example: { openapi: '3.1.1', info: { title: 'Participation API', version: pkg.version }, paths: {} } } };
  }
  // anyOf, not oneOf: records allow more fields, so a full user record also matches the limited view.
  const json = Array.isArray(schema) ? { anyOf: schema.map((s) => ({ $ref: ref(s) })) } : { $ref: ref(schema) };
  const first = Array.isArray(schema) ? schema[0]! : schema;
  return { 'application/json': { schema: json, example: RESPONSE_EXAMPLES[first] } };
}

/** OpenAPI: a list of alternatives, each a set of schemes that must all be met; `{}` is "none". */
function security(route: Route): Json[] {
  const base: Json[] = route.auth === 'none' ? [{}] : route.auth === 'optional' ? [{}, { bearerToken: [] }] : [{ bearerToken: [] }];
  if (!isSiteScoped(route.path)) return route.auth === 'none' ? [] : base;
  return [...base, ...base.map((alt) => ({ ...alt, siteBasicAuth: [] }))];
}

/**
 * OpenAPI links from a create (201) to the read of what it created: the GET one path segment deeper
 * (`POST /api/site/{siteId}/idea` -> `GET /api/site/{siteId}/idea/{ideaId}`), its new id from the
 * answer's `id`, the other ids from the create's own path.
 */
function createLinks(route: Route, routes: readonly Route[]): Json | undefined {
  if (route.success.status !== 201) return undefined;
  const read = routes.find((r) => r.method === 'GET' && new RegExp(`^${route.path.replace(/[{}]/g, '\\$&')}/\\{(\\w+)\\}$`).test(r.path));
  if (!read) return undefined;
  const newId = /\{(\w+)\}$/.exec(read.path)![1]!;
  const parameters: Record<string, string> = {};
  for (const [, name] of route.path.matchAll(/\{(\w+)\}/g)) parameters[name!] = `$request.path.${name}`;
  parameters[newId] = '$response.body#/id';
  return { [read.operationId]: { operationId: read.operationId, parameters, description: 'Read the record just created.' } };
}

function operation(route: Route, routes: readonly Route[] = ROUTES): Json {
  const responses: Record<string, Json> = {};
  const content = successContent(route.success.schema);
  const links = createLinks(route, routes);
  responses[String(route.success.status)] = {
    description: successDescription(route.success),
    ...(route.success.status === 302 ? { headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } } } : {}),
    ...(route.success.status === 202
      ? { headers: { Location: { description: 'Where to look for the outcome', schema: { type: 'string' } }, 'Retry-After': { description: 'Seconds to wait before looking', schema: { type: 'integer' } } } }
      : route.success.location
      ? { headers: { Location: { description: `The path of the record just created: \`${route.success.location}\` with its \`id\``, schema: { type: 'string', format: 'uri-reference' } } } }
      : {}),
    ...(route.success.schema === 'Csv' || route.success.schema === 'PabulibOrCsv'
      ? { headers: { Link: { description: 'The next page of a long export: `</api/site/N/export/...?format=...&cursor=...>; rel="next"` (absent on the last page)', schema: { type: 'string' } } } }
      : {}),
    ...(content ? { content } : {}),
    ...(links ? { links } : {}),
  };
  if (route.cache === 'public') {
    // lib/http/caching.ts: only answers to requests without credentials carry a tag.
    responses['200'] = { ...(responses['200'] as Json), headers: PUBLIC_CACHE_HEADERS };
    responses['304'] = { description: 'Not Modified: the `If-None-Match` tag is the current one (requests without credentials only); no body.', headers: PUBLIC_CACHE_HEADERS };
  }
  for (const status of [...errorStatuses(route), 500, 504]) {
    // OpenAPI 3.1: a Reference Object may carry its own description, which replaces the shared one here.
    const note = route.errorNotes?.[status];
    responses[String(status)] = { $ref: `#/components/responses/${ERROR_RESPONSES[status]!.name}`, ...(note ? { description: note } : {}) };
  }
  const description = [route.description, `**Access:** ${route.access}.`].filter(Boolean).join('\n\n');
  const params = parameters(route);
  const body = bodyComponentOf(route);
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description,
    ...(params.length ? { parameters: params } : {}),
    ...(body
      ? {
          requestBody: {
            required: route.bodyRequired ?? true,
            content: { [route.bodyMediaType ?? 'application/json']: { schema: { $ref: ref(body) }, ...(BODY_EXAMPLES[body] === undefined ? {} : { example: BODY_EXAMPLES[body] }) } },
          },
        }
      : {}),
    responses,
    security: security(route),
  };
}

export function buildOpenApiDocument(routes: readonly Route[] = ROUTES): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    const item = paths[route.path]!;
    const method = route.method.toLowerCase();
    if (item[method]) throw new Error(`Route ${route.method} ${route.path} is listed twice`);
    item[method] = operation(route, routes);
  }
  return {
    openapi: '3.1.1',
    jsonSchemaDialect: DIALECT,
    info: {
      title: 'Participation API',
      version: pkg.version,
      description:
        'A multi-site participation API: ideas, arguments, votes, articles, users and newsletter signups per site. ' +
        'Bodies are JSON (at most 256 KiB). Ids are positive integers. Lists return `{records, metadata: {pageSize, nextCursor}}`; ' +
        'pass `nextCursor` back as `cursor` for the next page, `null` means the end. Errors return `{status, error, message, details?}`. ' +
        'Query parameters not listed for a route are ignored. An unknown site or record is a 404 also for a caller without a token (what exists is public to read).',
      license: { name: 'Proprietary: a private package, not licensed for reuse', identifier: 'LicenseRef-Proprietary' },
    },
    // Paths are absolute from the API's root (no stage prefix) of the deployment that serves this
    // document (a local `npm start` too).
    servers: [{ url: '/', description: 'The deployment that serves this document (locally: http://localhost:3000)' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: { ...componentSchemas(inputComponents, 'input'), ...componentSchemas(outputComponents, 'output') },
      responses: errorResponses(),
      securitySchemes: {
        bearerToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Authorization',
          description:
            '`X-Authorization: Bearer <token>`: the JWT this API issued at login (valid on its own site only), or a service token, which acts as admin on every site.',
        },
        siteBasicAuth: {
          type: 'http',
          scheme: 'basic',
          description: 'Needed in addition on every path of a site whose config has `basicAuth.active` (`basicAuth.user` / `password`), checked before anything else (401 whatever the path, ids or body); such a site is left out of the public site list.',
        },
      },
    },
  };
}
