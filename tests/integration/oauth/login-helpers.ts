/**
 * Shared by the login and user tests: a real auth server (scripts/auth-server) on a free port, sites
 * pointing at it, and the whole browser login done the way a browser would, except that the API's
 * handlers run in-process (`invoke`) while every auth-server call goes over real HTTP.
 */
import { expect } from 'vitest';
import { invoke, type InvokeResult } from '#tests/support/invoke';
import { createSite } from '#tests/support/fixtures';
import { startAuthServer, type AuthClient, type AuthUserSeed, type RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { demoOauthConfig } from '../../../scripts/auth-server/demo.ts';
import { handler as loginHandler } from '../../../functions/oauth/login.ts';
import { handler as digestHandler } from '../../../functions/oauth/digest-login.ts';
import { handler as meHandler } from '../../../functions/oauth/me.ts';
import type { SiteConfigInput } from '#schemas/site-config';
import type { UserRecord } from '#schemas/user';

export const API_HOST = 'api.example.test';
export const FRONTEND = 'https://frontend.example.org';

export const CLIENT: AuthClient = {
  clientId: 'site-client',
  clientSecret: 'site-client-secret-0123456789',
  allowedHosts: [API_HOST, 'frontend.example.org'],
};
export const OTHER_CLIENT: AuthClient = { clientId: 'other-client', clientSecret: 'other-secret-0123456789', allowedHosts: [API_HOST] };

let standIns = 0;

/**
 * A stand-in on a free port whose user ids no other stand-in of this run uses (1,000 per stand-in, by
 * process and order; at most 10 digits, as the stand-in's admin API takes): a later file's stand-in
 * may get a freed port, and the API knows a person by URL + user id.
 */
export async function startTestAuthServer(users: AuthUserSeed[] = []): Promise<RunningAuthServer> {
  standIns += 1;
  return startAuthServer({ port: 0, clients: [CLIENT, OTHER_CLIENT], users, firstUserId: (process.pid % 10_000) * 100_000 + standIns * 1_000 });
}

export const oauthConfig = (url: string, client: AuthClient = CLIENT) => demoOauthConfig(url, client);

/** A site that logs in through `auth`, with the frontend host allowed. */
export async function createLoginSite(auth: RunningAuthServer, config: SiteConfigInput = {}) {
  return createSite({ allowedDomains: ['frontend.example.org'], oauth: { default: oauthConfig(auth.url) }, ...config });
}

/** The `name=value` pairs a browser would send back for these `Set-Cookie` values (path and flags aside). */
export const cookieJar = (setCookies: readonly string[]): string[] =>
  setCookies.map((c) => c.split(';')[0]!).filter((pair) => !pair.endsWith('='));

interface LoginResult {
  start: InvokeResult;
  /** The auth server's redirect back to the API (code and state in its query). */
  callback: URL;
  /** The login cookie the browser holds (`name=value`), sent with the callback. */
  cookies: string[];
  done: InvokeResult;
  jwt: string | undefined;
}

/** The whole login of an auth-server user (by e-mail, auto-approved with `login_hint`). */
export async function login(
  siteId: number,
  email: string,
  options: { redirectUrl?: string; useOauth?: string } = {},
): Promise<LoginResult> {
  const query: Record<string, string> = { redirectUrl: options.redirectUrl ?? `${FRONTEND}/after-login?tab=2` };
  if (options.useOauth) query.useOauth = options.useOauth;
  const start = await invoke(loginHandler, { params: { siteId }, query, headers: { host: API_HOST } });
  expect(start.status, JSON.stringify(start.body)).toBe(302);
  const authorize = new URL(start.headers.location!);
  authorize.searchParams.set('login_hint', email);
  const answer = await fetch(authorize, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const callback = new URL(answer.headers.get('location')!);
  const cookies = cookieJar(start.cookies);
  const done = await invoke(digestHandler, { params: { siteId }, query: Object.fromEntries(callback.searchParams), cookies });
  const jwt = done.status === 302 ? (new URL(done.headers.location!).searchParams.get('jwt') ?? undefined) : undefined;
  return { start, callback, cookies, done, jwt };
}

/** Logs in and returns the token and the site user's id. */
export async function loginUser(siteId: number, email: string): Promise<{ token: string; id: number }> {
  const result = await login(siteId, email);
  expect(result.done.status, JSON.stringify(result.done.body)).toBe(302);
  const me = await invoke<UserRecord>(meHandler, { params: { siteId }, token: result.jwt! });
  expect(me.status).toBe(200);
  return { token: result.jwt!, id: me.body.id };
}
