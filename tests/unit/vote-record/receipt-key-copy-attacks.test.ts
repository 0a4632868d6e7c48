/**
 * scripts/verify-receipt.ts given a copy of the one-key answer (from before key lists) of a key that has
 * been retired since, and leaked: the API (or whoever answers for it) serves a one-leaf world holding
 * only the voter's receipt, signed with that key and cut a minute ago. The copy vouches for its key only
 * up to when it was copied, a time the voter gives; nothing its host says can stretch that.
 */
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { keyIdOf, rawPublicKey, signCheckpoint } from '#lib/vote-record/checkpoint';
import { leafHash } from '#lib/vote-record/merkle';
import type { PublishedCheckpoint } from '#lib/vote-record/receipt-check';
import { verifyReceipt } from '../../../scripts/verify-receipt.ts';
import { parseVerifyArguments } from '../../../scripts/verify-votes.ts';

const SITE = 7;
const k0 = generateKeyPairSync('ed25519').privateKey;

const oneLeafCheckpoint = (receipt: string, cut: string, signer: KeyObject): PublishedCheckpoint => {
  const { siteId: _s, ...rest } = signCheckpoint({ siteId: SITE, id: 1, treeSize: 1, root: leafHash(Buffer.from(receipt, 'hex')).toString('hex'), cut, ballots: 1 }, signer);
  return rest;
};

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** An API serving the forged checkpoint and proof, and a host of the voter's copy of k0 (one key, no list). */
async function serve(receipt: string, checkpoint: PublishedCheckpoint, copyHeaders: Record<string, string> = {}, ownKeyIsCopy = false): Promise<string> {
  const copy = {
    keyId: keyIdOf(k0),
    algorithm: 'Ed25519',
    publicKey: rawPublicKey(k0).toString('base64'),
    jwk: { kty: 'OKP', crv: 'Ed25519', x: rawPublicKey(k0).toString('base64url'), kid: keyIdOf(k0) },
  };
  server = createServer((req, res) => {
    const isCopy = req.url === '/old-key-copy.json' || (ownKeyIsCopy && req.url === '/api/vote-record/key');
    const body = isCopy ? copy : req.url?.includes('vote-receipt') ? { receipt, checkpoint, leafIndex: 0, proof: [] } : checkpoint;
    res.writeHead(200, { 'content-type': 'application/json', ...(isCopy ? copyHeaders : {}) });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a single-key copy of k0, copied 2026-01-01 and retired since', () => {
  const now = new Date();
  const receipt = randomBytes(32).toString('hex');
  const forged = oneLeafCheckpoint(receipt, new Date(now.getTime() - 60_000).toISOString(), k0);
  const check = (api: string, keyCopiedAt?: string) =>
    verifyReceipt({ receipt, checkpointUrl: `${api}/api/site/${SITE}/vote-record/checkpoint`, keyUrl: `${api}/old-key-copy.json`, ...(keyCopiedAt ? { keyCopiedAt } : {}) }, now);

  it.each([
    ['served without Last-Modified (the time of the check is no time of the copy)', {}],
    ['served with a Last-Modified in the future', { 'last-modified': 'Fri, 01 Jan 2100 00:00:00 GMT' }],
    ['re-hosted: Last-Modified is the re-upload, not when it was copied', { 'last-modified': new Date(now.getTime() - 120_000).toUTCString() }],
  ])('does not vouch for k0 now: %s', async (_what, headers) => {
    const out = await check(await serve(receipt, forged, headers));
    expect(out.code, out.output).toBe(1);
    expect(out.output).toMatch(/FAIL .*single-key copy .*--key-copied-at/);
  });

  it('dated by the voter (--key-copied-at 2026-01-01), it vouches for k0 up to then and the publication delay, whatever its Last-Modified', async () => {
    const out = await check(await serve(receipt, forged, { 'last-modified': 'Fri, 01 Jan 2100 00:00:00 GMT' }), '2026-01-01T00:00:00.000Z');
    expect(out.code, out.output).toBe(1);
    expect(out.output).toMatch(/known here only from a single-key copy that vouches for it up to 2026-01-01T00:05:00\.000Z/);
    expect(out.output).toMatch(/\(single-key copy\)/);
    expect(out.output).not.toMatch(/\(current\)/);
  });

  it('a --key-copied-at after the check counts as the time of the check', async () => {
    const later = oneLeafCheckpoint(receipt, new Date(now.getTime() + 10 * 60_000).toISOString(), k0);
    const out = await check(await serve(receipt, later), '2100-01-01T00:00:00.000Z');
    expect(out.code, out.output).toBe(1);
  });

  it("the API's own key URL answering the one-key form is a copy taken at the check", async () => {
    const api = await serve(receipt, forged, { 'last-modified': 'Fri, 01 Jan 2100 00:00:00 GMT' }, true);
    const out = await verifyReceipt({ receipt, checkpointUrl: `${api}/api/site/${SITE}/vote-record/checkpoint` }, now);
    expect(out.output).toMatch(new RegExp(`${keyIdOf(k0)} \\(single-key copy\\)`));
  });
});

describe('where the check reads from', () => {
  const receipt = 'ab'.repeat(32);
  it.each([
    ['--checkpoint-url', ['--checkpoint-url', 'http://api.example.org/api/site/4/vote-record/checkpoint']],
    ['--key-url', ['--checkpoint-url', 'https://api.example.org/api/site/4/vote-record/checkpoint', '--key-url', 'http://city.example.org/key.json']],
  ])('refuses plain http to another machine: %s', (_what, args) => {
    expect(() => parseVerifyArguments(['--receipt', receipt, ...args])).toThrow(/is not https \(plain http only to localhost\)/);
  });

  it('takes https anywhere and http to localhost; --key-copied-at only with a --key-url and an ISO time', () => {
    expect(parseVerifyArguments(['--receipt', receipt, '--checkpoint-url', 'http://localhost:3000/api/site/4/vote-record/checkpoint'])).toMatchObject({ receipt });
    expect(parseVerifyArguments(['--receipt', receipt, '--checkpoint-url', 'https://api.example.org/api/site/4/vote-record/checkpoint', '--key-url', 'https://city.example.org/key.json', '--key-copied-at', '2026-01-01T00:00:00Z'])).toMatchObject({
      keyCopiedAt: '2026-01-01T00:00:00Z',
    });
    expect(() => parseVerifyArguments(['--receipt', receipt, '--checkpoint-url', 'https://api.example.org/api/site/4/vote-record/checkpoint', '--key-copied-at', '2026-01-01T00:00:00Z'])).toThrow(/--key-copied-at/);
    expect(() => parseVerifyArguments(['--receipt', receipt, '--checkpoint-url', 'https://api.example.org/api/site/4/vote-record/checkpoint', '--key-url', 'https://city.example.org/key.json', '--key-copied-at', 'last spring'])).toThrow(/--key-copied-at/);
  });

  it('refuses an http API in the check itself, not only on the command line', async () => {
    await expect(verifyReceipt({ receipt, checkpointUrl: 'http://api.example.org/api/site/4/vote-record/checkpoint' })).rejects.toThrow(/not https/);
  });
});
