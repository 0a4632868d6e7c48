/**
 * A results snapshot as stored: gzipped JSON cut into chunks no larger than the limit (so any size fits
 * DynamoDB's item limit), always at least one chunk, read back whole from its chunks in order, with the
 * strong ETag of its JSON.
 */
import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { etagOf } from '#lib/crypto/etag';
import { CHUNK_BYTES, packSnapshot, unpackSnapshot } from '#lib/results/snapshot';

describe('a packed results snapshot', () => {
  it('fits one chunk when small, and reads back equal', () => {
    const body = { ideas: [{ id: 1, title: 'Bänke', votes: 3 }], complete: true };
    const packed = packSnapshot(body);
    expect(packed.chunks).toHaveLength(1);
    expect(JSON.parse(gunzipSync(packed.chunks[0]!).toString('utf8'))).toEqual(body);
    expect(unpackSnapshot(packed.chunks)).toEqual(body);
  });

  it('is cut into chunks of at most the limit, all full but the last, that read back only in order', () => {
    const body = { noise: randomBytes(5000).toString('base64') };
    const packed = packSnapshot(body, 1000);
    expect(packed.chunks.length).toBeGreaterThan(4);
    const total = packed.chunks.reduce((sum, c) => sum + c.length, 0);
    expect(packed.chunks.length).toBe(Math.ceil(total / 1000));
    for (const chunk of packed.chunks.slice(0, -1)) expect(chunk.length).toBe(1000);
    expect(packed.chunks.at(-1)!.length).toBeGreaterThan(0);
    expect(unpackSnapshot(packed.chunks)).toEqual(body);
    expect(() => unpackSnapshot([...packed.chunks].reverse())).toThrow();
  });

  it('is exactly one full chunk when the gzipped body is exactly the limit', () => {
    const gzLength = packSnapshot({ a: 'b' }, CHUNK_BYTES).chunks[0]!.length;
    const packed = packSnapshot({ a: 'b' }, gzLength);
    expect(packed.chunks.map((c) => c.length)).toEqual([gzLength]);
  });

  it('is cut into chunks of 300 KiB unless told otherwise', () => {
    // Random base64 hardly compresses: about 400 KB gzipped, two chunks.
    const body = { noise: randomBytes(400_000).toString('base64') };
    const packed = packSnapshot(body);
    expect(CHUNK_BYTES).toBe(300 * 1024);
    expect(packed.chunks.map((c) => c.length)).toEqual([300 * 1024, gzipSync(JSON.stringify(body)).length - 300 * 1024]);
    expect(unpackSnapshot(packed.chunks)).toEqual(body);
  });

  it('carries the ETag of its JSON: equal bodies share it, a changed body does not', () => {
    const body = { ideas: [1, 2, 3] };
    expect(packSnapshot(body).etag).toBe(etagOf(JSON.stringify(body)));
    expect(packSnapshot({ ideas: [1, 2, 3] }).etag).toBe(packSnapshot(body).etag);
    expect(packSnapshot({ ideas: [1, 2, 4] }).etag).not.toBe(packSnapshot(body).etag);
  });

  it('reads chunks stored as plain byte arrays (as DynamoDB returns them)', () => {
    const body = { n: 42 };
    const stored = packSnapshot(body, 10).chunks.map((c) => new Uint8Array(c));
    expect(unpackSnapshot(stored)).toEqual(body);
  });
});
