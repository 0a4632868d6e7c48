/**
 * Service tokens (CMS, ops scripts) from `API_SERVICE_TOKENS`; each acts as admin on every site.
 * Compared in constant time over SHA-256 digests, so neither content nor length leaks through timing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { env } from '#lib/config/env';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

let digests: Buffer[] | undefined;

export function isServiceToken(token: string): boolean {
  digests ??= env().serviceTokens.map(digest);
  const candidate = digest(token);
  let match = false;
  for (const known of digests) match = timingSafeEqual(known, candidate) || match;
  return match;
}
