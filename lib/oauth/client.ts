/**
 * The one client for a site's auth server: the code exchange and userinfo of the login, and the admin
 * user API through which user changes reach the source of truth. Every call has a timeout, no call
 * follows redirects, and every failure becomes a 502 with a message that says which call failed and
 * how (never the secrets or tokens): callers change nothing locally before these calls succeed.
 *
 * Admin API (openstad-auth style, HTTP Basic with the site's client id and secret):
 *   GET|PUT|DELETE <auth-server-url>/api/admin/user/<id>, POST <auth-server-url>/api/admin/user
 */
import * as z from 'zod';
import { ApiError, badGateway, badRequest, conflict } from '#lib/http/errors';
import { logger } from '#lib/log/logger';
import type { AuthServerConfig } from '#lib/oauth/config';
import { authServerUser, tokenResponse, type AuthServerUser } from '#schemas/oauth';

/** Per call; a login makes two calls in a row and the Lambda timeout is 10 s. */
export const AUTH_SERVER_TIMEOUT_MS = 4_000;
const MAX_RESPONSE_CHARS = 1_000_000;

export type ExternalUserId = string | number;

interface Call {
  /** Names the call in messages: "the code exchange", "updating the user". */
  what: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  json: unknown;
}

/** An absolute URL on the auth server for a configured path; OpenStad's `[[clientId]]` placeholder is filled in. */
export function serverUrl(server: AuthServerConfig, path: string, params: Record<string, string> = {}): URL {
  const filled = path.replaceAll('[[clientId]]', encodeURIComponent(server.clientId));
  const url = new URL(server.url + (filled.startsWith('/') ? filled : `/${filled}`));
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url;
}

async function send(call: Call): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(call.url, {
      method: call.method,
      headers: { accept: 'application/json', ...call.headers },
      body: call.body,
      redirect: 'error',
      signal: AbortSignal.timeout(AUTH_SERVER_TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    logger.warn('auth server unreachable', { what: call.what, host: new URL(call.url).host, error: (err as Error).message });
    throw badGateway(`The auth server did not answer ${call.what}${timedOut ? ` within ${AUTH_SERVER_TIMEOUT_MS} ms` : ''}`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw badGateway(`The auth server's answer to ${call.what} could not be read`);
  }
  if (text.length > MAX_RESPONSE_CHARS) throw badGateway(`The auth server's answer to ${call.what} is too large`);
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, json };
}

const failed = (call: Call, answer: Answer): ApiError => {
  logger.warn('auth server error', { what: call.what, status: answer.status });
  return badGateway(`The auth server answered ${answer.status} to ${call.what}`);
};

function parse<T extends z.ZodType>(schema: T, call: Call, answer: Answer): z.infer<T> {
  const result = schema.safeParse(answer.json);
  if (!result.success) throw badGateway(`The auth server's answer to ${call.what} is not what OAuth expects`);
  return result.data;
}

const basicAuth = (server: AuthServerConfig) =>
  'Basic ' +
  Buffer.from(`${encodeURIComponent(server.clientId)}:${encodeURIComponent(server.clientSecret)}`).toString('base64');

const adminUrl = (server: AuthServerConfig, id?: ExternalUserId) =>
  `${server.url}/api/admin/user${id === undefined ? '' : `/${encodeURIComponent(String(id))}`}`;

/**
 * RFC 6749 4.1.3: form-encoded, client id and secret in the body. A code the server refuses
 * (`invalid_grant`: unknown, used or expired) is the caller's problem, so 400; anything else 502.
 */
export async function exchangeCode(server: AuthServerConfig, code: string, redirectUri: string): Promise<string> {
  const call: Call = {
    what: 'the code exchange',
    method: 'POST',
    url: serverUrl(server, server.exchangeCodePath).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: server.clientId,
      client_secret: server.clientSecret,
    }).toString(),
  };
  const answer = await send(call);
  if (answer.status === 400 && (answer.json as { error?: unknown } | undefined)?.error === 'invalid_grant') {
    throw badRequest('The login code is invalid, expired or already used; please log in again');
  }
  if (answer.status !== 200) throw failed(call, answer);
  return parse(tokenResponse, call, answer).access_token;
}

export async function fetchUserInfo(server: AuthServerConfig, accessToken: string): Promise<AuthServerUser> {
  const call: Call = {
    what: 'the userinfo request',
    method: 'GET',
    url: serverUrl(server, server.userPath).toString(),
    headers: { authorization: `Bearer ${accessToken}` },
  };
  const answer = await send(call);
  if (answer.status !== 200) throw failed(call, answer);
  return parse(authServerUser, call, answer);
}

export async function fetchUser(server: AuthServerConfig, id: ExternalUserId): Promise<AuthServerUser> {
  const call: Call = { what: 'reading the user', method: 'GET', url: adminUrl(server, id), headers: { authorization: basicAuth(server) } };
  const answer = await send(call);
  if (answer.status === 404) throw badGateway(`The user no longer exists on the auth server`);
  if (answer.status !== 200) throw failed(call, answer);
  return parse(authServerUser, call, answer);
}

/**
 * What the API writes to the auth server: top-level fields and the whole (all sites') extraData.
 * Never a `role`: roles are per site and belong to the API (CONTRACT "Decided details, security"), so
 * one site's grant can never reach another site through the shared auth-server user.
 */
export interface AuthUserChanges {
  email?: string;
  firstName?: string | null;
  lastName?: string | null;
  extraData?: Record<string, unknown>;
  role?: never;
}

const json = (server: AuthServerConfig) => ({ authorization: basicAuth(server), 'content-type': 'application/json' });

/** Creates the user on the auth server; an e-mail it already knows is a 409. */
export async function createUser(server: AuthServerConfig, fields: AuthUserChanges & { email: string }): Promise<AuthServerUser> {
  const call: Call = { what: 'creating the user', method: 'POST', url: adminUrl(server), headers: json(server), body: JSON.stringify(fields) };
  const answer = await send(call);
  if (answer.status === 409) throw conflict('A user with this e-mail already exists on the auth server; they can log in to join this site');
  if (answer.status !== 200 && answer.status !== 201) throw failed(call, answer);
  return parse(authServerUser, call, answer);
}

export async function updateUser(server: AuthServerConfig, id: ExternalUserId, changes: AuthUserChanges): Promise<AuthServerUser> {
  const call: Call = { what: 'updating the user', method: 'PUT', url: adminUrl(server, id), headers: json(server), body: JSON.stringify(changes) };
  const answer = await send(call);
  if (answer.status === 409) throw conflict('Another user on the auth server already has this e-mail');
  if (answer.status === 404) throw badGateway(`The user no longer exists on the auth server`);
  if (answer.status !== 200) throw failed(call, answer);
  return parse(authServerUser, call, answer);
}

/** Deletes the user on the auth server; one that is already gone counts as deleted (retries are safe). */
export async function deleteUser(server: AuthServerConfig, id: ExternalUserId): Promise<void> {
  const call: Call = { what: 'deleting the user', method: 'DELETE', url: adminUrl(server, id), headers: { authorization: basicAuth(server) } };
  const answer = await send(call);
  if (answer.status === 404 || (answer.status >= 200 && answer.status < 300)) return;
  throw failed(call, answer);
}

/** The auth server's id of a user: `id`, else `sub` (CONTRACT "Decided details"). */
export const externalIdOf = (user: AuthServerUser): ExternalUserId => user.id ?? user.sub!;
