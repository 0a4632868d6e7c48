/**
 * A small OAuth 2.0 authorization server (RFC 6749, authorization code grant) for local development
 * and tests, built on node:http only. It plays the part of the sites' external auth server
 * (openstad-auth in OpenStad): the API sends people here to log in, exchanges the code, reads the
 * user, and writes user changes back through the admin API.
 *
 *   GET  /dialog/authorize        response_type=code, client_id, redirect_uri, state[, login_hint]
 *                                 HTML page to pick or enter a demo user; `login_hint=<e-mail>` of a
 *                                 known user approves at once (no page: for tests and scripts)
 *   POST /dialog/authorize/decision   the page's form: user_id | email(+names, created when new) | deny
 *   POST /oauth/token             form-encoded grant_type=authorization_code, code, redirect_uri,
 *                                 client_id, client_secret (or HTTP Basic client auth)
 *   GET  /api/userinfo            Bearer access token -> {id, sub, email, firstName, lastName, role?, extraData}
 *   GET|PUT|DELETE /api/admin/user/:id, POST /api/admin/user   HTTP Basic client_id:client_secret
 *   GET  /logout                  [redirect_uri, client_id]: 302 back when the URI is allowed
 *
 * Usage: `const auth = await startAuthServer({ port: 0, clients, users }); ...; await auth.stop();`
 * `auth.control` lets tests inject failures and inspect users (see AuthServerControl).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizePage, errorPage, loggedOutPage } from './pages.ts';
import { AuthState, userForClient, type AuthClient, type AuthUserSeed, type StoredUser } from './users.ts';

export type { AuthClient, AuthUserSeed } from './users.ts';

type Endpoint = 'authorize' | 'token' | 'userinfo' | 'adminGet' | 'adminCreate' | 'adminUpdate' | 'adminDelete' | 'logout';

interface StartAuthServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  clients: AuthClient[];
  users?: AuthUserSeed[];
  /**
   * The id of the first user it creates (default 1). Tests give each stand-in its own range: the API
   * knows a person by auth-server URL + user id, and a port freed by one test file's stand-in can be
   * taken by the next one's, whose user 1 would otherwise be another file's user 1.
   */
  firstUserId?: number;
  /** Lifetime of authorization codes (default 60 s; RFC 6749 advises at most 10 minutes). */
  codeTtlSeconds?: number;
  /** Lifetime of access tokens (default 1 h). */
  tokenTtlSeconds?: number;
}

export interface AuthServerControl {
  /** Make an endpoint answer this HTTP status (with an error body) until cleared. */
  failures: Partial<Record<Endpoint, number>>;
  /** Make an endpoint wait this many milliseconds before answering (timeouts). */
  delays: Partial<Record<Endpoint, number>>;
  /** Userinfo without `id` (only `sub`), like a plain OpenID Connect server. */
  userinfoWithoutId: boolean;
  /** Every request served, in order (method and path, no query): lets tests prove a call was (not) made. */
  requests: { method: string; path: string }[];
  addUser(seed: AuthUserSeed): StoredUser;
  user(id: number): StoredUser | undefined;
  userByEmail(email: string): StoredUser | undefined;
  reset(): void;
}

export interface RunningAuthServer {
  url: string;
  stop(): Promise<void>;
  control: AuthServerControl;
}

const MAX_BODY_BYTES = 64 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.error));
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const isHtml = typeof body === 'string';
  res.writeHead(status, {
    'content-type': isHtml ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...(isHtml ? { 'content-security-policy': pageCsp() } : {}),
    ...headers,
  });
  res.end(isHtml ? body : JSON.stringify(body));
}

/**
 * The pages' CSP: no scripts, no loads. No `form-action`: the login form posts here and is answered
 * with a redirect to the API and from there to the frontend, and browsers (Chromium) apply
 * form-action to every redirect of a form submission, so `form-action 'self'` blocked the page's own
 * form. The forms' targets are fixed in the page, and every value in it is escaped.
 */
const pageCsp = () => "default-src 'none'; style-src 'unsafe-inline'";

function redirectTo(res: ServerResponse, location: string) {
  res.writeHead(302, { location, 'cache-control': 'no-store' });
  res.end();
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, { error: 'invalid_request', error_description: 'body too large' });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new HttpError(400, { error: 'invalid_request', error_description: 'body must be application/x-www-form-urlencoded' });
  }
  return new URLSearchParams(await readBody(req));
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  try {
    const value: unknown = JSON.parse(text || '{}');
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new HttpError(400, { error: 'invalid_request', error_description: 'body must be a JSON object' });
}

/** `Authorization: Basic base64(client_id:client_secret)` (RFC 6749 2.3.1). */
function basicCredentials(req: IncomingMessage): { id: string; secret: string } | undefined {
  const match = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
}

const withParams = (uri: string, params: Record<string, string>) => {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
};

const isString = (v: unknown): v is string => typeof v === 'string';
const optionalName = (v: unknown) => (v === null || (isString(v) && v.length <= 255) ? v : undefined);

/** Applies an admin create/update body to a user; only known fields, type-checked. */
function applyUserFields(user: StoredUser, body: Record<string, unknown>, clientId: string) {
  if (body.email !== undefined) {
    if (!isString(body.email) || !/^[^\s@]+@[^\s@]+$/.test(body.email)) {
      throw new HttpError(400, { error: 'invalid_request', error_description: 'email is not valid' });
    }
    user.email = body.email;
  }
  for (const field of ['firstName', 'lastName'] as const) {
    if (body[field] === undefined) continue;
    const value = optionalName(body[field]);
    if (value === undefined) throw new HttpError(400, { error: 'invalid_request', error_description: `${field} is not valid` });
    user[field] = value as string | null;
  }
  if (body.role !== undefined) {
    if (!isString(body.role) || body.role.length > 32) throw new HttpError(400, { error: 'invalid_request', error_description: 'role is not valid' });
    user.roles[clientId] = body.role;
  }
  if (body.extraData !== undefined) {
    // Stored as sent, without understanding it (spec: the API filters site-specific values).
    if (typeof body.extraData !== 'object' || body.extraData === null || Array.isArray(body.extraData)) {
      throw new HttpError(400, { error: 'invalid_request', error_description: 'extraData must be an object' });
    }
    user.extraData = structuredClone(body.extraData as Record<string, unknown>);
  }
  user.updatedAt = new Date().toISOString();
}

export async function startAuthServer(options: StartAuthServerOptions): Promise<RunningAuthServer> {
  const codeTtlMs = (options.codeTtlSeconds ?? 60) * 1000;
  const tokenTtlMs = (options.tokenTtlSeconds ?? 3600) * 1000;
  let state = new AuthState(options.clients, options.users ?? [], codeTtlMs, tokenTtlMs, options.firstUserId);

  const control: AuthServerControl = {
    failures: {},
    delays: {},
    userinfoWithoutId: false,
    requests: [],
    addUser: (seed) => state.addUser(seed),
    user: (id) => state.user(id),
    userByEmail: (email) => state.userByEmail(email),
    reset() {
      control.failures = {};
      control.delays = {};
      control.userinfoWithoutId = false;
      control.requests = [];
      state = new AuthState(options.clients, options.users ?? [], codeTtlMs, tokenTtlMs, options.firstUserId);
    },
  };

  /**
   * An injected delay ends early when the caller hangs up, and never holds the process open:
   * a test may ask for a delay far longer than the caller's own timeout, so that only the
   * caller's timeout can end the call.
   */
  const injectedFor = async (endpoint: Endpoint, res: ServerResponse) => {
    const delay = control.delays[endpoint];
    if (delay) {
      await new Promise<void>((resolve) => {
        setTimeout(resolve, delay).unref();
        res.once('close', () => resolve());
      });
    }
    const status = control.failures[endpoint];
    if (status !== undefined) throw new HttpError(status, { error: 'server_error', error_description: `injected failure of ${endpoint}` });
  };

  /** The authorization request, validated before anything may be redirected (RFC 6749 4.1.2.1). */
  function authorizeRequest(params: URLSearchParams) {
    const client = state.client(params.get('client_id'));
    if (!client) throw new HttpError(400, { error: 'invalid_client', error_description: 'unknown client_id' });
    const redirectUri = params.get('redirect_uri') ?? '';
    if (!state.allowsRedirect(client, redirectUri)) {
      throw new HttpError(400, { error: 'invalid_request', error_description: 'redirect_uri is not allowed for this client' });
    }
    return { client, redirectUri, stateParam: params.get('state') ?? '' };
  }

  function approve(res: ServerResponse, clientId: string, redirectUri: string, stateParam: string, userId: number) {
    const code = state.issueCode(clientId, redirectUri, userId);
    redirectTo(res, withParams(redirectUri, { code, ...(stateParam ? { state: stateParam } : {}) }));
  }

  function adminClient(req: IncomingMessage): AuthClient {
    const creds = basicCredentials(req);
    const client = creds && state.authenticate(creds.id, creds.secret);
    if (!client) throw new HttpError(401, { error: 'invalid_client' }, { 'www-authenticate': 'Basic realm="auth-server"' });
    return client;
  }

  function adminUser(id: string): StoredUser {
    const user = /^[1-9][0-9]{0,9}$/.test(id) ? state.user(Number(id)) : undefined;
    if (!user) throw new HttpError(404, { error: 'not_found', error_description: `user ${id} not found` });
    return user;
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://auth.local');
    const method = req.method ?? 'GET';
    const path = url.pathname.replace(/\/+$/, '') || '/';
    control.requests.push({ method, path });
    const injected = (endpoint: Endpoint) => injectedFor(endpoint, res);

    if (method === 'GET' && path === '/dialog/authorize') {
      await injected('authorize');
      const { client, redirectUri, stateParam } = authorizeRequest(url.searchParams);
      if (url.searchParams.get('response_type') !== 'code') {
        return redirectTo(res, withParams(redirectUri, { error: 'unsupported_response_type', ...(stateParam ? { state: stateParam } : {}) }));
      }
      const hint = url.searchParams.get('login_hint') ?? '';
      const hinted = hint ? state.userByEmail(hint) : undefined;
      if (hinted) return approve(res, client.clientId, redirectUri, stateParam, hinted.id);
      const page = authorizePage({ clientId: client.clientId, redirectUri, state: stateParam, loginHint: hint }, state.allUsers(), hint ? `No user with e-mail ${hint} yet` : undefined);
      return send(res, 200, page);
    }

    if (method === 'POST' && path === '/dialog/authorize/decision') {
      await injected('authorize');
      const form = await formBody(req);
      const { client, redirectUri, stateParam } = authorizeRequest(form);
      if (form.get('deny')) return redirectTo(res, withParams(redirectUri, { error: 'access_denied', ...(stateParam ? { state: stateParam } : {}) }));
      const userId = form.get('user_id');
      let user = userId ? state.user(Number(userId)) : undefined;
      const email = (form.get('email') ?? '').trim();
      if (!user && email) {
        if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) throw new HttpError(400, { error: 'invalid_request', error_description: 'email is not valid' });
        user =
          state.userByEmail(email) ??
          state.addUser({ email, firstName: form.get('firstName')?.slice(0, 255) || null, lastName: form.get('lastName')?.slice(0, 255) || null });
      }
      if (!user) throw new HttpError(400, { error: 'invalid_request', error_description: 'pick a user' });
      return approve(res, client.clientId, redirectUri, stateParam, user.id);
    }

    if (method === 'POST' && path === '/oauth/token') {
      await injected('token');
      const form = await formBody(req);
      const basic = basicCredentials(req);
      const clientId = basic?.id ?? form.get('client_id');
      const client = state.authenticate(clientId, basic?.secret ?? form.get('client_secret'));
      if (!client) throw new HttpError(401, { error: 'invalid_client' }, { 'www-authenticate': 'Basic realm="auth-server"' });
      if (form.get('grant_type') !== 'authorization_code') throw new HttpError(400, { error: 'unsupported_grant_type' });
      const code = form.get('code');
      if (!code) throw new HttpError(400, { error: 'invalid_request', error_description: 'code is required' });
      const userId = state.redeemCode(code, client.clientId, form.get('redirect_uri'));
      if (userId === undefined) throw new HttpError(400, { error: 'invalid_grant' });
      const { token, expiresIn } = state.issueAccessToken(client.clientId, userId);
      return send(res, 200, { access_token: token, token_type: 'Bearer', expires_in: expiresIn });
    }

    if (method === 'GET' && path === '/api/userinfo') {
      await injected('userinfo');
      const match = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
      const grant = match?.[1] ? state.accessToken(match[1]) : undefined;
      const user = grant && state.user(grant.userId);
      if (!grant || !user) throw new HttpError(401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
      const { id, createdAt: _c, updatedAt: _u, ...info } = userForClient(user, grant.clientId);
      return send(res, 200, control.userinfoWithoutId ? info : { id, ...info });
    }

    if (path === '/api/admin/user' && method === 'POST') {
      const client = adminClient(req);
      await injected('adminCreate');
      const body = await jsonBody(req);
      if (!isString(body.email)) throw new HttpError(400, { error: 'invalid_request', error_description: 'email is required' });
      if (state.userByEmail(body.email)) throw new HttpError(409, { error: 'conflict', error_description: 'a user with this e-mail exists' });
      const draft: StoredUser = { id: 0, email: '', firstName: null, lastName: null, role: undefined, roles: {}, extraData: {}, createdAt: '', updatedAt: '' };
      applyUserFields(draft, body, client.clientId);
      const { id: _id, createdAt: _c, updatedAt: _u, ...seed } = draft;
      const user = state.addUser(seed);
      return send(res, 201, userForClient(user, client.clientId));
    }

    const adminMatch = /^\/api\/admin\/user\/([^/]+)$/.exec(path);
    if (adminMatch) {
      const client = adminClient(req);
      const id = decodeURIComponent(adminMatch[1]!);
      if (method === 'GET') {
        await injected('adminGet');
        return send(res, 200, userForClient(adminUser(id), client.clientId));
      }
      if (method === 'PUT') {
        await injected('adminUpdate');
        const user = adminUser(id);
        const body = await jsonBody(req);
        if (isString(body.email)) {
          const other = state.userByEmail(body.email);
          if (other && other.id !== user.id) throw new HttpError(409, { error: 'conflict', error_description: 'a user with this e-mail exists' });
        }
        const draft = structuredClone(user);
        applyUserFields(draft, body, client.clientId);
        Object.assign(user, draft);
        return send(res, 200, userForClient(user, client.clientId));
      }
      if (method === 'DELETE') {
        await injected('adminDelete');
        const user = adminUser(id);
        state.deleteUser(user.id);
        return send(res, 200, { id: user.id, deleted: true });
      }
    }

    if (method === 'GET' && path === '/logout') {
      await injected('logout');
      const redirectUri = url.searchParams.get('redirect_uri');
      const clientId = url.searchParams.get('client_id');
      const client = clientId ? state.client(clientId) : undefined;
      if (redirectUri && (!clientId || client) && state.allowsRedirect(client, redirectUri)) return redirectTo(res, redirectUri);
      return send(res, 200, loggedOutPage());
    }

    throw new HttpError(404, { error: 'not_found' });
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (res.headersSent) return res.destroy();
      if (err instanceof HttpError) {
        const wantsHtml = req.url?.startsWith('/dialog/') ?? false;
        const message = String(err.body.error_description ?? err.body.error);
        return send(res, err.status, wantsHtml ? errorPage(message) : err.body, err.headers);
      }
      console.error('auth server error', err);
      send(res, 500, { error: 'server_error' });
    });
  });
  // Tests stop the server between files; do not let idle keep-alive sockets hold it open.
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`,
    control,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
