/**
 * Service tokens (CMS, ops scripts); each acts as admin on every site. The secret store holds only
 * their SHA-256 hashes (lib/config/secret-values.ts `serviceTokens`): a presented token is hashed and
 * compared with every stored hash in constant time, so neither content nor length leaks through
 * timing, and a copy of the store yields no usable token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { secret } from '#lib/config/secrets';
import type { ServiceTokenHash } from '#lib/config/secret-values';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** The stored hashes as bytes, kept while the store's list is the same object (a refresh brings a new one). */
let known: { from: ServiceTokenHash[]; digests: Buffer[] } | undefined;

export function isServiceToken(token: string): boolean {
  const hashes = secret('serviceTokens');
  if (known?.from !== hashes) known = { from: hashes, digests: hashes.map((h) => Buffer.from(h.sha256, 'hex')) };
  const candidate = digest(token);
  let match = false;
  for (const stored of known.digests) match = timingSafeEqual(stored, candidate) || match;
  return match;
}
