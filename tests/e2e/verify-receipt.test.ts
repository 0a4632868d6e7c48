/**
 * End to end: a voter checks their receipt with `npm run verify-votes -- --receipt ... --checkpoint-url
 * ...` (a separate process that only speaks HTTP) against the local stack, after the vote-checkpoints
 * job (`npm run job`) signed the log; then again after the log grew (the consistency proof path); and a
 * tampered proof, an unknown receipt and a key that is not the site's are each refused. Only the first
 * check runs as its own process (each costs a tsx start); the others call the same code
 * (scripts/verify-receipt.ts) over the same HTTP.
 *
 * The job cuts the log a minute before the wall clock at the latest, so the votes are cast first and the
 * test waits out that minute once: the first checkpoint is then run with a clock just after the first
 * vote (a clock in the past: it cuts a minute before it, between the first vote and the others), the
 * second at the wall clock.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { issueToken } from '#lib/auth/jwt';
import { keyIdOf } from '#lib/vote-record/checkpoint';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import type { SiteBody } from '#tests/support/bodies';
import { LOCAL_TABLE_NAME } from '../../scripts/local-stack-env.ts';
import { verifyReceipt } from '../../scripts/verify-receipt.ts';

const apiUrl = inject('apiUrl');
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'verify-receipt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function call<T = unknown>(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${apiUrl}${path}`, { method, headers: { 'X-Authorization': `Bearer ${token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** An npm script in its own process: exit code and output, whatever the code. */
function npmRun(script: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', script, '--', ...args], { cwd: root, env: { ...process.env, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, TABLE_NAME: LOCAL_TABLE_NAME } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

/** The job's settle: it cuts the log this long before its clock (lib/jobs/sequence-log.ts). */
const SETTLE_MS = 60_000;

/** The vote-checkpoints job for one site, with the clock given (else the wall clock's). */
async function checkpoint(siteId: number, clock?: number) {
  const run = await npmRun('job', ['vote-checkpoints', '--site', String(siteId), ...(clock === undefined ? [] : ['--now', new Date(clock).toISOString()])]);
  expect(run.code, run.out).toBe(0);
}

async function voter(siteId: number, n: number, ideaId: number): Promise<string> {
  const user = await call<{ id: number }>('POST', `/api/site/${siteId}/user`, SERVICE_TOKEN, { email: `receipt-${n}-${siteId}@example.org`, role: 'member' });
  expect(user.status).toBe(201);
  const voted = await call<Array<{ receipt: string }>>('POST', `/api/site/${siteId}/vote`, await issueToken({ userId: user.body.id, siteId }), [{ ideaId, opinion: 'yes' }]);
  expect(voted.status).toBe(200);
  return voted.body[0]!.receipt;
}

describe('npm run verify-votes -- --receipt', () => {
  it("checks a voter's receipt against the published record, before and after the log grows; refuses what does not hold", async () => {
    const site = await call<SiteBody>('POST', '/api/site', SERVICE_TOKEN, { name: 'receipts', config: { votes: { isViewable: true, isActive: true, voteType: 'likes', requiredUserRole: 'member' } } });
    expect(site.status).toBe(201);
    const siteId = site.body.id;
    const idea = await call<{ id: number }>('POST', `/api/site/${siteId}/idea`, SERVICE_TOKEN, { title: 'A bench in the park', summary: 'Somewhere to sit in the shade', description: 'x'.repeat(150) });
    expect(idea.status).toBe(201);
    const checkpointUrl = `${apiUrl}/api/site/${siteId}/vote-record/checkpoint`;

    const receipt = await voter(siteId, 1, idea.body.id);
    const afterFirstVote = Date.now();
    // Before a checkpoint covers it: not verified (the proof is a 404).
    const early = await verifyReceipt({ receipt, checkpointUrl });
    expect(early.code, early.output).toBe(1);
    expect(early.output).toMatch(/answered 404/);
    await voter(siteId, 2, idea.body.id);
    await voter(siteId, 3, idea.body.id);
    // The settle minute past the last vote, for both checkpoints below.
    const lastVote = Date.now();
    while (Date.now() <= lastVote + SETTLE_MS) await new Promise((r) => setTimeout(r, 250));

    // The first checkpoint cut just after the first vote: it holds that one alone.
    await checkpoint(siteId, afterFirstVote + SETTLE_MS);
    const first = await npmRun('verify-votes', ['--receipt', receipt, '--checkpoint-url', checkpointUrl]);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toMatch(/^OK: the receipt is in the signed vote record/m);

    // A later checkpoint holds the other votes: the receipt's checkpoint is now a prefix of the latest.
    await checkpoint(siteId);
    const proofFile = join(dir, 'proof.json');
    const proof = await call<{ leafIndex: number; proof: string[]; checkpoint: { id: number; treeSize: number; root: string } }>('GET', `/api/site/${siteId}/vote-receipt/${receipt}`, SERVICE_TOKEN);
    expect(proof.status).toBe(200);
    writeFileSync(proofFile, JSON.stringify(proof.body));
    const later = await verifyReceipt({ receipt: proofFile, checkpointUrl });
    expect(later.code, later.output).toBe(0);
    // The receipt's checkpoint by its number: the stack's own job loop may have signed an empty one first.
    const { id, treeSize } = proof.body.checkpoint;
    expect(later.output).toContain(`extends checkpoint ${id} (consistency proof ${treeSize} -> 3)`);

    // Told when the vote was cast: its checkpoint is cut after that; a time after the cut is a backdated checkpoint.
    const votedAt = (at: number) => verifyReceipt({ receipt, checkpointUrl, votedAt: new Date(at).toISOString() });
    expect((await votedAt(afterFirstVote - 1_000)).code).toBe(0);
    const backdated = await votedAt(afterFirstVote + 5_000);
    expect(backdated.code, backdated.output).toBe(1);
    expect(backdated.output).toMatch(/FAIL .*a backdated checkpoint/);

    // A proof whose root was changed (as a server showing the voter another tree would): refused.
    const forged = { ...proof.body, checkpoint: { ...proof.body.checkpoint, root: 'ab'.repeat(32) } };
    const tampered = await verifyReceipt({ receipt: JSON.stringify(forged), checkpointUrl });
    expect(tampered.code, tampered.output).toBe(1);
    expect(tampered.output).toMatch(/FAIL .*not signed/);
    expect(tampered.output).toMatch(/FAIL .*not leaf 0/);

    // A receipt the log does not hold, and a key that is not the one that signed: refused.
    const unknown = await verifyReceipt({ receipt: 'cd'.repeat(32), checkpointUrl });
    expect(unknown.code, unknown.output).toBe(1);
    const { publicKey } = generateKeyPairSync('ed25519');
    const x = publicKey.export({ format: 'jwk' }).x!;
    const key = { keyId: keyIdOf(publicKey), algorithm: 'Ed25519', publicKey: Buffer.from(x, 'base64url').toString('base64'), jwk: { kty: 'OKP', crv: 'Ed25519', x } };
    const dataUrl = (value: unknown) => `data:application/json,${encodeURIComponent(JSON.stringify(value))}`;
    const keyCopiedAt = new Date().toISOString();
    const otherKey = await verifyReceipt({ receipt, checkpointUrl, keyUrl: dataUrl(key), keyCopiedAt });
    expect(otherKey.code, otherKey.output).toBe(1);
    expect(otherKey.output).toMatch(/FAIL .*not signed by a published key: it names key [0-9a-f]{16}, which is not a published key/);
    // A key listed under another key's id is not taken.
    const misnamed = await verifyReceipt({ receipt, checkpointUrl, keyUrl: dataUrl({ ...key, keyId: 'not-the-site-key' }), keyCopiedAt });
    expect(misnamed.output).toMatch(/FAIL .*listed as not-the-site-key has the id/);
    const published = (await (await fetch(`${apiUrl}/api/vote-record/key`)).json()) as { keys: unknown[] };
    const { keys: _list, ...single } = published;
    // A copy of the key kept from before the answer listed `keys` (the one key) still checks, dated by the voter.
    const kept = await verifyReceipt({ receipt, checkpointUrl, keyUrl: dataUrl(single), keyCopiedAt });
    expect(kept.code, kept.output).toBe(0);
    expect(kept.output).toMatch(/\(single-key copy\)/);
    const undated = await verifyReceipt({ receipt, checkpointUrl, keyUrl: dataUrl(single) });
    expect(undated.code, undated.output).toBe(1);
    expect(undated.output).toMatch(/FAIL .*single-key copy .*--key-copied-at/);
  });
});
