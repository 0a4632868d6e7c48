/**
 * End to end: real HTTP through serverless-offline (the handlers from source, as API Gateway would call
 * them) against the run's DynamoDB Local; both started by the e2e global setup.
 */
import { describe, expect, inject, it } from 'vitest';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import type { SiteBody } from '#tests/support/bodies';

const apiUrl = inject('apiUrl');
const auth = { 'X-Authorization': `Bearer ${SERVICE_TOKEN}` };

const call = async <T = unknown>(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) => {
  const res = await fetch(`${apiUrl}${path}`, { method, body: init.body, headers: init.headers, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
};

describe('the API over HTTP', () => {
  it('manages a site end to end', async () => {
    const created = await call<SiteBody>('POST', '/api/site/', {
      body: JSON.stringify({ name: 'e2e', config: { allowedDomains: ['city.example.org'], newslettersignup: { isActive: true } } }),
      headers: { ...auth, 'Content-Type': 'application/json' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await call('GET', '/api/site/')).status).toBe(200);
    expect((await call<SiteBody>('GET', `/api/site/${id}`)).body.name).toBe('e2e');
    const updated = await call<SiteBody>('PUT', `/api/site/${id}`, {
      body: JSON.stringify({ title: 'E2E' }),
      headers: { ...auth, 'content-type': 'application/json; charset=utf-8' },
    });
    expect(updated.body.title).toBe('E2E');
    const signup = await call('POST', `/api/site/${id}/newslettersignup`, {
      body: JSON.stringify({ email: 'e2e@example.org' }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(signup.status).toBe(201);
    expect((await call('DELETE', `/api/site/${id}`, { headers: auth })).body).toEqual({ id, deleted: true });
    expect((await call('GET', `/api/site/${id}`)).status).toBe(404);
  });

  it('answers bad input with a 4xx and the CONTRACT error body', async () => {
    const malformed = await call('POST', '/api/site', { body: '{"name":', headers: { ...auth, 'Content-Type': 'application/json' } });
    expect(malformed).toMatchObject({ status: 400, body: { status: 400, error: 'BadRequest' } });
    const form = await call('POST', '/api/site', { body: 'name=x', headers: { ...auth, 'Content-Type': 'text/plain' } });
    expect(form.status).toBe(415);
    expect((await call('GET', '/api/site/abc')).body).toMatchObject({ status: 400, error: 'ValidationError' });
    expect((await call('GET', '/api/site/012')).status).toBe(400);
    expect((await call('POST', '/api/site', { body: '{}', headers: { 'Content-Type': 'application/json' } })).status).toBe(401);
    const big = await call('POST', '/api/site', { body: JSON.stringify({ name: 'x'.repeat(300_000) }), headers: { ...auth, 'Content-Type': 'application/json' } });
    expect(big.status).toBe(413);
  });

  it('answers unknown paths and methods with a 404 body, and preflights with 204', async () => {
    const unknown = await call('GET', '/api/nothing/here');
    expect(unknown).toMatchObject({ status: 404, body: { status: 404, error: 'NotFound' } });
    expect((await call('PATCH', '/api/site')).status).toBe(404);
    const preflight = await fetch(`${apiUrl}/api/site/1/idea`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://anywhere.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-authorization' },
    });
    // The handler's 204, as API Gateway passes it through (serverless-offline's own 200 is undone); an
    // origin the site does not list may read public data but may not send a token.
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).not.toContain('X-Authorization');
  });
});
