/**
 * Site Basic Auth (spec "Authentication" 5): when `config.basicAuth.active`, every request under the
 * site needs `Authorization: Basic` with the configured user and password, service tokens included.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { SiteConfig } from '#lib/sites/config-defaults';
import { unauthorized } from '#lib/errors';

const same = (a: string, b: string) =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

type BasicAuthConfig = { active?: boolean; user?: string; password?: string } | undefined;

/** Whether the site is closed by Basic Auth: the one test of it (the request check, the site list). */
export const isBasicAuthActive = (config: Pick<SiteConfig, 'basicAuth'>): boolean =>
  Boolean((config.basicAuth as BasicAuthConfig)?.active);

export function assertBasicAuth(config: SiteConfig, authorization: string | undefined, siteName: string): void {
  if (!isBasicAuthActive(config)) return;
  const basic = config.basicAuth as BasicAuthConfig & object;
  const challenge = { 'WWW-Authenticate': `Basic realm="${siteName.replace(/["\\\r\n]/g, '')}", charset="UTF-8"` };
  const match = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!match?.[1]) throw unauthorized('Basic authentication required for this site', challenge);
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon >= 0 ? decoded.slice(0, colon) : decoded;
  const password = colon >= 0 ? decoded.slice(colon + 1) : '';
  const userOk = same(user, basic.user ?? '');
  const passwordOk = same(password, basic.password ?? '');
  if (!(userOk && passwordOk)) throw unauthorized('Basic authentication failed', challenge);
}
