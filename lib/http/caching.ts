/**
 * What caches may do with an answer (RFC 9111), decided once for every route in the shared stack
 * (lib/http/stack.ts):
 *
 * - A public read (a route that declares `cache: 'public'`: sites, ideas, idea markers, articles,
 *   tags, the OpenAPI document and its page) asked WITHOUT credentials and answered 200: a strong
 *   `ETag` (lib/crypto/etag.ts, a hash of the exact body sent), `Cache-Control: PUBLIC_CACHE_CONTROL`
 *   (a CDN may serve it for a minute), and `Vary` on every request header that changes the answer.
 *   A request whose `If-None-Match` names that tag gets `304 Not Modified` without a body. The 304 is
 *   decided on the answer the route computed, after every check the route makes (the site, its Basic
 *   Auth, the caller): it saves bytes, never a check.
 * - An answer to a request WITH credentials (`X-Authorization`, or `Authorization` for a token or a
 *   site's Basic Auth): `private, no-store`, no tag, never a 304. It may hold what only that caller
 *   may see (roles, hidden records and counts, the caller's own votes); no cache keeps it. The same
 *   for a URL carrying a login's token in its query (`?jwt=`, where a login hands it back): the API
 *   does not read it, but a shared cache would key on it and log it.
 * - Everything else (writes, errors, anonymous reads of other routes): `no-store`.
 * A handler that sets `Cache-Control` itself (the health check, redirects, the results snapshots with
 * their stored tag) keeps it, except that an answer to a request with credentials is always
 * `private, no-store`. Results keep their snapshot's tag and 304 for every caller who may read them
 * (the tag is one for all of them, so it tells nobody anything), private with credentials.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { etagOf, matchesEtag } from '#lib/crypto/etag';
import { carriesCredentials } from '#lib/http/cors';
import { TOKEN_PARAM } from '#lib/oauth/redirect-url';

/** How long a shared cache (a CDN) or a browser may serve a public read without asking again. */
export const PUBLIC_MAX_AGE_SECONDS = 60;
/** After that, how long a cache may still serve it while it asks again in the background. */
const PUBLIC_STALE_SECONDS = 300;
export const PUBLIC_CACHE_CONTROL = `public, max-age=${PUBLIC_MAX_AGE_SECONDS}, stale-while-revalidate=${PUBLIC_STALE_SECONDS}`;
export const PRIVATE_CACHE_CONTROL = 'private, no-store';
const UNCACHED = 'no-store';

export type CachePolicy = 'public' | 'none';

/** How long a cache may go on serving an answer of a route with `policy` after it was made (0: never cached). */
export const cacheLifetimeSeconds = (policy: CachePolicy = 'none'): number => (policy === 'public' ? PUBLIC_MAX_AGE_SECONDS + PUBLIC_STALE_SECONDS : 0);

/**
 * The request headers a public answer depends on besides its URL: CORS (`Origin`), credentials (with
 * them the answer is another, private one: a cache must not hand the anonymous one to a caller with a
 * token, nor the reverse) and compression (the docs page's files).
 */
export const PUBLIC_VARY = ['Origin', 'X-Authorization', 'Authorization', 'Accept-Encoding'];

type Headers = NonNullable<APIGatewayProxyStructuredResultV2['headers']>;

const keyOf = (headers: Headers, name: string) => Object.keys(headers).find((k) => k.toLowerCase() === name);

/** The answer's `Vary` with `names` added (each once, whatever its case), under one lower-case key, last. */
function withVary(headers: Headers, names: readonly string[]): Headers {
  const out: Headers = {};
  const all: string[] = [];
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== 'vary') out[key] = headers[key]!;
    else for (const v of String(headers[key]).split(',')) if (v.trim()) all.push(v.trim());
  }
  const seen = new Set(all.map((v) => v.toLowerCase()));
  for (const name of names) {
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    all.push(name);
  }
  out.vary = all.join(', ');
  return out;
}

/** The headers a 304 keeps (RFC 9110 15.4.5): all but those that describe the body it leaves out. */
const BODY_HEADERS = /^(content-type|content-length|content-encoding)$/i;

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;

export function caching(policy: CachePolicy): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> {
  const decide = (request: Request) => {
    const response = request.response;
    if (!response) return;
    const headers = (response.headers ??= {});
    // Credentials win over what a handler chose: a shared cache may hand a `public` answer to a request
    // with credentials to callers without them (RFC 9111 §3.5), whatever the answer holds.
    if (carriesCredentials(request.event.headers) || request.event.queryStringParameters?.[TOKEN_PARAM] !== undefined) {
      response.headers = { ...Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'cache-control')), 'cache-control': PRIVATE_CACHE_CONTROL };
      return;
    }
    if (keyOf(headers, 'cache-control') !== undefined) return;
    const method = request.event.requestContext?.http?.method?.toUpperCase();
    if (policy !== 'public' || method !== 'GET' || response.statusCode !== 200 || typeof response.body !== 'string') {
      headers['cache-control'] = UNCACHED;
      return;
    }
    const etag = etagOf(response.body);
    const tagged = (response.headers = { ...withVary(headers, PUBLIC_VARY), etag, 'cache-control': PUBLIC_CACHE_CONTROL });
    if (matchesEtag(request.event.headers?.['if-none-match'], etag)) {
      const kept = Object.fromEntries(Object.entries(tagged).filter(([k]) => !BODY_HEADERS.test(k)));
      request.response = { statusCode: 304, headers: kept, body: '' };
    }
  };
  return { after: decide, onError: decide };
}
