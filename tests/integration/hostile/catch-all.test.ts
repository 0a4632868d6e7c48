/**
 * Hostile input on the catch-all route (`$default`: unknown paths and methods, CORS preflights). Any
 * path, method, body or header gets the CONTRACT 404 body; a preflight gets 204 with CORS headers,
 * whatever its path or Origin; nothing is ever stored.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { assertContractError, describe as show } from '#tests/support/hostile/contract';
import { deepJsonText, malformedJson, oversizedBodyText, wrongContentType } from '#tests/support/hostile/arbitraries';
import { routeNamed } from '#tests/support/hostile/routes';
import { send, type HostileRequest } from '#tests/support/hostile/send';
import { assertUnchanged, snapshotSites } from '#tests/support/hostile/snapshot';
import { buildSiteWorld, FRONTEND_HOST, type SiteWorld } from '#tests/support/hostile/world';

const route = routeNamed('notFound');
const params = { seed: 20_240_912, numRuns: 60, endOnFailure: true };

let w: SiteWorld;
beforeAll(async () => {
  w = await buildSiteWorld();
});

const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'TRACE', 'CONNECT', 'PROPFIND', 'get', 'X'.repeat(300), '🙂');

/** Paths no route has: near misses of real ones, traversal, odd encodings, huge ones. */
const path = (siteId: () => number) =>
  fc.oneof(
    fc.constantFrom(
      '/', '', '/api', '/api/', '/api/sites', '/api/site/999999999999998/ideas', '/api/site/abc/idea', '/api/site/-1', '/api/site/1e3/idea',
      '/api/site/999999999999999/idea/1/argument/2/vote/3', '/oauth/site/999999999999998/../../etc/passwd', '/api/site/%2e%2e/%2e%2e',
      '/api/site/999999999999998/idea/1/argument/1/vote/extra', '/API/SITE', '//api//site', '/api/site/1%00', '/api/site/１', '/.env',
      '/api/site/__proto__', '/api/site/constructor/idea', `/${'a'.repeat(10_000)}`, '/api/site/999999999999998/\u0000', '/api/site/999999999999998/🙂',
    ),
    fc.constant(null).map(() => `/api/site/${siteId()}/nothing-here`),
    fc.webPath(),
    fc.string({ maxLength: 200 }).map((s) => `/${s}`),
  );

const extras = fc.oneof(
  fc.constant<Partial<HostileRequest>>({}),
  malformedJson.map((rawBody) => ({ rawBody })),
  wrongContentType.map((contentType) => ({ rawBody: '{}', contentType })),
  fc.constant({ rawBody: oversizedBodyText('ascii') }),
  fc.constant({ rawBody: deepJsonText(10_000, 'array') }),
  fc.constantFrom({ token: SERVICE_TOKEN }, { token: 'forged.token.here' }, { headers: { 'x-authorization': 'garbage' } }),
);

describe('the catch-all route', () => {
  it('answers every unknown path and method with the CONTRACT 404 and stores nothing', async () => {
    const before = await snapshotSites([w.siteId]);
    await fc.assert(
      fc.asyncProperty(method, path(() => w.siteId), extras, async (m, p, extra) => {
        const req: HostileRequest = { method: m, rawPath: p, ...extra };
        const answer = await send(route.handler, route, req);
        assertContractError(answer, { status: 404 }, req);
      }),
      params,
    );
    await assertUnchanged([w.siteId], before);
  });

  it('answers every preflight with 204 and CORS headers, whatever the path or Origin', async () => {
    const origin = fc.oneof(
      fc.constantFrom(`https://${FRONTEND_HOST}`, 'https://evil.example', 'null', '', 'not a url', `https://${FRONTEND_HOST}.evil.example`, `https://${'a'.repeat(5000)}`, '\u0000', '🙂://x'),
      fc.webUrl(),
    );
    await fc.assert(
      fc.asyncProperty(
        path(() => w.siteId),
        origin,
        fc.constantFrom('GET', 'POST', 'DELETE', 'PATCH', '', 'BREW', undefined),
        fc.constantFrom(undefined, 'x-authorization', 'Authorization', 'content-type', 'content-type, X-Authorization', '\u0000'),
        async (p, o, requested, requestedHeaders) => {
          const headers: Record<string, string> = { origin: o };
          if (requested !== undefined) headers['access-control-request-method'] = requested;
          if (requestedHeaders !== undefined) headers['access-control-request-headers'] = requestedHeaders;
          const answer = await send(route.handler, route, { method: 'OPTIONS', rawPath: p, headers });
          expect(answer.status, show({ p, o, requested })).toBe(204);
          const allowed = answer.headers['access-control-allow-origin'];
          if (allowed !== undefined && allowed !== '*') {
            // Only an allowed origin is ever echoed, and only it may send credentials.
            expect(new URL(allowed).hostname).toBe(FRONTEND_HOST);
            expect(answer.headers['access-control-allow-headers']).toContain('X-Authorization');
          } else {
            expect(answer.headers['access-control-allow-headers']).not.toMatch(/authorization/i);
            // `*` only for an anonymous GET preflight.
            if (allowed === '*') expect([requested, /authorization/i.test(requestedHeaders ?? '')]).toEqual(['GET', false]);
          }
        },
      ),
      { ...params, numRuns: 40 },
    );
  });
});
