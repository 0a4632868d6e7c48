/**
 * A results body as it is stored and served (docs/results.md "Results snapshots"): JSON, gzipped, with
 * a strong ETag (SHA-256 of the JSON), and cut into chunks of CHUNK_BYTES when it is larger than a head
 * item can hold, so a snapshot of any size fits DynamoDB's 400 KB item limit. Pure.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { etagOf } from '#lib/crypto/etag';

/** Gzipped bytes per stored chunk (and the most the head itself carries): well under 400 KB with the attribute names. */
export const CHUNK_BYTES = 300 * 1024;

interface PackedSnapshot {
  etag: string;
  /** The gzipped body cut into chunks; one chunk when it fits in the head. */
  chunks: Buffer[];
}

export function packSnapshot(body: unknown, chunkBytes: number = CHUNK_BYTES): PackedSnapshot {
  const json = JSON.stringify(body);
  const gz = gzipSync(Buffer.from(json, 'utf8'));
  const chunks: Buffer[] = [];
  for (let at = 0; at < gz.length || chunks.length === 0; at += chunkBytes) chunks.push(gz.subarray(at, at + chunkBytes));
  return { etag: etagOf(json), chunks };
}

export function unpackSnapshot(chunks: readonly Uint8Array[]): unknown {
  return JSON.parse(gunzipSync(Buffer.concat(chunks.map((c) => Buffer.from(c)))).toString('utf8'));
}
