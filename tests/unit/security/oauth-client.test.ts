/**
 * The one auth-server client (lib/auth-server/client.ts) against a scripted HTTP server on 127.0.0.1 (the
 * unit stage is local, so loopback is allowed): what each call sends, and that every failure of the
 * server is the same 502 while a refused code (400) and a taken e-mail (409) are the caller's.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser, deleteUser, exchangeCode, externalIdOf, fetchUser, fetchUserInfo, serverUrl, updateUser } from '#lib/auth-server/client';
import type { AuthServerConfig } from '#lib/auth-server/config';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let answer: (req: Seen, res: ServerResponse) => void;
let seen: Seen[] = [];
let server: Server;
let config: AuthServerConfig;

const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => (_req: Seen, res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const entry = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(entry);
      answer(entry, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/base`;
  config = { name: 'default', url, clientId: 'client 1', clientSecret: 's3cret', loginPath: '/dialog/authorize', exchangeCodePath: '/oauth/token', userPath: '/api/userinfo', logoutPath: '/logout', afterLoginRedirectUri: undefined };
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  seen = [];
  answer = reply(200, {});
});

const GATEWAY = { status: 502, error: 'BadGateway' };

describe('serverUrl', () => {
  it('joins the base and a path (with or without its slash), fills [[clientId]], sets params', () => {
    expect(serverUrl(config, '/dialog/authorize', { a: '1' }).toString()).toBe(`${config.url}/dialog/authorize?a=1`);
    expect(serverUrl(config, 'x/[[clientId]]').pathname).toBe('/base/x/client%201');
  });
});

describe('the code exchange', () => {
  it('posts a form with the code, redirect_uri and client credentials; answers the access token', async () => {
    answer = reply(200, { access_token: 'at-1', token_type: 'Bearer' });
    expect(await exchangeCode(config, 'c0de', 'https://api.example/cb')).toBe('at-1');
    const [req] = seen;
    expect(req).toMatchObject({ method: 'POST', url: '/base/oauth/token' });
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(req!.body))).toEqual({
      grant_type: 'authorization_code',
      code: 'c0de',
      redirect_uri: 'https://api.example/cb',
      client_id: 'client 1',
      client_secret: 's3cret',
    });
  });

  it('a refused code (invalid_grant) is a 400; any other 400, a 5xx or a bad answer is the same 502', async () => {
    answer = reply(400, { error: 'invalid_grant' });
    await expect(exchangeCode(config, 'c', 'u')).rejects.toMatchObject({ status: 400, message: 'The login code is invalid, expired or already used; please log in again' });
    for (const bad of [reply(400, { error: 'invalid_client' }), reply(500, {}), reply(200, { token_type: 'Bearer' }), reply(200, 'not json'), reply(302, {}, { location: 'http://127.0.0.1/elsewhere' })]) {
      answer = bad;
      await expect(exchangeCode(config, 'c', 'u')).rejects.toMatchObject({ ...GATEWAY, message: 'The auth server could not complete the code exchange; please try again later' });
    }
  });
});

describe('userinfo and the admin API', () => {
  it('userinfo sends the bearer token and answers the user', async () => {
    answer = reply(200, { id: 5, email: 'a@example.org' });
    expect(await fetchUserInfo(config, 'at-1')).toMatchObject({ id: 5, email: 'a@example.org' });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/base/api/userinfo' });
    expect(seen[0]!.headers.authorization).toBe('Bearer at-1');
    answer = reply(401, {});
    await expect(fetchUserInfo(config, 'x')).rejects.toMatchObject({ ...GATEWAY, message: 'The auth server could not complete the userinfo request; please try again later' });
  });

  it('admin calls use Basic with the url-encoded client id and secret, and the encoded user id', async () => {
    answer = reply(200, { sub: 'u/1' });
    const user = await fetchUser(config, 'u/1');
    expect(externalIdOf(user)).toBe('u/1');
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/base/api/admin/user/u%2F1' });
    expect(Buffer.from(String(seen[0]!.headers.authorization).replace('Basic ', ''), 'base64').toString()).toBe('client%201:s3cret');
  });

  it('create posts JSON (201 or 200), a taken e-mail is a 409; update puts JSON, a taken e-mail is a 409', async () => {
    answer = reply(201, { id: 9 });
    expect(externalIdOf(await createUser(config, { email: 'n@example.org', firstName: 'N' }))).toBe(9);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/base/api/admin/user' });
    expect(JSON.parse(seen[0]!.body)).toEqual({ email: 'n@example.org', firstName: 'N' });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    answer = reply(409, {});
    await expect(createUser(config, { email: 'n@example.org' })).rejects.toMatchObject({ status: 409 });
    await expect(updateUser(config, 9, { email: 'x@example.org' })).rejects.toMatchObject({ status: 409, message: 'Another user on the auth server already has this e-mail' });
    answer = reply(200, { id: 9, email: 'x@example.org' });
    expect(await updateUser(config, 9, { email: 'x@example.org' })).toMatchObject({ email: 'x@example.org' });
    expect(seen.at(-1)).toMatchObject({ method: 'PUT', url: '/base/api/admin/user/9' });
    answer = reply(500, {});
    await expect(updateUser(config, 9, {})).rejects.toMatchObject({ ...GATEWAY, message: 'The auth server could not complete updating the user; please try again later' });
  });

  it('delete: 2xx and 404 count as deleted (a retry is safe); anything else is a 502', async () => {
    for (const status of [200, 204, 404]) {
      answer = reply(status, status === 204 ? '' : {});
      await expect(deleteUser(config, 9)).resolves.toBeUndefined();
    }
    expect(seen[0]).toMatchObject({ method: 'DELETE', url: '/base/api/admin/user/9' });
    answer = reply(500, {});
    await expect(deleteUser(config, 9)).rejects.toMatchObject(GATEWAY);
    answer = reply(302, {});
    await expect(deleteUser(config, 9)).rejects.toMatchObject(GATEWAY);
  });

  it('an answer over 1 MB, or nobody listening, is the same 502', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`"${'x'.repeat(1_100_000)}"`);
    };
    await expect(fetchUser(config, 1)).rejects.toMatchObject({ ...GATEWAY, message: 'The auth server could not complete reading the user; please try again later' });
    const closed = { ...config, url: 'http://127.0.0.1:9' };
    await expect(fetchUser(closed, 1)).rejects.toMatchObject({ ...GATEWAY, message: 'The auth server could not complete reading the user; please try again later' });
  });

  it('a refused address (cloud metadata) is the same 502, without a connection', async () => {
    const metadata = { ...config, url: 'http://169.254.169.254' };
    const before = seen.length;
    await expect(fetchUser(metadata, 1)).rejects.toMatchObject(GATEWAY);
    expect(seen.length).toBe(before);
  });
});
