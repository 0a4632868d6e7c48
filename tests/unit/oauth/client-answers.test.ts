/**
 * The auth-server client (lib/auth-server/client.ts) against a scripted server: which answers count as
 * success for each call (the exact statuses, not "anything with a readable body"), what every request
 * carries, the size and time limits, and what the log says about a failure (the 502 says nothing).
 * tests/unit/security/oauth-client.test.ts covers the calls' happy paths and the shared 502.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { logger } from '#lib/log/logger';
import { AUTH_SERVER_TIMEOUT_MS, createUser, deleteUser, exchangeCode, fetchUser, fetchUserInfo, updateUser } from '#lib/auth-server/client';
import type { AuthServerConfig } from '#lib/auth-server/config';
import { reply, startAuthServer, type AuthServerDouble } from '#tests/unit/oauth/auth-server-double';

let auth: AuthServerDouble;
let config: AuthServerConfig;
let warn: MockInstance<typeof logger.warn>;

beforeAll(async () => {
  auth = await startAuthServer();
  config = auth.config();
});
afterAll(() => auth.close());
beforeEach(() => {
  auth.seen = [];
  auth.answer = reply(200, {});
  warn = vi.spyOn(logger, 'warn');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const USER = { id: 9, email: 'n@example.org' };
const gateway = (what: string) => expect.objectContaining({ status: 502, message: `The auth server could not complete ${what}; please try again later` });
/** The log lines written, as [message, fields]. */
const logged = () => warn.mock.calls.map(([message, fields]) => [message, fields]);

describe('only the documented statuses are a success, whatever the body', () => {
  it('the code exchange: 200 only', async () => {
    auth.answer = reply(201, { access_token: 'at-1' });
    await expect(exchangeCode(config, 'c', 'u')).rejects.toEqual(gateway('the code exchange'));
    expect(logged()).toEqual([['auth server error', { what: 'the code exchange', status: 201 }]]);
  });

  it('the code exchange: invalid_grant is the caller\'s 400 only with status 400; a 400 without a body is a 502', async () => {
    auth.answer = reply(401, { error: 'invalid_grant' });
    await expect(exchangeCode(config, 'c', 'u')).rejects.toEqual(gateway('the code exchange'));
    auth.answer = reply(400, '');
    await expect(exchangeCode(config, 'c', 'u')).rejects.toEqual(gateway('the code exchange'));
  });

  it('userinfo and reading a user: 200 only', async () => {
    auth.answer = reply(203, USER);
    await expect(fetchUserInfo(config, 'at')).rejects.toEqual(gateway('the userinfo request'));
    await expect(fetchUser(config, 9)).rejects.toEqual(gateway('reading the user'));
  });

  it('creating a user: 200 or 201; a 202 is a 502, a 409 names the way out', async () => {
    auth.answer = reply(200, USER);
    await expect(createUser(config, { email: 'n@example.org' })).resolves.toMatchObject(USER);
    auth.answer = reply(202, USER);
    await expect(createUser(config, { email: 'n@example.org' })).rejects.toEqual(gateway('creating the user'));
    auth.answer = reply(409, {});
    await expect(createUser(config, { email: 'n@example.org' })).rejects.toMatchObject({
      status: 409,
      message: 'A user with this e-mail already exists on the auth server; they can log in to join this site',
    });
  });

  it('updating a user: 200 only', async () => {
    auth.answer = reply(201, USER);
    await expect(updateUser(config, 9, { firstName: 'N' })).rejects.toEqual(gateway('updating the user'));
  });

  it('deleting a user: a 3xx is not a success, from 300 on', async () => {
    auth.answer = reply(300, {});
    await expect(deleteUser(config, 9)).rejects.toEqual(gateway('deleting the user'));
    auth.answer = reply(299, '');
    await expect(deleteUser(config, 9)).resolves.toBeUndefined();
  });

  it('an answer it cannot read is logged as such, with the status', async () => {
    auth.answer = reply(200, { token_type: 'Bearer' });
    await expect(exchangeCode(config, 'c', 'u')).rejects.toEqual(gateway('the code exchange'));
    expect(logged()).toEqual([['auth server answer not understood', { what: 'the code exchange', status: 200 }]]);
  });
});

describe('what every request carries', () => {
  it('asks for JSON; a body goes with its exact length (not chunked), a GET without one', async () => {
    auth.answer = reply(200, USER);
    await createUser(config, { email: 'ä@example.org' });
    await fetchUser(config, 9);
    const [post, get] = auth.seen;
    expect(post!.headers.accept).toBe('application/json');
    expect(post!.headers['content-length']).toBe(String(Buffer.byteLength(post!.body)));
    expect(post!.headers['transfer-encoding']).toBeUndefined();
    expect(get!.headers.accept).toBe('application/json');
    expect(get!.headers['content-length']).toBeUndefined();
  });

  it('admin calls authenticate with exactly HTTP Basic of the encoded client id and secret', async () => {
    auth.answer = reply(200, USER);
    await fetchUser(config, 9);
    await deleteUser(config, 9);
    const basic = `Basic ${Buffer.from('client%201:s3cret').toString('base64')}`;
    expect(auth.seen.map((s) => [s.method, s.headers.authorization])).toEqual([
      ['GET', basic],
      ['DELETE', basic],
    ]);
  });

  it('reuses its connection from one call to the next (keep-alive)', async () => {
    auth.answer = reply(200, USER);
    await fetchUser(config, 1);
    await fetchUser(config, 2);
    await fetchUser(config, 3);
    expect(new Set(auth.seen.map((s) => s.remotePort)).size).toBe(1);
  });
});

describe('limits', () => {
  const padded = (bytes: number) => {
    const shell = JSON.stringify({ ...USER, pad: '' });
    return JSON.stringify({ ...USER, pad: 'x'.repeat(bytes - Buffer.byteLength(shell)) });
  };

  it('an answer of 1 000 000 bytes is read; one byte more is a 502', async () => {
    auth.answer = reply(200, padded(1_000_000));
    await expect(fetchUser(config, 9)).resolves.toMatchObject(USER);
    auth.answer = reply(200, padded(1_000_001));
    await expect(fetchUser(config, 9)).rejects.toEqual(gateway('reading the user'));
    expect(logged()).toEqual([['auth server unreachable', { what: 'reading the user', host: `127.0.0.1:${auth.port}`, error: 'answer too large' }]]);
  });

  it(`an answer cut off half-way is a 502`, async () => {
    auth.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"id":');
      setImmediate(() => res.socket?.destroy());
    };
    await expect(fetchUser(config, 9)).rejects.toEqual(gateway('reading the user'));
    expect(logged()).toEqual([['auth server unreachable', { what: 'reading the user', host: `127.0.0.1:${auth.port}`, error: 'answer aborted' }]]);
  });

  it(`no answer within ${AUTH_SERVER_TIMEOUT_MS} ms is a 502`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let arrived!: () => void;
    const arrival = new Promise<void>((r) => (arrived = r));
    auth.answer = () => arrived(); // never answers
    let settled = false;
    const call = fetchUser(config, 9).finally(() => (settled = true));
    await arrival;
    vi.advanceTimersByTime(AUTH_SERVER_TIMEOUT_MS - 1);
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    vi.advanceTimersByTime(1);
    await expect(call).rejects.toEqual(gateway('reading the user'));
    expect(logged()).toEqual([['auth server unreachable', { what: 'reading the user', host: `127.0.0.1:${auth.port}`, error: `no answer within ${AUTH_SERVER_TIMEOUT_MS} ms` }]]);
  });

  it('leaves no timer behind, answered or not', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    auth.answer = reply(200, USER);
    await fetchUser(config, 9);
    expect(vi.getTimerCount()).toBe(0);
    await expect(fetchUser({ ...config, url: 'http://127.0.0.1:9' }, 9)).rejects.toEqual(gateway('reading the user'));
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('the log says why; the answer does not, and neither carries a secret', () => {
  it('nobody listening: the host and the connection error', async () => {
    await expect(exchangeCode({ ...config, url: 'http://127.0.0.1:9' }, 'the-code', 'u')).rejects.toEqual(gateway('the code exchange'));
    expect(logged()).toEqual([['auth server unreachable', { what: 'the code exchange', host: '127.0.0.1:9', error: expect.stringContaining('ECONNREFUSED') }]]);
  });

  it('a refused address: the reason, and no connection is tried', async () => {
    await expect(fetchUser({ ...config, url: 'http://169.254.169.254' }, 9)).rejects.toEqual(gateway('reading the user'));
    expect(logged()).toEqual([
      ['auth server refused', { what: 'reading the user', host: '169.254.169.254', reason: 'must not point to an internal address: its host is a link-local or cloud-metadata address' }],
    ]);
  });

  it('a failed status: what and the status, never the code, secret or token', async () => {
    auth.answer = reply(500, { access_token: 'at-secret' });
    await expect(exchangeCode(config, 'the-code', 'u')).rejects.toEqual(gateway('the code exchange'));
    expect(logged()).toEqual([['auth server error', { what: 'the code exchange', status: 500 }]]);
    expect(JSON.stringify(logged())).not.toMatch(/the-code|s3cret|at-secret/);
  });
});
