/**
 * The vote log's sequencer and its proofs (docs/results.md "The vote record"), on entries written as
 * the writes that make them would: checkpoints signed on schedule whatever voters do, the log order,
 * forged entries refused, one sequencer per site, a run that stopped halfway, receipts and their
 * inclusion proofs over HTTP, consistency proofs, the public key.
 */
import { describe, expect, it } from 'vitest';
import { sequenceSiteLog } from '#lib/jobs/sequence-log';
import { run as checkpointRun } from '#lib/jobs/vote-checkpoints';
import { getJobMarker, makeJobDueBy } from '#lib/store/jobs/jobs';
import { getResultsState } from '#lib/store/results/snapshots';
import { getLogHead, getReceiptIndex, readAllSignedCheckpoints, readLogTiles, takeLogLease, voteLogKeys, writeLogTiles, logEntryPut } from '#lib/store/vote-log/log';
import { ballotKeys } from '#lib/store/ballots/keys';
import { atWallClock } from '#tests/support/wall-clock';
import { publicKeyFromRaw, signedForm, type SignedCheckpoint } from '#lib/vote-record/checkpoint';
import { entryMac, GENESIS_MAC } from '#lib/vote-record/entry';
import { leafHash, verifyConsistency, verifyInclusion } from '#lib/vote-record/merkle';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { errorOf } from '#tests/support/bodies';
import { countRequests } from '#tests/support/request-counter';
import { toEntryItem, writeEntries } from '#tests/support/vote-log-fixtures';
import { doc, TABLE } from '#lib/store/db/client';
import { PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { handler as receiptHandler } from '../../../functions/results/vote-receipt.ts';
import { handler as keyHandler } from '../../../functions/results/vote-record-key.ts';
import { handler as checkpointHandler } from '../../../functions/results/vote-record-checkpoint.ts';
import { handler as consistencyHandler } from '../../../functions/results/vote-record-consistency.ts';
import { handler as updateSite } from '../../../functions/sites/update.ts';

const minutesAgo = (now: Date, minutes: number) => new Date(now.getTime() - minutes * 60_000);

interface ReceiptAnswer {
  receipt: string;
  checkpoint: Omit<SignedCheckpoint, 'siteId'>;
  leafIndex: number;
  proof: string[];
}

const receiptOf = (siteId: number, receipt: string) => invoke<ReceiptAnswer>(receiptHandler, { params: { siteId, receipt } });

async function publicKey() {
  const answer = await invoke<{ publicKey: string; keyId: string; algorithm: string; keys: { keyId: string; publicKey: string; status: string }[] }>(keyHandler, { path: '/api/vote-record/key' });
  expect(answer.status).toBe(200);
  expect(answer.body.algorithm).toBe('Ed25519');
  // The current key at the top (the shape before rotation), and in the list every checkpoint may name.
  expect(answer.body.keys).toEqual([expect.objectContaining({ keyId: answer.body.keyId, publicKey: answer.body.publicKey, status: 'current' })]);
  return publicKeyFromRaw(answer.body.publicKey);
}

describe('the sequencer', () => {
  it('signs a checkpoint over the entries written before its cut, in batch order, and leaves later ones for the next', async () => {
    const site = await createSite();
    // A minute ago, so that the next run below (now) is not ahead of the wall clock.
    const now = new Date(Date.now() - 60_000);
    const early = await writeEntries(site.id, [
      { userId: 1, ideaIds: [10], writtenAt: minutesAgo(now, 10) },
      { userId: 2, ideaIds: [11], writtenAt: minutesAgo(now, 9) },
      { userId: 1, ideaIds: [10, 11], writtenAt: minutesAgo(now, 8) },
    ]);
    // Within the settle minute: still committing, for all the sequencer knows.
    const late = await writeEntries(site.id, [{ userId: 3, ideaIds: [12], writtenAt: new Date(now.getTime() - 20_000) }]);
    const first = await sequenceSiteLog(site.id, now);
    expect(first).toMatchObject({ checkpointId: 1, appended: 3, treeSize: 3, forged: [], busy: false });
    const tiles = await readLogTiles(site.id, [{ level: 0, index: 0 }]);
    expect(tiles[0]!.data.toString('hex')).toBe(early.map((e) => e.mac).sort().join(''));

    const next = await sequenceSiteLog(site.id, new Date(now.getTime() + 60_000));
    expect(next).toMatchObject({ checkpointId: 2, appended: 1, treeSize: 4 });
    expect((await receiptOf(site.id, late[0]!.mac)).body.leafIndex).toBe(3);
  });

  it("a receipt's leaf index places it in its batch by receipt, never by when its round was cast", async () => {
    // On a site with public votes and their creation times, an index in time order would pick out the
    // round of a receipt a voter hands over (and so how they voted).
    const site = await createSite();
    const now = new Date();
    const written = await writeEntries(site.id, Array.from({ length: 8 }, (_, i) => ({ userId: i + 1, ideaIds: [10 + i], writtenAt: minutesAgo(now, 30 - i) })));
    expect(await sequenceSiteLog(site.id, now)).toMatchObject({ appended: 8, treeSize: 8 });
    const indexes = new Map<string, number>();
    for (const entry of written) indexes.set(entry.mac, (await receiptOf(site.id, entry.mac)).body.leafIndex);
    const byReceipt = [...indexes.keys()].sort();
    expect(byReceipt.map((receipt) => indexes.get(receipt))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('writes a checkpoint at every run, new entries or not, and refuses a forged entry', async () => {
    const site = await createSite({ votes: { isViewable: true } });
    // Two hours ago, so that the quiet run an hour later is still not ahead of the wall clock.
    const now = new Date(Date.now() - 2 * 3_600_000);
    await writeEntries(site.id, [{ userId: 1, ideaIds: [10], writtenAt: minutesAgo(now, 5) }]);
    // A version written by someone without the chain key: a mac of another key.
    const forged = { siteId: site.id, userId: 2, version: 1, prevMac: GENESIS_MAC, votes: [{ ideaId: 10, opinion: 'yes' }], writtenAt: minutesAgo(now, 4).toISOString() };
    const mac = entryMac(Buffer.alloc(32, 9), forged);
    await doc.send(new TransactWriteCommand({ TransactItems: [logEntryPut(toEntryItem({ ...forged, mac }))] }));
    const first = await sequenceSiteLog(site.id, now);
    expect(first.appended).toBe(1);
    expect(first.forged).toEqual([expect.stringContaining('user 2 version 1')]);
    const quiet = await sequenceSiteLog(site.id, new Date(now.getTime() + 3_600_000));
    expect(quiet).toMatchObject({ checkpointId: 2, appended: 0, treeSize: 1 });
    const latest = await invoke<SignedCheckpoint>(checkpointHandler, { params: { siteId: site.id } });
    expect(latest.body).toMatchObject({ id: 2, treeSize: 1, cut: new Date(now.getTime() + 3_600_000 - 60_000).toISOString() });
    // The answer names no `complete`: its signature holds in the form with the line (no ballot is left out).
    expect(signedForm({ ...latest.body, siteId: site.id }, await publicKey())).toBe('complete');
  });

  it('one sequencer per site: a run finding the lease held does nothing', async () => {
    const site = await createSite();
    await writeEntries(site.id, [{ userId: 1, ideaIds: [10], writtenAt: minutesAgo(new Date(), 5) }]);
    expect(await takeLogLease(site.id, 'another run', new Date(), new Date(Date.now() + 60_000))).toBeDefined();
    expect(await sequenceSiteLog(site.id, new Date())).toMatchObject({ busy: true, checkpointId: null });
    const [a, b] = await Promise.all([sequenceSiteLog(site.id, new Date(Date.now() + 120_000)), sequenceSiteLog(site.id, new Date(Date.now() + 120_000))]);
    expect([a.busy, b.busy]).toEqual([true, true]); // the lease above still runs
  });

  it('a run that wrote tiles but never published them: the next one starts from the published log', async () => {
    const site = await createSite();
    const now = new Date();
    await writeEntries(site.id, [1, 2, 3].map((userId) => ({ userId, ideaIds: [10], writtenAt: minutesAgo(now, 10 - userId) })));
    expect((await sequenceSiteLog(site.id, minutesAgo(now, 6.5))).treeSize).toBe(2);
    // A crashed run's unpublished receipt on the edge tile.
    const [edge] = await readLogTiles(site.id, [{ level: 0, index: 0 }]);
    await writeLogTiles(site.id, [{ ...edge!, data: Buffer.concat([edge!.data, Buffer.alloc(32, 7)]) }]);
    const next = await sequenceSiteLog(site.id, now);
    expect(next).toMatchObject({ appended: 1, treeSize: 3 });
    const [after] = await readLogTiles(site.id, [{ level: 0, index: 0 }]);
    expect(after!.data.length).toBe(3 * 32);
  });

  it('a burst past the batch limit is cut at the last entry taken before the first one left out, and the next run goes on', async () => {
    const site = await createSite();
    const now = new Date();
    const at = minutesAgo(now, 30);
    // Three entries at one instant, then two later: a limit of 4 takes the three and stops before the rest.
    await writeEntries(site.id, [
      { userId: 1, ideaIds: [1], writtenAt: at },
      { userId: 2, ideaIds: [1], writtenAt: at },
      { userId: 3, ideaIds: [1], writtenAt: at },
      { userId: 4, ideaIds: [1], writtenAt: minutesAgo(now, 20) },
      { userId: 5, ideaIds: [1], writtenAt: minutesAgo(now, 20) },
    ]);
    const first = await sequenceSiteLog(site.id, now, { maxEntries: 4 });
    expect(first).toMatchObject({ appended: 3, treeSize: 3 });
    expect((await getLogHead(site.id))!.cut).toBe(at.toISOString());
    expect(await sequenceSiteLog(site.id, now, { maxEntries: 4 })).toMatchObject({ appended: 2, treeSize: 5 });
  });

  it('more than the batch limit written in one millisecond: the checkpoint takes that whole millisecond, never an empty one for ever', async () => {
    const site = await createSite();
    const now = new Date();
    const at = minutesAgo(now, 30);
    await writeEntries(site.id, [1, 2, 3, 4].map((userId) => ({ userId, ideaIds: [1], writtenAt: at })));
    await writeEntries(site.id, [{ userId: 5, ideaIds: [1], writtenAt: minutesAgo(now, 20) }]);
    expect(await sequenceSiteLog(site.id, now, { maxEntries: 3 })).toMatchObject({ appended: 4, treeSize: 4 });
    expect((await getLogHead(site.id))!.cut).toBe(at.toISOString());
    expect(await sequenceSiteLog(site.id, now, { maxEntries: 3 })).toMatchObject({ appended: 1, treeSize: 5 });
  });

  it('a run told a clock ahead of the wall clock cuts a minute before the wall clock: a round cast meanwhile goes into the next checkpoint', async () => {
    const site = await createSite();
    await writeEntries(site.id, [{ userId: 1, ideaIds: [10], writtenAt: minutesAgo(new Date(), 5) }]);
    const first = await sequenceSiteLog(site.id, new Date(Date.now() + 3_600_000));
    expect(first).toMatchObject({ checkpointId: 1, appended: 1 });
    expect(Date.parse(first.cut)).toBeLessThanOrEqual(Date.now() - 60_000);
    // A round cast now: after that cut, before the one the clock given would have made.
    const [meanwhile] = await writeEntries(site.id, [{ userId: 2, ideaIds: [10], writtenAt: new Date() }]);
    const next = new Date(Date.now() + 61_000);
    expect(await atWallClock(next, () => sequenceSiteLog(site.id, next))).toMatchObject({ checkpointId: 2, appended: 1, treeSize: 2 });
    expect(await getReceiptIndex(site.id, meanwhile!.mac)).toMatchObject({ checkpointId: 2 });
  });

  it('until a checkpoint says the log holds every ballot, each looks on through one page of ballots from where the last stopped; after that, none', async () => {
    const site = await createSite();
    const ballot = (userId: number, sealed: boolean) => ({
      ...ballotKeys.ballot(site.id, userId),
      siteId: site.id,
      userId,
      version: 1,
      updatedAt: new Date().toISOString(),
      votes: {},
      ...(sealed ? { hash: 'ab'.repeat(32) } : {}),
    });
    // Ballot 3 is from before the log: no seal.
    for (const item of [ballot(1, true), ballot(2, true), ballot(3, false), ballot(4, true)]) await doc.send(new PutCommand({ TableName: TABLE, Item: item }));
    const base = Date.now() - 30 * 60_000;
    const run = (minute: number) => countRequests(() => sequenceSiteLog(site.id, new Date(base + minute * 60_000), { scanBallots: 2 }));
    expect((await run(1)).result).toMatchObject({ complete: false, unsealedFound: false });
    expect((await run(2)).result).toMatchObject({ complete: false, unsealedFound: true });
    expect((await run(3)).result).toMatchObject({ complete: false, unsealedFound: true });
    // `npm run migrate` seals it; the look goes on from it.
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: ballotKeys.ballot(site.id, 3), UpdateExpression: 'SET #h = :h', ExpressionAttributeNames: { '#h': 'hash' }, ExpressionAttributeValues: { ':h': 'cd'.repeat(32) } }));
    expect((await run(4)).result).toMatchObject({ complete: false, unsealedFound: false });
    const lastLook = await run(5);
    expect(lastLook.result).toMatchObject({ complete: true });
    const carried = await run(6);
    expect(carried.result).toMatchObject({ complete: true });
    // The look was one Query; once complete, the checkpoint reads no ballot.
    expect(lastLook.commands.QueryCommand! - carried.commands.QueryCommand!).toBe(1);
    expect(carried.queryItemsRead).toBe(0);
    const signed = await readAllSignedCheckpoints(site.id);
    expect(signed.map((cp) => cp.complete === true)).toEqual([false, false, false, false, true, true]);
  });

  it("an ended project's site rests once nothing new came in, not while its log still looks for ballots without a seal", async () => {
    const site = await createSite({ project: { endDate: '2020-01-01T00:00:00.000Z' } });
    for (const userId of [1, 2]) {
      await doc.send(new PutCommand({ TableName: TABLE, Item: { ...ballotKeys.ballot(site.id, userId), siteId: site.id, userId, version: 1, updatedAt: new Date().toISOString(), votes: {}, hash: 'ab'.repeat(32) } }));
    }
    // Hourly runs from now on (the marker is due from the site's creation; each cut is the wall clock's).
    const base = Date.now() + 1_000;
    const runAt = async (hour: number) => (await checkpointRun({ now: new Date(base + hour * 3_600_000), siteId: site.id, scanBallots: 1 })).sites[0]!;
    // One ballot per look: the first two checkpoints have more to look through, so the site stays due.
    expect((await runAt(0)).nextDueAt).not.toBeNull();
    expect((await runAt(1)).nextDueAt).not.toBeNull();
    const done = await runAt(2);
    expect(done.nextDueAt).toBeNull();
    expect((await getLogHead(site.id))!.complete).toBe(true);
  });

  it('new entries mark the results stale and make the results job due a debounce later', async () => {
    const site = await createSite();
    const now = new Date();
    await writeEntries(site.id, [{ userId: 1, ideaIds: [10], writtenAt: minutesAgo(now, 5) }]);
    await sequenceSiteLog(site.id, now);
    expect((await getResultsState(site.id))!.staleSince).toBe(minutesAgo(now, 5).toISOString());
    expect((await getJobMarker(site.id, 'results'))!.dueAt).toBe(new Date(now.getTime() + 120_000).toISOString());
  });
});

describe('receipts and proofs, over HTTP', () => {
  it('a receipt is 404 until a checkpoint covers it, then proves its inclusion against a signed checkpoint; proofs over 600 entries read a few tiles', async () => {
    const site = await createSite({ votes: { isViewable: true } });
    const now = new Date();
    const entries = await writeEntries(site.id, Array.from({ length: 600 }, (_, i) => ({ userId: i + 1, ideaIds: [1 + (i % 5)], writtenAt: new Date(now.getTime() - 3_600_000 + i * 1000) })));
    const probe = entries[517]!;
    expect((await receiptOf(site.id, probe.mac)).status).toBe(404);
    await sequenceSiteLog(site.id, new Date(now.getTime() - 3_600_000 + 400_000 + 60_000));
    await sequenceSiteLog(site.id, now);
    const key = await publicKey();
    for (const entry of [entries[0]!, entries[255]!, entries[256]!, probe, entries[599]!]) {
      const { result, commands } = await countRequests(() => receiptOf(site.id, entry.mac.toUpperCase()));
      expect(result.status).toBe(200);
      const { checkpoint, leafIndex, proof } = result.body;
      expect(commands).toEqual({ BatchGetItemCommand: 2, GetItemCommand: 1 }); // site and receipt; the checkpoint; the tiles
      expect(signedForm({ ...checkpoint, siteId: site.id }, key)).toBe('complete');
      expect(verifyInclusion(leafHash(Buffer.from(entry.mac, 'hex')), leafIndex, checkpoint.treeSize, proof.map((p) => Buffer.from(p, 'hex')), Buffer.from(checkpoint.root, 'hex'))).toBe(true);
      // The first checkpoint that covers it: 401 entries in the first, 600 in the second.
      expect(checkpoint.treeSize).toBe(leafIndex < 401 ? 401 : 600);
    }
    // A receipt of nothing, and one that is not a receipt.
    expect((await receiptOf(site.id, 'ab'.repeat(32))).status).toBe(404);
    expect((await receiptOf(site.id, 'not-hex')).status).toBe(400);
    // The same receipt on another site is nothing there.
    expect((await receiptOf((await createSite({ votes: { isViewable: true } })).id, probe.mac)).status).toBe(404);

    const proof = await invoke<{ proof: string[] }>(consistencyHandler, { params: { siteId: site.id }, query: { from: '401', to: '600' } });
    expect(proof.status).toBe(200);
    const first = (await receiptOf(site.id, entries[0]!.mac)).body.checkpoint;
    const second = (await receiptOf(site.id, probe.mac)).body.checkpoint;
    expect(verifyConsistency(401, 600, Buffer.from(first.root, 'hex'), Buffer.from(second.root, 'hex'), proof.body.proof.map((p) => Buffer.from(p, 'hex')))).toBe(true);
    expect((await invoke(consistencyHandler, { params: { siteId: site.id }, query: { from: '1', to: '601' } })).status).toBe(404);
    expect((await invoke(consistencyHandler, { params: { siteId: site.id }, query: { from: '0', to: '6' } })).status).toBe(400);
    expect(voteLogKeys.receipt(site.id, probe.mac).SK).toBe(`VLOG#R#${probe.mac}`);
  }, 300_000);
});

describe("a receipt's 404", () => {
  it('says how far the record goes and when the next checkpoint is due, so a voter can tell "not yet" from "left out"', async () => {
    const site = await createSite({ votes: { isViewable: true } });
    const now = new Date();
    const dueAt = new Date(now.getTime() + 40 * 60_000).toISOString();
    await makeJobDueBy(site.id, 'vote-checkpoints', dueAt);
    const [early] = await writeEntries(site.id, [{ userId: 1, ideaIds: [1], writtenAt: minutesAgo(now, 10) }]);

    const before = await countRequests(() => receiptOf(site.id, early!.mac));
    expect(before.result.status).toBe(404);
    expect(errorOf(before.result.body).message).toBe(`Receipt ${early!.mac} is not in a checkpoint of site ${site.id}: the site has no checkpoint yet; the next is due at ${dueAt}`);
    expect(before.result.headers['vote-record-cut']).toBeUndefined();
    expect(Number(before.result.headers['retry-after'])).toBeGreaterThanOrEqual(60);
    // Site and receipt; then the log's head and the job's marker, on this path only.
    expect(before.commands).toEqual({ BatchGetItemCommand: 1, GetItemCommand: 2 });

    await sequenceSiteLog(site.id, now);
    const { cut } = (await getLogHead(site.id))!;
    const [late] = await writeEntries(site.id, [{ userId: 2, ideaIds: [1], writtenAt: new Date(now.getTime() - 10_000) }]);
    const after = await receiptOf(site.id, late!.mac);
    expect(after.status).toBe(404);
    expect(after.headers['vote-record-cut']).toBe(cut);
    expect(errorOf(after.body).message).toContain(`the latest checkpoint covers the votes cast up to ${cut}`);
    expect(JSON.stringify(after.body)).not.toMatch(/treeSize|ballots/);
    expect((await receiptOf(site.id, early!.mac)).status).toBe(200);
  });

  it('on a site hiding its counts, only those who may see them learn the cut (a cut off the schedule tells how many entries wait)', async () => {
    const site = await createSite({ votes: { isViewable: false } });
    const now = new Date();
    const [entry] = await writeEntries(site.id, [{ userId: 1, ideaIds: [1], writtenAt: minutesAgo(now, 10) }]);
    await writeEntries(site.id, [{ userId: 2, ideaIds: [1], writtenAt: minutesAgo(now, 9) }]);
    await sequenceSiteLog(site.id, now, { maxEntries: 1 });
    const late = (await writeEntries(site.id, [{ userId: 3, ideaIds: [1], writtenAt: new Date(now.getTime() - 10_000) }]))[0]!;
    const anonymous = await receiptOf(site.id, late.mac);
    expect(anonymous.status).toBe(404);
    expect(errorOf(anonymous.body).message).toBe(`Receipt ${late.mac} is not in a checkpoint of site ${site.id} yet`);
    expect(anonymous.headers['vote-record-cut']).toBeUndefined();
    expect(anonymous.headers['retry-after']).toBeUndefined();
    const moderator = await invoke(receiptHandler, { params: { siteId: site.id, receipt: late.mac }, token: SERVICE_TOKEN });
    expect(moderator.status).toBe(404);
    expect(moderator.headers['vote-record-cut']).toBe((await getLogHead(site.id))!.cut);
    expect((await receiptOf(site.id, entry!.mac)).status).toBe(200);
  });
});

describe('while the vote counts are hidden', () => {
  it("the checkpoint's voter count and the log's size are the moderators': the latest checkpoint and consistency proofs 401/403, a receipt's checkpoint without `ballots`; all public once the project ends", async () => {
    const config = { votes: { isViewable: false }, project: { endDate: '2099-01-01T00:00:00.000Z' } };
    const site = await createSite(config);
    const now = new Date();
    const entries = await writeEntries(site.id, Array.from({ length: 3 }, (_, i) => ({ userId: i + 1, ideaIds: [1], writtenAt: minutesAgo(now, 10 - i) })));
    await sequenceSiteLog(site.id, now);
    const [member, moderator] = [await createUser(site.id, 'member'), await createUser(site.id, 'moderator')];
    const latest = (token?: string) => invoke<{ ballots: number; treeSize: number }>(checkpointHandler, { params: { siteId: site.id }, ...(token ? { token } : {}) });
    const proof = (token?: string) => invoke(consistencyHandler, { params: { siteId: site.id }, query: { from: '1', to: '3' }, ...(token ? { token } : {}) });
    expect((await latest()).status).toBe(401);
    expect((await latest(member.token)).status).toBe(403);
    expect((await proof()).status).toBe(401);
    expect((await proof(member.token)).status).toBe(403);
    expect((await latest(moderator.token)).body).toMatchObject({ ballots: 3, treeSize: 3 });
    expect((await proof(moderator.token)).status).toBe(200);

    // The receipt is anyone's proof: its leaf and root, but not how many ballots the checkpoint counts.
    const anonymous = await receiptOf(site.id, entries[1]!.mac);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.checkpoint).not.toHaveProperty('ballots');
    expect(anonymous.body.checkpoint).toMatchObject({ id: 1, treeSize: 3 });
    const asModerator = await invoke<ReceiptAnswer>(receiptHandler, { params: { siteId: site.id, receipt: entries[1]!.mac }, token: moderator.token });
    expect(asModerator.body.checkpoint).toMatchObject({ ballots: 3 });

    // Once the project has ended, the record is everyone's (as the results are).
    const ended = await invoke(updateSite, { method: 'PUT', params: { siteId: site.id }, token: SERVICE_TOKEN, body: { config: { ...config, project: { ...config.project, projectHasEnded: true } } } });
    expect(ended.status).toBe(200);
    expect((await latest()).body).toMatchObject({ ballots: 3, treeSize: 3 });
    expect((await proof()).status).toBe(200);
    expect((await receiptOf(site.id, entries[1]!.mac)).body.checkpoint).toMatchObject({ ballots: 3 });
  });
});
