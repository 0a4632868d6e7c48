/**
 * A page of another origin must not get a browser to send the token it holds for this API (CONTRACT
 * "Decided details, security"): a CORS preflight asking for `X-Authorization` or `Authorization` is
 * allowed only for the site's `allowedDomains` origins, for every method, GETs included; an answer to
 * a request that carried credentials never says `*`. Anonymous public reads keep `*`.
 */
import { describe, expect, it } from 'vitest';
import { createSite, createUser } from '#tests/support/fixtures';
import { send } from '#tests/support/hostile/send';
import { handler as notFound } from '../../../functions/system/not-found.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as me } from '../../../functions/oauth/me.ts';

const EVIL = 'https://evil.example';
const GOOD = 'https://city.example.org';

const preflight = (siteId: number, origin: string, method: string, requestHeaders?: string) =>
  send(notFound, { method: 'OPTIONS', path: '*' }, {
    method: 'OPTIONS',
    rawPath: `/api/site/${siteId}/idea`,
    headers: { origin, 'access-control-request-method': method, ...(requestHeaders ? { 'access-control-request-headers': requestHeaders } : {}) },
  });

describe('credentialed CORS', () => {
  it('a hostile origin asking to send X-Authorization or Authorization is refused whatever the method; the site origin is allowed', async () => {
    const site = await createSite({ allowedDomains: ['city.example.org'] });
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const headers of ['x-authorization', 'authorization', 'content-type,x-authorization']) {
        const evil = await preflight(site.id, EVIL, method, headers);
        expect(evil.status).toBe(204);
        expect(evil.headers['access-control-allow-origin'], `${method} ${headers}`).toBeUndefined();
        expect(evil.headers['access-control-allow-headers']).not.toMatch(/authorization/i);
        const good = await preflight(site.id, GOOD, method, headers);
        expect(good.headers['access-control-allow-origin']).toBe(GOOD);
        expect(good.headers['access-control-allow-headers']).toMatch(/X-Authorization/);
        expect(good.headers['access-control-allow-methods']).toContain(method);
      }
    }
    // An anonymous public read from anywhere keeps `*`.
    expect((await preflight(site.id, EVIL, 'GET')).headers['access-control-allow-origin']).toBe('*');
    expect((await preflight(site.id, EVIL, 'GET', 'content-type')).headers['access-control-allow-origin']).toBe('*');
  });

  it('an answer to a read that carried a token is never `*` for another origin; the anonymous read is', async () => {
    const site = await createSite({ allowedDomains: ['city.example.org'] });
    const member = await createUser(site.id, 'member');
    const read = (origin: string, token?: string) =>
      send(listIdeas, { method: 'GET', path: '/api/site/{siteId}/idea' }, { params: { siteId: String(site.id) }, headers: { origin }, ...(token ? { token } : {}) });
    expect((await read(EVIL)).headers['access-control-allow-origin']).toBe('*');
    expect((await read(EVIL, member.token)).headers['access-control-allow-origin']).toBeUndefined();
    expect((await read(GOOD, member.token)).headers['access-control-allow-origin']).toBe(GOOD);
    const own = await send(me, { method: 'GET', path: '/oauth/site/{siteId}/me' }, { params: { siteId: String(site.id) }, headers: { origin: EVIL }, token: member.token });
    expect(own.status).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBeUndefined();
  });
});
