/**
 * The document is as strict as the server where a schema can say it (a client generator or a fuzzer
 * reads only the document): integer bounds of bodies, the default text limits (said to be each
 * site's to change), the status filter's size, coordinate ranges, the redirectUrl form, a typed
 * `Site.config`, an `opinion` a generated client may leave out, a `Location` on each create.
 */
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '#lib/openapi/document';
import { ROUTES } from '#lib/openapi/routes';

// A plain JSON reading of the document: any path into it is a test expectation, checked by the assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const doc = buildOpenApiDocument() as unknown as Json;
const schemas = doc.components.schemas as Record<string, Json>;
const param = (path: string, name: string) => (doc.paths[path].get.parameters as Json[]).find((p) => p.name === name)!.schema as Json;

describe('the document states the limits the server enforces', () => {
  it('body integers: at most 2^53-1 (the server refuses what would lose digits)', () => {
    expect(schemas.VoteInput!.properties.ideaId).toMatchObject({ type: 'integer', maximum: Number.MAX_SAFE_INTEGER });
    expect(schemas.CreateArgumentBody!.properties.parentId.anyOf[0]).toMatchObject({ type: 'integer', maximum: Number.MAX_SAFE_INTEGER });
    expect(schemas.CreateIdeaBody!.properties.budget.anyOf[0]).toMatchObject({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
  });

  it("texts: the default lengths as minLength/maxLength, described as the site's to change", () => {
    expect(schemas.CreateIdeaBody!.properties.title).toMatchObject({ minLength: 10, maxLength: 50, description: expect.stringContaining('config.ideas.titleMinLength') });
    expect(schemas.UpdateArticleBody!.properties.description).toMatchObject({ minLength: 140, maxLength: 5000, description: expect.stringContaining('config.articles.descriptionMaxLength') });
    expect(schemas.CreateArgumentBody!.properties.description).toMatchObject({ minLength: 30, maxLength: 500, description: expect.stringContaining('config.arguments.descriptionMinLength') });
  });

  it('the status filter holds at most 6 statuses; bbox and near only take degrees in range', () => {
    const status = new RegExp(param('/api/site/{siteId}/idea', 'status').pattern as string);
    expect(status.test('OPEN,CLOSED,ACCEPTED,DENIED,BUSY,DONE')).toBe(true);
    expect(status.test('OPEN,CLOSED,ACCEPTED,DENIED,BUSY,DONE,OPEN')).toBe(false);
    for (const path of ['/api/site/{siteId}/idea', '/api/site/{siteId}/idea-marker']) {
      const bbox = new RegExp(param(path, 'bbox').pattern as string);
      const near = new RegExp(param(path, 'near').pattern as string);
      expect(bbox.test('-90,-180,90,180')).toBe(true);
      expect(near.test('52.37,4.89')).toBe(true);
      for (const out of ['90.5,0', '-91,0', '0,180.1', '0,-999', '999,0']) expect(near.test(out), out).toBe(false);
      expect(bbox.test('0,0,0,181')).toBe(false);
    }
  });

  it('redirectUrl: an absolute http(s) URL without credentials', () => {
    for (const path of ['/oauth/site/{siteId}/login', '/oauth/site/{siteId}/logout']) {
      const url = new RegExp(param(path, 'redirectUrl').pattern as string);
      expect(url.test('https://city.example/after?x=1#y')).toBe(true);
      for (const bad of ['/after', 'javascript:alert(1)', 'https://user:pw@city.example/', 'ftp://city.example/']) expect(url.test(bad), bad).toBe(false);
    }
  });
});

describe('what generated clients read', () => {
  it('Site.config is the typed config (secrets as the mask reads show), in the record and in the list', () => {
    expect(schemas.Site!.properties.config).toEqual({ $ref: '#/components/schemas/SiteConfigRead' });
    expect(schemas.SiteList!.properties.records.items).toEqual({ $ref: '#/components/schemas/Site' });
    expect(schemas.SiteConfigRead!.properties.votes.properties.voteType.enum).toContain('likes');
    // Answers carry the mask where a secret is: a `writeOnly` property there would make every read a violation of the document.
    expect(schemas.SiteConfigRead!.properties.basicAuth.properties.password).toMatchObject({ const: '********' });
    expect(schemas.SiteConfigRead!.properties.oauth.additionalProperties.properties['auth-client-secret']).toMatchObject({ const: '********' });
    expect(JSON.stringify(schemas.SiteConfigRead)).not.toContain('writeOnly');
  });

  it('VoteInput.opinion is an enum of the default vote values, optional, with no JSON Schema default (which generators make required)', () => {
    const vote = schemas.VoteInput!;
    expect(vote.required).toEqual(['ideaId']);
    expect(vote.properties.opinion).toMatchObject({ enum: ['yes', 'no'], description: expect.stringContaining('absent: `yes`') });
    expect(vote.properties.opinion).not.toHaveProperty('default');
  });

  it('every 201 carries Location, the path of a declared route; only a newsletter signup has none of its own', () => {
    const paths = new Set(ROUTES.map((r) => r.path));
    const creates = ROUTES.filter((r) => r.success.status === 201);
    expect(creates.length).toBeGreaterThanOrEqual(7);
    for (const route of creates) {
      const answer = doc.paths[route.path][route.method.toLowerCase()].responses['201'] as Json;
      if (route.operationId === 'newsletterSignupCreate') {
        expect(route.success.location).toBeUndefined();
        continue;
      }
      expect(paths.has(route.success.location!), route.operationId).toBe(true);
      expect(route.success.location!.startsWith(route.path.replace(/\/$/, '')), route.operationId).toBe(true);
      expect(answer.headers.Location.schema).toEqual({ type: 'string', format: 'uri-reference' });
    }
  });

  it('PATCH /api/site/{siteId} takes application/merge-patch+json only, and says PUT replaces the config', () => {
    const patch = doc.paths['/api/site/{siteId}'].patch as Json;
    expect(Object.keys(patch.requestBody.content)).toEqual(['application/merge-patch+json']);
    expect(patch.description).toMatch(/RFC 7396/);
    expect(doc.paths['/api/site/{siteId}'].put.description).toMatch(/replaces the whole config/);
    expect(schemas.UpdateSiteBody!.description).toMatch(/replaces the stored config as a whole/);
  });
});
