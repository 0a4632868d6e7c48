/**
 * The route wrapper (lib/http/handler.ts over lib/request/setup.ts) with the site, caller, rate limit and activity as doubles: the
 * order of the answers (400 site id -> 404 site -> 401 Basic Auth -> rate limit -> path -> body kind ->
 * caller -> 403 access -> 400 query/body), what the handler gets, and what goes back.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { buildEvent } from '../../../scripts/lambda-call.ts';

const doubles = vi.hoisted(() => ({
  sites: new Map<number, Record<string, unknown>>(),
  caller: { kind: 'none', role: undefined, userId: undefined } as Record<string, unknown>,
  rateLimited: [] as unknown[],
  activity: [] as unknown[],
  plans: [] as unknown[][],
}));
vi.mock('#lib/sites/site', () => ({
  loadSite: vi.fn(async (id: number) => {
    const site = doubles.sites.get(id);
    if (!site) throw Object.assign(new Error(`Site ${id} not found`), { status: 404 });
    return site;
  }),
}));
vi.mock('#lib/auth/caller', () => ({
  identify: vi.fn(async () => ({ kind: 'user', claims: { siteId: 1, userId: 5 } })),
  tokenUser: (identity: { claims?: unknown }) => identity.claims,
  resolveCaller: vi.fn(async () => doubles.caller),
}));
vi.mock('#lib/store/db/prefetch', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#lib/store/db/prefetch')>()),
  withPrefetchScope: (run: () => Promise<unknown>) => run(),
  prefetch: vi.fn(async (plans: unknown[]) => void doubles.plans.push(plans)),
}));
vi.mock('#lib/request/rate-limit', () => ({ enforceRateLimit: vi.fn(async (input: unknown) => void doubles.rateLimited.push(input)) }));
vi.mock('#lib/store/secrets/load', () => ({ loadSecrets: vi.fn(async () => undefined) }));
vi.mock('#lib/request/activity-touch', () => ({ recordWriteActivity: vi.fn(async (...args: unknown[]) => void doubles.activity.push(args)) }));

const { apiHandler } = await import('#lib/http/handler');
const { forbidden, notFound, validationError } = await import('#lib/errors');
const { loadSite } = await import('#lib/sites/site');
const { ok } = await import('#lib/http/response');
const { siteParams } = await import('#schemas/common');
const { identify, resolveCaller } = await import('#lib/auth/caller');
const { loadSecrets } = await import('#lib/store/secrets/load');
const { ACCESS_CLASSES } = await import('#lib/config/access-classes');
const { handleRequest } = await import('#lib/request/setup');
const { logger } = await import('#lib/log/logger');
const { PUBLIC_CACHE_CONTROL } = await import('#lib/http/caching');

type Res = { statusCode: number; body: string; headers?: Record<string, string>; cookies?: string[] };
const call = async (handler: (e: never, c: never) => Promise<unknown>, options: Parameters<typeof buildEvent>[0]) => {
  const { event, context } = buildEvent(options);
  const res = (await handler(event as never, context as never)) as Res;
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers ?? {}, cookies: res.cookies, requestId: (context as { awsRequestId: string }).awsRequestId };
};

beforeEach(() => {
  doubles.sites.clear();
  doubles.sites.set(1, { id: 1, name: 'Town', config: { allowedDomains: ['city.example'], ignoreBruteForce: ['10.0.0.1'] } });
  doubles.sites.set(2, { id: 2, name: 'Closed', config: { basicAuth: { active: true, user: 'u', password: 'p' } } });
  doubles.caller = { kind: 'none', role: undefined, userId: undefined };
  doubles.rateLimited = [];
  doubles.activity = [];
  doubles.plans = [];
  vi.mocked(loadSite).mockImplementation(async (id: number) => {
    const site = doubles.sites.get(id);
    if (!site) throw notFound(`Site ${id} not found`);
    return site as never;
  });
});

const body = z.object({ title: z.string().min(3) });
const query = z.object({ n: z.coerce.number().int().optional() });

describe('apiHandler', () => {
  it('hands the handler its validated input, the caller, headers, cookies and request id; answers as JSON', async () => {
    const seen: Record<string, unknown>[] = [];
    const handler = apiHandler({ params: siteParams, query, body }, async (req) => {
      seen.push(req as never);
      return { ...ok({ done: true }), cookies: ['a=1'] };
    });
    const res = await call(handler, { method: 'POST', params: { siteId: 1 }, query: { n: '2' }, body: { title: 'abc' }, cookies: ['c=3'], headers: { Origin: 'https://city.example' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ done: true });
    expect(res.cookies).toEqual(['a=1']);
    expect(res.headers['access-control-allow-origin']).toBe('https://city.example');
    expect(seen[0]).toMatchObject({ params: { siteId: 1 }, query: { n: 2 }, body: { title: 'abc' }, site: { id: 1 }, cookies: { c: '3' }, requestId: res.requestId });
    expect(doubles.activity).toEqual([[doubles.caller, 1]]);
  });

  it('a GET records no activity and sends no cookies it was not given', async () => {
    const handler = apiHandler({ params: siteParams }, async () => ok([]));
    const res = await call(handler, { params: { siteId: 1 } });
    expect(res.status).toBe(200);
    expect(res.cookies).toBeUndefined();
    expect(doubles.activity).toEqual([]);
  });

  it('answers in CONTRACT order: bad site id, unknown site, Basic Auth, then the rest', async () => {
    const handler = apiHandler({ params: siteParams, body, authorize: () => { throw forbidden('No'); } }, async () => ok({}));
    expect((await call(handler, { method: 'POST', params: { siteId: 'x' as never }, body: 'nonsense' })).body).toMatchObject({ status: 400, details: [{ path: 'siteId' }] });
    expect((await call(handler, { method: 'POST', params: { siteId: 9 }, body: 'nonsense' })).status).toBe(404);
    const closed = await call(handler, { method: 'POST', params: { siteId: 2 }, body: 'nonsense' });
    expect(closed.status).toBe(401);
    expect(closed.headers['WWW-Authenticate'] ?? closed.headers['www-authenticate']).toMatch(/^Basic realm="Closed"/);
    // Past the site: a body that is not an object is a 400 before access, access before the schema.
    expect((await call(handler, { method: 'POST', params: { siteId: 1 }, body: '"nonsense"' })).body).toMatchObject({ status: 400, message: 'Invalid body', details: [{ path: '', message: 'the body must be a JSON object, not string' }] });
    expect((await call(handler, { method: 'POST', params: { siteId: 1 }, body: { title: '' } })).body).toMatchObject({ status: 403, message: 'No' });
  });

  it('query and body failures are 400s naming the fields; a route may give its own body error', async () => {
    const plain = apiHandler({ params: siteParams, query, body }, async () => ok({}));
    expect((await call(plain, { method: 'POST', params: { siteId: 1 }, query: { n: 'x' }, body: { title: 'abc' } })).body).toMatchObject({ status: 400, message: 'Invalid query', details: [{ path: 'n' }] });
    expect((await call(plain, { method: 'POST', params: { siteId: 1 }, body: { title: 'a' } })).body).toMatchObject({ status: 400, message: 'Invalid body', details: [{ path: 'title' }] });
    const own = apiHandler({ params: siteParams, body, invalidBody: (details) => validationError(details, 'Own message') }, async () => ok({}));
    expect((await call(own, { method: 'POST', params: { siteId: 1 }, body: { title: 'a' } })).body).toMatchObject({ status: 400, message: 'Own message' });
  });

  it('a rate-limited door counts with the site, its exemptions, the source address and API Gateway time', async () => {
    const handler = apiHandler({ params: siteParams, rateLimit: 'login' }, async () => ok({}));
    await call(handler, { params: { siteId: 1 }, sourceIp: '203.0.113.9', timeEpoch: 1234 });
    expect(doubles.rateLimited).toEqual([{ group: 'login', siteId: 1, ignoreBruteForce: ['10.0.0.1'], sourceIp: '203.0.113.9', nowMs: 1234 }]);
    const other = apiHandler({ params: siteParams }, async () => ok({}));
    await call(other, { params: { siteId: 1 } });
    expect(doubles.rateLimited).toHaveLength(1);
  });

  it('routes without a site: no site read; a params schema without shape still parses the site id', async () => {
    const siteless = apiHandler({}, async (req) => ok({ site: req.site ?? null }));
    expect((await call(siteless, { method: 'POST' })).body).toEqual({ site: null });
    expect(vi.mocked(loadSite)).not.toHaveBeenCalledWith(undefined);
    const loose = apiHandler({ params: z.record(z.string(), z.string()) }, async (req) => ok({ site: (req.site as { id: number } | undefined)?.id ?? null }));
    expect((await call(loose, { params: { siteId: 1 } })).body).toEqual({ site: 1 });
    expect((await call(loose, { params: { other: 'x' } as never })).body).toEqual({ site: null });
  });

describe('the first read', () => {
  it('plans the site, the token user of this site and the route plan, from the validated request; a plan that throws is none', async () => {
    const seen: unknown[] = [];
    const handler = apiHandler(
      {
        params: siteParams,
        body: z.object({ n: z.number() }),
        prefetch: (request) => {
          seen.push(request);
          return { keys: [{ PK: 'X', SK: String(request.body && (request.body as { n: number }).n) }], consistent: true };
        },
      },
      async () => ok({}),
    );
    await call(handler, { method: 'POST', params: { siteId: 1 }, body: { n: 3 }, headers: { 'idempotency-key': 'k' } });
    expect(seen).toEqual([expect.objectContaining({ siteId: 1, userId: 5, body: { n: 3 }, headers: expect.objectContaining({ 'idempotency-key': 'k' }) })]);
    expect(doubles.plans).toEqual([
      [
        { keys: [{ PK: 'SITE#1', SK: 'SITE' }, { PK: 'SITE#1', SK: 'USER#0000000005' }], consistent: false },
        { keys: [{ PK: 'X', SK: '3' }], consistent: true },
      ],
    ]);
    // A token of another site: its user is prefetched (it is who the token names) but not handed to the route.
    const { identify } = await import('#lib/auth/caller');
    vi.mocked(identify).mockResolvedValueOnce({ kind: 'user', claims: { siteId: 9, userId: 5 } });
    await call(handler, { method: 'POST', params: { siteId: 1 }, body: { n: 4 } });
    expect(seen[1]).toMatchObject({ userId: undefined });
    // A plan that throws is no plan: the request goes on and reads what it needs itself.
    const throwing = apiHandler({ params: siteParams, prefetch: () => { throw new Error('bad'); } }, async () => ok({}));
    expect((await call(throwing, { method: 'GET', params: { siteId: 1 } })).status).toBe(200);
    expect(doubles.plans.at(-1)![1]).toBeUndefined();
  });
});
});

describe('the raw request, read once ahead and answered in its place', () => {
  const plans = () => doubles.plans.map((batch) => batch[1]);

  it('a malformed JSON body is a 400 in its place, after the site; the route plan sees no body', async () => {
    const seen: unknown[] = [];
    const handler = apiHandler({ params: siteParams, body, prefetch: (request) => void seen.push(request.body) }, async () => ok({}));
    const res = await call(handler, { method: 'POST', params: { siteId: 1 }, body: '{"title": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(seen).toEqual([undefined]);
    expect((await call(handler, { method: 'POST', params: { siteId: 9 }, body: '{"title": ' })).status).toBe(404);
  });

  it('a route without a body schema ignores any body; one with a schema names what is not an object', async () => {
    const bare = apiHandler({ params: siteParams }, async () => ok({}));
    expect((await call(bare, { method: 'POST', params: { siteId: 1 }, body: '5' })).status).toBe(200);
    expect((await call(bare, { method: 'POST', params: { siteId: 1 } })).status).toBe(200);
    const typed = apiHandler({ params: siteParams, body }, async () => ok({}));
    expect((await call(typed, { method: 'POST', params: { siteId: 1 } })).status).toBe(400);
    for (const [raw, kind] of [['null', 'null'], ['5', 'number'], ['"x"', 'string'], ['true', 'boolean']]) {
      const res = await call(typed, { method: 'POST', params: { siteId: 1 }, body: raw! });
      expect(res.body).toMatchObject({ status: 400, details: [{ path: '', message: `the body must be a JSON object, not ${kind}` }] });
    }
  });

  it('the route plan gets the validated path, query and body (undefined where they fail) and the user only of a token of this site', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const query = z.object({ a: z.optional(z.literal('b')) });
    const handler = apiHandler({ params: siteParams, query, body, prefetch: (request) => void seen.push({ ...request }) }, async () => ok({}));
    const { identify } = await import('#lib/auth/caller');
    vi.mocked(identify).mockResolvedValueOnce({ kind: 'none' });
    await call(handler, { method: 'POST', params: { siteId: 1 }, body: { title: 'xyz' } });
    expect(seen[0]).toMatchObject({ siteId: 1, userId: undefined, params: { siteId: 1 }, query: {}, body: { title: 'xyz' } });
    await call(handler, { method: 'POST', params: { siteId: 1 }, query: { a: 'b' }, body: { title: 5 } });
    expect(seen[1]).toMatchObject({ userId: 5, query: { a: 'b' }, body: undefined });
    await call(handler, { method: 'POST', params: { siteId: 1 }, query: { a: 'c' }, body: { title: 'xyz' } });
    expect(seen[2]).toMatchObject({ query: undefined, body: { title: 'xyz' } });
  });

  it('a path that fails its params schema plans nothing of the route', async () => {
    const plan = vi.fn(() => ({ keys: [], consistent: false }));
    const handler = apiHandler({ params: z.object({ siteId: siteParams.shape.siteId, ideaId: z.string().regex(/^[0-9]+$/) }), prefetch: plan }, async () => ok({}));
    expect((await call(handler, { params: { siteId: 1, ideaId: 'x' } as never })).status).toBe(400);
    expect(plan).not.toHaveBeenCalled();
  });

  it('a site-less route plans nothing of its own, even with a plan declared', async () => {
    const plan = vi.fn(() => ({ keys: [], consistent: false }));
    const handler = apiHandler({ prefetch: plan }, async () => ok({}));
    expect((await call(handler, {})).status).toBe(200);
    expect(plan).not.toHaveBeenCalled();
    expect(plans()).toEqual([undefined]);
  });

  it('Basic Auth reads the Authorization header: the right credentials pass', async () => {
    const handler = apiHandler({ params: siteParams }, async () => ok({}));
    const basic = `Basic ${Buffer.from('u:p').toString('base64')}`;
    expect((await call(handler, { params: { siteId: 2 }, headers: { authorization: basic } })).status).toBe(200);
  });
});

describe('secrets and the token, by access class', () => {
  beforeEach(() => {
    vi.mocked(identify).mockClear();
    vi.mocked(resolveCaller).mockClear();
    vi.mocked(loadSecrets).mockClear();
  });

  it('a route without a class loads the secrets of a write and reads the token', async () => {
    const handler = apiHandler({ params: siteParams }, async () => ok({}));
    expect((await call(handler, { params: { siteId: 1 } })).status).toBe(200);
    expect(vi.mocked(loadSecrets)).toHaveBeenCalledWith(ACCESS_CLASSES.write.secrets, expect.any(Function));
    expect(vi.mocked(identify)).toHaveBeenCalledTimes(1);
  });

  it('a class loads its own secrets only, and one without the token keys reads no token', async () => {
    const publicKey = apiHandler({ dataAccess: 'publicKey' }, async () => ok({}));
    expect((await call(publicKey, {})).status).toBe(200);
    expect(vi.mocked(loadSecrets)).toHaveBeenCalledWith(['votePublicKey'], expect.any(Function));
    expect(vi.mocked(identify)).not.toHaveBeenCalled();
    expect(vi.mocked(resolveCaller).mock.calls[0]![2]).toEqual({ kind: 'none' });
  });

  it('a class without secrets loads none', async () => {
    const fixed = apiHandler({ dataAccess: 'static' }, async () => ok({}));
    expect((await call(fixed, {})).status).toBe(200);
    expect(vi.mocked(loadSecrets)).not.toHaveBeenCalled();
    expect(vi.mocked(identify)).not.toHaveBeenCalled();
  });

  it('a route without auth reads no token, whatever its class loads', async () => {
    const door = apiHandler({ params: siteParams, dataAccess: 'door', auth: 'none' }, async () => ok({}));
    expect((await call(door, { params: { siteId: 1 }, headers: { authorization: 'Bearer stale' } })).status).toBe(200);
    expect(vi.mocked(loadSecrets)).toHaveBeenCalledWith(ACCESS_CLASSES.door.secrets, expect.any(Function));
    expect(vi.mocked(identify)).not.toHaveBeenCalled();
    expect(vi.mocked(resolveCaller).mock.calls[0]![2]).toEqual({ kind: 'none' });
  });

  it('a failed refresh of the secret store is logged as an error; the request goes on with the values held', async () => {
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    vi.mocked(loadSecrets).mockImplementationOnce(async (_names, onRefreshFailed) => onRefreshFailed?.(new Error('ssm down')));
    const handler = apiHandler({ params: siteParams }, async () => ok({}));
    expect((await call(handler, { params: { siteId: 1 } })).status).toBe(200);
    expect(error).toHaveBeenCalledWith('secret store refresh failed; using the values read before', { error: new Error('ssm down') });
    error.mockRestore();
  });
});

describe('request setup, past the site', () => {
  it('a malformed body is answered before the access check and the caller', async () => {
    const handler = apiHandler({ params: siteParams, body, authorize: () => { throw forbidden('No'); } }, async () => ok({}));
    vi.mocked(resolveCaller).mockClear();
    expect((await call(handler, { method: 'POST', params: { siteId: 1 }, body: '{"title": ' })).status).toBe(400);
    expect(vi.mocked(resolveCaller)).not.toHaveBeenCalled();
  });

  it('query text that is not well-formed (a lone surrogate) is a 400 naming the parameter, on a route that reads no query too', async () => {
    const handler = apiHandler({ params: siteParams }, async () => ok({}));
    expect((await call(handler, { params: { siteId: 1 }, query: { fine: 'x', bad: 'a\uD800' } })).body).toMatchObject({ status: 400, message: 'Invalid query', details: [{ path: 'bad' }] });
    expect((await call(handler, { params: { siteId: 1 }, query: { fine: 'x' } })).status).toBe(200);
  });

  it('a body schema that allows no body takes a request without one', async () => {
    const handler = apiHandler({ params: siteParams, body: body.optional() }, async (req) => ok({ body: req.body ?? null }));
    expect((await call(handler, { method: 'POST', params: { siteId: 1 } })).body).toEqual({ body: null });
  });

  it('a site-less route reads no site in its first read, only the token user', async () => {
    doubles.plans = [];
    const handler = apiHandler({}, async () => ok({}));
    expect((await call(handler, {})).status).toBe(200);
    expect(doubles.plans[0]![0]).toEqual({ keys: [{ PK: 'SITE#1', SK: 'USER#0000000005' }], consistent: false });
  });

  it('an adapter that does not ask to be told the site still gets the request prepared', async () => {
    const request = { pathParameters: { siteId: '1' }, query: {}, headers: {}, body: { ok: true as const, value: undefined }, sourceIp: undefined, timeEpoch: undefined, isWrite: false };
    const prepared = await handleRequest({ params: siteParams }, request, async (req) => req.site);
    expect(prepared).toMatchObject({ id: 1 });
  });
});


describe('what goes back', () => {
  const created = (body: unknown) => async () => ({ statusCode: 201, body, headers: { 'idempotent-replayed': 'false' } });

  it("a create answers 201 with the Location of what it made, from the route's template and the request's path", async () => {
    const handler = apiHandler({ params: siteParams, success: { status: 201, location: '/api/site/{siteId}/idea/{ideaId}' } }, created({ id: 12, title: 'x' }));
    const res = await call(handler, { method: 'POST', params: { siteId: 1 } });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('/api/site/1/idea/12');
    expect(res.headers['idempotent-replayed']).toBe('false');
    expect(res.body).toEqual({ id: 12, title: 'x' });
  });

  it('a site-less create (the path holds no parameter) takes every parameter from the record', async () => {
    const handler = apiHandler({ success: { status: 201, location: '/api/site/{siteId}' } }, created({ id: 7 }));
    const { event, context } = buildEvent({ method: 'POST' });
    delete (event as { pathParameters?: unknown }).pathParameters;
    const res = (await handler(event as never, context as never)) as Res;
    expect(res.statusCode).toBe(201);
    expect(res.headers?.location).toBe('/api/site/7');
  });

  it('no Location on an answer that is not a 201, nor on a route that declares none', async () => {
    const declared = apiHandler({ params: siteParams, success: { status: 201, location: '/api/site/{siteId}/idea/{ideaId}' } }, async () => ok({ id: 12 }));
    const plain = await call(declared, { method: 'POST', params: { siteId: 1 } });
    expect(plain.status).toBe(200);
    expect(plain.headers.location).toBeUndefined();
    for (const spec of [{ success: { status: 201 } }, {}]) {
      const res = await call(apiHandler({ params: siteParams, ...spec }, created({ id: 12 })), { method: 'POST', params: { siteId: 1 } });
      expect(res.status, JSON.stringify(spec)).toBe(201);
      expect(res.headers.location).toBeUndefined();
    }
  });

  it('a public route tags and lets caches keep its anonymous reads; any other route is no-store', async () => {
    const read = async () => ok({ id: 1 });
    const open = await call(apiHandler({ params: siteParams, cache: 'public' }, read), { params: { siteId: 1 } });
    expect(open.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
    expect(open.headers.etag).toMatch(/^".+"$/);
    const closed = await call(apiHandler({ params: siteParams }, read), { params: { siteId: 1 } });
    expect(closed.headers['cache-control']).toBe('no-store');
    expect(closed.headers.etag).toBeUndefined();
  });

  it("the route's declaration travels with its handler (what the access checks of the route table read)", () => {
    const handler = apiHandler({ operationId: 'tagList', dataAccess: 'static' }, async () => ok([]));
    expect({ operationId: handler.operationId, dataAccess: handler.dataAccess }).toEqual({ operationId: 'tagList', dataAccess: 'static' });
  });

  it('an event without API Gateway request context (a direct invocation) is answered, counted for an unknown address at our own time', async () => {
    const seen: Record<string, unknown>[] = [];
    const handler = apiHandler({ params: siteParams, rateLimit: 'login' }, async () => ok({}));
    for (const requestContext of [undefined, {}]) {
      const { event, context } = buildEvent({ params: { siteId: 1 } });
      (event as { requestContext?: unknown }).requestContext = requestContext;
      const res = (await handler(event as never, context as never)) as Res;
      expect(res.statusCode, JSON.stringify(requestContext)).toBe(200);
      seen.push(doubles.rateLimited.at(-1) as Record<string, unknown>);
    }
    const counted = expect.objectContaining({ group: 'login', siteId: 1, sourceIp: undefined, nowMs: expect.any(Number) });
    expect(seen).toEqual([counted, counted]);
  });
});
