/**
 * The OpenAPI document is well formed and says what CONTRACT says: references resolve, path templates
 * and path parameters agree, every operation lists its error statuses with the CONTRACT error body, and
 * the shared shapes (error body, list envelope, delete answer, records) are the zod ones.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { bodyComponentOf, buildOpenApiDocument, errorStatuses, type OpenApiDocument } from '#lib/openapi/document';
import { inputComponents } from '#lib/openapi/components';
import { ROUTES } from '#lib/openapi/routes';
import { ideaRecord } from '#schemas/idea';
import { userRecord } from '#schemas/user';

/** What these tests read of the document's nodes (lib/openapi/document.ts types them as plain JSON objects). */
type SchemaNode = {
  $ref?: string;
  $schema?: unknown;
  $id?: unknown;
  type?: string | string[];
  const?: unknown;
  required?: string[];
  additionalProperties?: unknown;
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
};
type Media = { schema?: SchemaNode; example?: { status?: unknown } };
type Content = Record<string, Media>;
type Parameter = { name: string; in: string; required?: boolean; schema?: SchemaNode };
type Link = { operationId: string; parameters: Record<string, string>; description?: string };
type Response = { $ref?: string; description?: string; content?: Content; links?: Record<string, Link> };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Content };
  responses: Record<string, Response>;
  security?: unknown;
};
type Document = Omit<OpenApiDocument, 'paths' | 'components'> & {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, SchemaNode>; responses: Record<string, Response>; securitySchemes: Record<string, Record<string, unknown>> };
};
/** The document as these tests read it: the same object, seen through the node types above. */
const typed = (document: OpenApiDocument) => document as unknown as Document;

const doc = typed(buildOpenApiDocument());

const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) refs(n, out);
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else refs(value, out);
    }
  }
  return out;
}

const resolve = (pointer: string): unknown => {
  expect(pointer.startsWith('#/'), pointer).toBe(true);
  return pointer
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node === undefined ? undefined : (node as Record<string, unknown>)[key]), doc);
};

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 in the JSON Schema 2020-12 dialect, with unique operation ids', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.length).toBe(ROUTES.length);
  });

  it('has only references that resolve, in plain component pointers', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(50);
    for (const r of all) {
      expect(r, r).toMatch(/^#\/components\/(schemas|responses)\/[A-Za-z0-9_]+$/);
      expect(resolve(r), r).toBeTypeOf('object');
    }
    // No JSON Schema dialect or id left inside components (the document names the dialect once).
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(schema.$schema, name).toBeUndefined();
      expect(schema.$id, name).toBeUndefined();
    }
  });

  it('has one required path parameter per `{name}` of each path, and no other', () => {
    for (const { path, method, op } of operations) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const params = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(params.map((p) => p.name).sort(), `${method} ${path}`).toEqual(inPath);
      for (const p of params) {
        expect(p.required).toBe(true);
        // Ids are integers for a client (the API reads them strictly: schemas/common.ts pathId); a vote
        // receipt is the hex mac of its log entry; a file of the docs page is one of a fixed few.
        if (p.name === 'asset') expect(p.schema).toMatchObject({ type: 'string', enum: expect.arrayContaining(['swagger-ui-bundle.js']) });
        else if (p.name === 'receipt') expect(p.schema).toEqual({ type: 'string', pattern: '^[0-9a-fA-F]{64}$' });
        else expect(p.schema).toEqual({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
      }
    }
  });

  it('types pageSize as an integer from 1 to 500 (default 100), servers and license present', () => {
    const pageSizes = operations.flatMap(({ op }) => (op.parameters ?? []).filter((p) => p.name === 'pageSize'));
    expect(pageSizes.length).toBeGreaterThan(5);
    for (const p of pageSizes) expect(p.schema).toEqual({ type: 'integer', minimum: 1, maximum: 500, default: 100 });
    const doc = buildOpenApiDocument();
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.info.license).toMatchObject({ name: expect.any(String), identifier: expect.any(String) });
  });

  it('shows an example of every request body (redocly lint checks them against the schemas)', () => {
    for (const { method, path, op } of operations) {
      if (!op.requestBody) continue;
      const [media, ...others] = Object.values(op.requestBody.content);
      expect(others, `${method} ${path}: one media type`).toEqual([]);
      expect(media!.example, `${method} ${path}`).toBeDefined();
    }
  });

  it('shows an example of every success answer, in every media type (redocly lint checks them against the schemas)', () => {
    let count = 0;
    for (const { method, path, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (!/^2/.test(status)) continue;
        for (const [type, media] of Object.entries(response.content ?? {})) {
          expect(media.example, `${method} ${path} ${status} ${type}`).toBeDefined();
          count++;
        }
      }
    }
    expect(count).toBeGreaterThanOrEqual(operations.length - 3);
  });

  it('links each create to the read of what it created', () => {
    const created = operations.filter(({ op }) => op.responses['201']);
    const linked = Object.fromEntries(created.map(({ op }) => [op.operationId, op.responses['201']!.links]));
    expect(linked.ideaCreate).toEqual({ ideaGet: { operationId: 'ideaGet', parameters: { siteId: '$request.path.siteId', ideaId: '$response.body#/id' }, description: expect.any(String) } });
    expect(linked.argumentCreate!.argumentGet!.parameters).toEqual({ siteId: '$request.path.siteId', ideaId: '$request.path.ideaId', argumentId: '$response.body#/id' });
    for (const name of ['siteCreate', 'articleCreate', 'userCreate']) expect(linked[name], name).toBeDefined();
  });

  it('answers Activity and AnonymizeReport ideas with the Idea record', () => {
    const schemas = typed(buildOpenApiDocument()).components.schemas;
    for (const name of ['Activity', 'AnonymizeReport']) expect(schemas[name]!.properties!.ideas!.items).toEqual({ $ref: '#/components/schemas/Idea' });
  });

  it('answers every error with the CONTRACT error body, and lists the statuses that follow from the route', () => {
    for (const route of ROUTES) {
      const op = doc.paths[route.path]![route.method.toLowerCase()]!;
      const statuses = Object.keys(op.responses).map(Number);
      expect(statuses, route.operationId).toContain(route.success.status);
      expect(statuses).toContain(500);
      expect(statuses).toContain(504);
      for (const status of errorStatuses(route)) expect(statuses, `${route.operationId} ${status}`).toContain(status);
      if (route.body) {
        expect(statuses).toEqual(expect.arrayContaining([400, 413, 415]));
        // The component of the very schema the handler validates with (lib/routes), not one of the same shape.
        const component = bodyComponentOf(route)!;
        expect(inputComponents[component].schema, route.operationId).toBe(route.body);
        // In the media type the route takes (a merge patch has its own, RFC 7396).
        expect(op.requestBody!.content[route.bodyMediaType ?? 'application/json']!.schema!.$ref).toBe(`#/components/schemas/${component}`);
      }
      if (route.path.includes('{')) expect(statuses).toEqual(expect.arrayContaining([400, 404]));
      if (route.path.startsWith('/api/site/{siteId}') || route.path.startsWith('/oauth/site/{siteId}')) expect(statuses).toContain(401);
      for (const status of statuses.filter((s) => s >= 400)) {
        const response = resolve(op.responses[status]!.$ref!) as Response;
        expect(response.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' });
        expect(response.content!['application/json']!.example!.status).toBe(status);
      }
    }
  });

  it('names the domain errors where CONTRACT has them', () => {
    const statusesOf = (id: string) => {
      const route = ROUTES.find((r) => r.operationId === id)!;
      return Object.keys(doc.paths[route.path]![route.method.toLowerCase()]!.responses).map(Number);
    };
    expect(statusesOf('voteCast')).toEqual(expect.arrayContaining([400, 401, 403, 404, 409, 413, 415]));
    expect(statusesOf('newsletterSignupCreate')).toEqual(expect.arrayContaining([403, 409]));
    expect(statusesOf('userUpdate')).toEqual(expect.arrayContaining([403, 502]));
    expect(statusesOf('siteCreate')).toEqual([201, 400, 401, 403, 413, 415, 500, 504]);
    // Public reads answer 304 to a client that holds the current ETag (lib/http/caching.ts).
    expect(statusesOf('siteList')).toEqual([200, 304, 400, 401, 500, 504]);
    expect(statusesOf('openapi')).toEqual([200, 304, 500, 504]);
  });

  it('says what the login 404, the service-token 403 on votes and the service-token 401 on /me mean', () => {
    const responsesOf = (id: string) => {
      const route = ROUTES.find((r) => r.operationId === id)!;
      return doc.paths[route.path]![route.method.toLowerCase()]!.responses;
    };
    for (const id of ['oauthLogin', 'oauthLogout', 'oauthDigestLogin']) expect(responsesOf(id)['404']!.description, id).toMatch(/config\.oauth/);
    for (const id of ['oauthLogin', 'oauthLogout']) expect(responsesOf(id)['400']!.description, id).toMatch(/redirectUrl/);
    for (const id of ['voteCast', 'argumentVote']) expect(responsesOf(id)['403']!.description, id).toMatch(/service token/);
    expect(responsesOf('oauthMe')['401']!.description).toMatch(/service token/);
    // The login's redirectUrl may be left out (the site's after-login redirect applies).
    const login = ROUTES.find((r) => r.operationId === 'oauthLogin')!;
    const redirectUrl = doc.paths[login.path]!.get!.parameters!.find((p) => p.name === 'redirectUrl')!;
    expect(redirectUrl.required).toBe(false);
  });

  it('describes the error body, the list envelope and the delete answer as CONTRACT does', () => {
    const s = doc.components.schemas;
    expect(s.Error!.required).toEqual(['status', 'error', 'message']);
    expect(s.Error!.properties!.details!.items!.properties).toEqual({ path: { type: 'string' }, message: { type: 'string' } });
    expect(s.IdeaList!.properties!.records!.items).toEqual({ $ref: '#/components/schemas/Idea' });
    expect(s.IdeaList!.properties!.metadata!.properties!.nextCursor).toEqual({ type: ['string', 'null'] });
    expect(s.IdeaList!.required).toEqual(['records', 'metadata']);
    expect(s.Deleted!.properties!.deleted).toEqual({ type: 'boolean', const: true });
    expect(s.Activity!.required).toEqual(['ideas', 'articles', 'arguments', 'votes', 'sites']);
    expect(s.AnonymizeReport!.properties!.users!.items).toEqual({ $ref: '#/components/schemas/User' });
  });

  it('takes records from the zod schemas, as answers (more fields allowed) and bodies as input', () => {
    const s = doc.components.schemas;
    expect(Object.keys(s.Idea!.properties!)).toEqual(Object.keys(ideaRecord.shape));
    expect(s.Idea!.required).toEqual(Object.keys(ideaRecord.shape).filter((k) => !(ideaRecord.shape[k as keyof typeof ideaRecord.shape] instanceof z.ZodMiniOptional)));
    expect(Object.keys(s.User!.properties!)).toEqual(Object.keys(userRecord.shape));
    expect(s.Idea!.additionalProperties).toBeUndefined();
    // Input side: the opinion default makes it optional for a client; the id is a JSON integer.
    expect(s.VoteInput!.required).toEqual(['ideaId']);
    expect(s.VoteInput!.properties!.ideaId!.type).toBe('integer');
    expect(s.CreateSiteBody!.properties!.config).toEqual({ $ref: '#/components/schemas/SiteConfig' });
  });

  it('describes the credentials: X-Authorization bearer tokens and site Basic Auth', () => {
    expect(doc.components.securitySchemes.bearerToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Authorization' });
    const op = (id: string) => {
      const route = ROUTES.find((r) => r.operationId === id)!;
      return doc.paths[route.path]![route.method.toLowerCase()]!;
    };
    expect(op('siteCreate').security).toEqual([{ bearerToken: [] }]);
    expect(op('ideaList').security).toContainEqual({});
    expect(op('ideaCreate').security).toEqual([{ bearerToken: [] }, { bearerToken: [], siteBasicAuth: [] }]);
    expect(op('openapi').security).toEqual([]);
  });
});
