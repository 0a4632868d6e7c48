/**
 * The one client for a site's auth server: the code exchange and userinfo of the login, and the admin
 * user API through which user changes reach the source of truth. Every call has a timeout and no call
 * follows redirects (a 3xx is a failure, so a redirect cannot lead a call somewhere else). Callers
 * change nothing locally before these calls succeed.
 *
 * No probing of internal networks (CONTRACT "Decided details, security"): before connecting, the
 * host's addresses are resolved (all of them) and the call is refused when any one is in a refused
 * range (lib/auth-server/address-policy.ts). The check runs inside the connection's own DNS lookup, so the
 * address checked is the address connected to (no DNS rebinding between check and connect). Every
 * failure (refused address, DNS failure, connection refused, timeout, bad status, unreadable answer)
 * is the SAME 502 for a given call, so the answer says nothing about what is listening where; the
 * reason goes to the log only.
 *
 * Admin API (openstad-auth style, HTTP Basic with the site's client id and secret):
 *   GET|PUT|DELETE <auth-server-url>/api/admin/user/<id>, POST <auth-server-url>/api/admin/user
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { env } from '#lib/config/env';
import { type ApiError, badGateway, badRequest, conflict } from '#lib/errors';
import { logger } from '#lib/log/logger';
import { addressProblem, authServerUrlProblem } from '#lib/auth-server/address-policy';
import type { AuthServerConfig } from '#lib/auth-server/config';
import { tokenResponse, type AuthServerUser } from '#schemas/oauth';
import { authServerUser } from '#lib/auth-server/user-answer';

/** Per call; a login makes two calls in a row and the Lambda timeout is 10 s. */
export const AUTH_SERVER_TIMEOUT_MS = 4_000;
const MAX_RESPONSE_BYTES = 1_000_000;

type ExternalUserId = string | number;

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

/** The one answer to every failure of a call (see the header): no detail about why. */
const unavailable = (call: Call): ApiError => badGateway(`The auth server could not complete ${call.what}; please try again later`);

/** Why a call failed, for the log only. */
class CallFailure extends Error {}

/** dns.lookup with every resolved address checked against the policy; the connection uses only these. */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const refused = addresses.find((a) => addressProblem(a.address, env().isLocalStage));
    if (refused || addresses.length === 0) {
      return callback(Object.assign(new CallFailure(`${hostname} resolves to a refused address`), { code: 'EADDRREFUSED' }), '', 0);
    }
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

// Own connection pools: every socket in them was opened through guardedLookup.
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

function exchange(call: Call, url: URL): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const https = url.protocol === 'https:';
    const req = (https ? httpsRequest : httpRequest)(url, {
      method: call.method,
      headers: { accept: 'application/json', ...call.headers, ...(call.body !== undefined ? { 'content-length': String(Buffer.byteLength(call.body)) } : {}) },
      agent: https ? agents.https : agents.http,
      lookup: guardedLookup,
    });
    const timer = setTimeout(() => req.destroy(new CallFailure(`no answer within ${AUTH_SERVER_TIMEOUT_MS} ms`)), AUTH_SERVER_TIMEOUT_MS);
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) req.destroy(new CallFailure('answer too large'));
        else chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('aborted', () => fail(new CallFailure('answer aborted')));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.end(call.body);
  });
}

async function send(call: Call): Promise<Answer> {
  const url = new URL(call.url);
  // A literal address never goes through the lookup; a config saved before the rule still meets it here.
  const refused = authServerUrlProblem(url.origin, env().isLocalStage);
  if (refused) {
    logger.warn('auth server refused', { what: call.what, host: url.host, reason: refused });
    throw unavailable(call);
  }
  let answer: { status: number; text: string };
  try {
    answer = await exchange(call, url);
  } catch (err) {
    logger.warn('auth server unreachable', { what: call.what, host: url.host, error: (err as Error).message });
    throw unavailable(call);
  }
  let json: unknown;
  try {
    json = answer.text ? JSON.parse(answer.text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: answer.status, json };
}

/** An absolute URL on the auth server for a configured path; OpenStad's `[[clientId]]` placeholder is filled in. */
export function serverUrl(server: AuthServerConfig, path: string, params: Record<string, string> = {}): URL {
  const filled = path.replaceAll('[[clientId]]', encodeURIComponent(server.clientId));
  const url = new URL(server.url + (filled.startsWith('/') ? filled : `/${filled}`));
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url;
}

const failed = (call: Call, answer: Answer): ApiError => {
  logger.warn('auth server error', { what: call.what, status: answer.status });
  return unavailable(call);
};

function parse<T extends z.core.$ZodType>(schema: T, call: Call, answer: Answer): z.infer<T> {
  const result = z.safeParse(schema, answer.json);
  if (!result.success) {
    logger.warn('auth server answer not understood', { what: call.what, status: answer.status });
    throw unavailable(call);
  }
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
