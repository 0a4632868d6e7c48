/**
 * This API's public base URL (lib/oauth/public-url.ts). `PUBLIC_BASE_URL` is read once at cold start,
 * so each case sets the environment and loads the module afresh, as a new Lambda container would.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The module as a container started with this PUBLIC_BASE_URL (undefined: not set) would load it. */
async function coldStart(publicBaseUrl: string | undefined) {
  vi.resetModules();
  if (publicBaseUrl === undefined) vi.stubEnv('PUBLIC_BASE_URL', undefined);
  else vi.stubEnv('PUBLIC_BASE_URL', publicBaseUrl);
  return (await import('#lib/oauth/public-url')).publicBaseUrl;
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('PUBLIC_BASE_URL set', () => {
  it('wins over the Host header, and needs none', async () => {
    const publicBaseUrl = await coldStart('https://api.city.example');
    expect(publicBaseUrl({ host: 'forged.example', 'x-forwarded-proto': 'http' })).toBe('https://api.city.example');
    expect(publicBaseUrl({})).toBe('https://api.city.example');
  });

  it('keeps a base path without its trailing slashes, and drops a query or fragment', async () => {
    expect((await coldStart('https://api.city.example/prod//'))({})).toBe('https://api.city.example/prod');
    expect((await coldStart('https://api.city.example/a/b/'))({})).toBe('https://api.city.example/a/b');
    expect((await coldStart('https://API.city.example:8443/prod?x=1#y'))({})).toBe('https://api.city.example:8443/prod');
  });

  it('may be plain http (a local stack behind a proxy)', async () => {
    expect((await coldStart('http://localhost:4000/'))({})).toBe('http://localhost:4000');
  });

  it('anything but http(s) fails the cold start, loudly', async () => {
    await expect(coldStart('ftp://files.example/')).rejects.toThrow('PUBLIC_BASE_URL must be an http(s) URL');
    await expect(coldStart('javascript:alert(1)')).rejects.toThrow('PUBLIC_BASE_URL must be an http(s) URL');
    await expect(coldStart('not a url')).rejects.toThrow();
  });
});

describe('PUBLIC_BASE_URL not set (or empty): from the Host header', () => {
  it('uses the Host header', async () => {
    for (const unset of [undefined, '']) {
      const publicBaseUrl = await coldStart(unset);
      expect(publicBaseUrl({ host: 'api.example' })).toBe('https://api.example');
      expect(() => publicBaseUrl({})).toThrow('The request has no valid Host header');
    }
  });

  it('reads the first x-forwarded-proto, whatever its case and spacing', async () => {
    const publicBaseUrl = await coldStart(undefined);
    expect(publicBaseUrl({ host: 'api.example', 'x-forwarded-proto': ' HTTP , https' })).toBe('http://api.example');
    expect(publicBaseUrl({ host: 'localhost:3000', 'x-forwarded-proto': 'HTTPS' })).toBe('https://localhost:3000');
    expect(publicBaseUrl({ host: 'localhost:3000', 'x-forwarded-proto': '' })).toBe('http://localhost:3000');
  });

  it('only a loopback host, with or without a port, defaults to http', async () => {
    const publicBaseUrl = await coldStart(undefined);
    expect(publicBaseUrl({ host: 'localhost' })).toBe('http://localhost');
    expect(publicBaseUrl({ host: '127.0.0.1' })).toBe('http://127.0.0.1');
    expect(publicBaseUrl({ host: 'LOCALHOST:3000' })).toBe('http://localhost:3000');
    expect(publicBaseUrl({ host: 'notlocalhost' })).toBe('https://notlocalhost');
    expect(publicBaseUrl({ host: 'localhost.city.example' })).toBe('https://localhost.city.example');
    expect(publicBaseUrl({ host: '127.0.0.1.nip.io:3000' })).toBe('https://127.0.0.1.nip.io:3000');
  });
});
