/**
 * Entity tags (RFC 9110 8.8.3, 13.1.2), one declaration for every answer that carries one: the public
 * reads (lib/http/caching.ts) and the results snapshots (lib/results/snapshot.ts). A strong tag is the
 * SHA-256 of the exact bytes sent, so two answers share a tag only when they are the same answer.
 */
import { hash } from 'node:crypto';

/** A strong ETag of a body as sent (the JSON text, or the base64 text of an encoded body); one-shot, no Hash object. */
export const etagOf = (body: string): string => `"${hash('sha256', body, 'base64url')}"`;

/** Whether an `If-None-Match` header names this ETag (a list, weak forms and `*` included: the weak comparison). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const wanted = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === wanted;
  });
}
