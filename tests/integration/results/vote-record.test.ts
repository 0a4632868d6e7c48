/**
 * The vote record end to end, through the real handlers and the real job: every write that changes a
 * ballot appends a sealed entry in its own transaction and the voter gets its receipt; the
 * vote-checkpoints job signs the log; verify-votes agrees with an untouched site and exits 1, naming
 * it, for each tampering a writer with database access (but without the keys) can try: a forged new
 * version, an edited old version, a deleted version, a reordered log, an edited tally, a ballot
 * rewritten in place, a replaced checkpoint, a results snapshot with other counts, a ballot added
 * without entries once a checkpoint says the log holds every ballot (and `npm run migrate` refuses to
 * seal it), a checkpoint that drops that line.
 */
import { randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { runJob } from '#lib/jobs/index';
import { migrate } from '#lib/migrate/run';
import { importBallot } from '#lib/votes/import-ballot';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { readAllLogEntries, readAllSignedCheckpoints, voteLogKeys } from '#lib/store/vote-log/log';
import { sealEntry, type SealedEntry } from '#lib/vote-record/entry';
import { entryItemOf, sealedOf } from '#lib/vote-record/entry-item';
import { verifySiteVotes } from '#lib/results/verify';
import { computeSiteResults } from '#lib/results/compute';
import { findSite } from '#lib/sites/site';
import { createUser } from '#tests/support/fixtures';
import { atWallClock } from '#tests/support/wall-clock';
import { addToTally, forgeBallot, forgeResultsSnapshot, unsealAsBeforeTheLog } from '#tests/support/ballot-tampering';
import { invoke } from '#tests/support/invoke';
import { allBallots, castVotes, createIdeas, deleteIdea, expectTalliesMatchBallots, votingSite } from '#tests/support/vote-fixtures';
import { parseVerifyCommand, verifyCommand } from '../../../scripts/verify-votes.ts';
import { handler as listHandler } from '../../../functions/results/checkpoints.ts';
import { handler as anonymizeHandler } from '../../../functions/users/do-anonymize.ts';
import type { ListEnvelope } from '#tests/support/bodies';
import type { CheckpointRecord } from '#schemas/results';

/** The job's clock ahead: a checkpoint covers entries written up to a minute before its run (one minute ahead: up to now). */
const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);
/** The checkpoint job run `minutes` from now, the wall clock with it. */
const runCheckpointsAt = (siteId: number, at: Date) => atWallClock(at, () => runJob('vote-checkpoints', { now: at, siteId }));
const checkpoint = (siteId: number, minutes = 1) => runCheckpointsAt(siteId, later(minutes));
const listCheckpoints = (siteId: number, token?: string) =>
  invoke<ListEnvelope<CheckpointRecord>>(listHandler, { method: 'GET', path: '/api/site/{siteId}/vote-checkpoint', params: { siteId }, ...(token ? { token } : {}) });

async function votedSite() {
  const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 10 });
  const ideas = await createIdeas(site.id, 3);
  const users = await Promise.all([createUser(site.id), createUser(site.id), createUser(site.id)]);
  const receipts: string[] = [];
  for (const [i, user] of users.entries()) {
    const res = await castVotes(site.id, user.token, ideas.slice(0, i + 1).map((ideaId) => ({ ideaId })));
    expect(res.status).toBe(200);
    receipts.push(res.body[0]!.receipt!);
  }
  return { site, ideas, users, receipts };
}

const entriesOf = async (siteId: number, userId: number) => (await readAllLogEntries(siteId)).filter((e) => e.userId === userId).sort((a, b) => a.version - b.version);
const putEntry = (entry: SealedEntry) => doc.send(new PutCommand({ TableName: TABLE, Item: { ...voteLogKeys.entry(entry.siteId, entry.writtenAt, entry.mac), ...entryItemOf(entry) } }));

async function expectCaught(siteId: number, pattern: RegExp) {
  const { code, output } = await verifyCommand(siteId);
  expect(code, output).toBe(1);
  expect(output).toMatch(pattern);
}

describe('writes on a clock of their own', () => {
  it("an entry written with a job's clock minutes behind, after a checkpoint was cut past that clock, still goes into the next checkpoint", async () => {
    // A job's clock is its schedule time; its writes commit minutes later (retries, a long run). The
    // entry is stamped as it is sealed, so no checkpoint cut meanwhile can leave it behind for good.
    const site = await votingSite({ voteType: 'likes', isViewable: true });
    const [ideaId] = await createIdeas(site.id, 1);
    const [a, b] = [await createUser(site.id, 'member'), await createUser(site.id, 'member')];
    const jobClock = new Date(Date.now() - 10 * 60_000);
    const vote = [{ ideaId: ideaId!, opinion: 'yes', createdAt: jobClock.toISOString() }];
    expect((await importBallot(site.id, a.id, vote, jobClock)).kind).toBe('written');
    await runJob('vote-checkpoints', { now: new Date(), siteId: site.id });
    expect((await importBallot(site.id, b.id, vote, jobClock)).kind).toBe('written');
    // A run a minute on: its cut (a minute before its clock) passes both writes.
    await runCheckpointsAt(site.id, new Date(Date.now() + 61_000));
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // that cut is no longer in the future
    const { code, output } = await verifyCommand(site.id);
    expect(code, output).toBe(0);
    expect((await readAllSignedCheckpoints(site.id)).at(-1)!.treeSize).toBe(2);
  });
});

describe('entries and receipts', () => {
  it('each round appends a sealed entry in its transaction; every record of the answer carries its receipt', async () => {
    const { site, ideas, users, receipts } = await votedSite();
    const res = await castVotes(site.id, users[2]!.token, [{ ideaId: ideas[0] }, { ideaId: ideas[1] }]);
    expect(new Set(res.body.map((r) => r.receipt)).size).toBe(1);
    const [v1, v2] = await entriesOf(site.id, users[2]!.id);
    expect(v1!.mac).toBe(receipts[2]);
    expect(v2).toMatchObject({ version: 2, prevMac: v1!.mac, mac: res.body[0]!.receipt });
    expect(v2!.votes).toEqual([[ideas[0], 'yes'], [ideas[1], 'yes']]);
    const ballot = (await allBallots(site.id)).find((b) => b.userId === users[2]!.id)!;
    expect(ballot).toMatchObject({ version: 2, hash: v2!.mac, prevHash: v1!.mac });
    // The receipt says nothing of the ballot: a keyed mac, not a hash of its votes anyone could recompute.
    expect(res.body[0]!.receipt).toMatch(/^[0-9a-f]{64}$/);
  });

  it('deleting a voted idea and anonymizing a voter append entries that continue each chain', async () => {
    const { site, ideas, users } = await votedSite();
    await deleteIdea(site.id, ideas[0]);
    const anonymized = await invoke(anonymizeHandler, { method: 'PUT', path: '/api/site/{siteId}/user/{userId}/do-anonymize', params: { siteId: site.id, userId: users[1]!.id }, token: users[1]!.token });
    expect(anonymized.status).toBe(200);
    const chain = await entriesOf(site.id, users[1]!.id);
    expect(chain.map((e) => e.version)).toEqual([1, 2, 3]);
    expect(chain.at(-1)!.votes).toEqual([]);
    await checkpoint(site.id);
    expect((await verifySiteVotes(site.id)).problems).toEqual([]);
  });

  it('the list of signed checkpoints is for moderators and above: member 403, nobody 401', async () => {
    const site = await votingSite({ voteType: 'count', isViewable: true });
    const member = await createUser(site.id);
    expect((await listCheckpoints(site.id)).status).toBe(401);
    expect((await listCheckpoints(site.id, member.token)).status).toBe(403);
  });
});

describe('verify-votes against a writer with database access but not the keys', () => {
  it('an untouched site agrees (exit 0), also with a round since its checkpoint', async () => {
    const { site, ideas, users } = await votedSite();
    await checkpoint(site.id);
    expect((await castVotes(site.id, users[1]!.token, [{ ideaId: ideas[2] }])).status).toBe(200);
    const report = await verifySiteVotes(site.id);
    expect(report.problems).toEqual([]);
    expect(report.checkpoint).toMatch(/checkpoint 1 holds 3 entries of 3 ballot\(s\)/);
    expect(report.checkpoint).toMatch(/1 entry written since the latest checkpoint/);
    await expectTalliesMatchBallots(site.id);
    const { code, output } = await verifyCommand(site.id);
    expect(code, output).toBe(0);
  });

  it('a forged new version (prevMac = the old mac, tallies moved along, dated in the future): its mac fails, and the sequencer leaves it out', async () => {
    const { site, ideas, users } = await votedSite();
    const victim = users[0]!.id;
    const [v1] = await entriesOf(site.id, victim);
    const future = later(30).toISOString();
    // Without the chain key, the forger seals with a key of their own.
    const forged = sealEntry(randomBytes(32), { siteId: site.id, userId: victim, version: 2, prevMac: v1!.mac, votes: [{ ideaId: ideas[2], opinion: 'yes' }], writtenAt: future });
    await putEntry(forged);
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: ballotKeys.ballot(site.id, victim),
        UpdateExpression: 'SET #v = :votes, version = :two, #h = :mac, prevHash = :prev, updatedAt = :future',
        ExpressionAttributeNames: { '#v': 'votes', '#h': 'hash' },
        ExpressionAttributeValues: { ':votes': { [String(ideas[2])]: { id: 1, opinion: 'yes', createdAt: future } }, ':two': 2, ':mac': forged.mac, ':prev': v1!.mac, ':future': future },
      }),
    );
    await addToTally(site.id, ideas[0], -1);
    await addToTally(site.id, ideas[2], 1);
    await expectCaught(site.id, /user \d+, version 2 is not sealed by the chain key: a forged or edited entry/);
    await expectCaught(site.id, /version 2 is dated in the future/);
    const run = await runCheckpointsAt(site.id, later(40));
    expect(run.sites[0]!.failed.join()).toMatch(/not sealed by the chain key, left out of the log/);
    const [signed] = await readAllSignedCheckpoints(site.id);
    expect(signed!.treeSize).toBe(3);
  });

  it('an edited old version (its votes changed in the table): its mac fails', async () => {
    const { site, ideas, users } = await votedSite();
    await checkpoint(site.id);
    const [v1] = await entriesOf(site.id, users[2]!.id);
    await doc.send(
      new UpdateCommand({ TableName: TABLE, Key: voteLogKeys.entry(site.id, v1!.writtenAt, v1!.mac), UpdateExpression: 'SET #v = :votes', ExpressionAttributeNames: { '#v': 'votes' }, ExpressionAttributeValues: { ':votes': [[ideas[0], 'no']] } }),
    );
    await expectCaught(site.id, /version 1 is not sealed by the chain key/);
  });

  it('a deleted version (an old entry removed): the leaf has no entry and the next version follows nothing', async () => {
    const { site, ideas, users } = await votedSite();
    expect((await castVotes(site.id, users[0]!.token, [{ ideaId: ideas[1] }])).status).toBe(200);
    await checkpoint(site.id);
    const [v1] = await entriesOf(site.id, users[0]!.id);
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: voteLogKeys.entry(site.id, v1!.writtenAt, v1!.mac) }));
    await expectCaught(site.id, /has no entry: a deleted entry/);
    await expectCaught(site.id, /the ballot of user \d+ has no version 1: a deleted version/);
  });

  it('a reordered log (two receipts swapped in the tiles): out of order, and the leaves no longer give the signed root', async () => {
    const { site } = await votedSite();
    await checkpoint(site.id);
    const tile = (await doc.send(new GetCommand({ TableName: TABLE, Key: voteLogKeys.tile(site.id, 0, 0) }))).Item!;
    const data = Buffer.from(tile.data as Uint8Array);
    const swapped = Buffer.concat([data.subarray(32, 64), data.subarray(0, 32), data.subarray(64)]);
    await doc.send(new PutCommand({ TableName: TABLE, Item: { ...tile, data: swapped } }));
    await expectCaught(site.id, /out of order \(a reordered log\)/);
    await expectCaught(site.id, /checkpoint 1: the log's first 3 leaves give root .*, it signed/);
  });

  it('an edited tally: exit 1 naming the idea', async () => {
    const { site, ideas } = await votedSite();
    await addToTally(site.id, ideas[1], 1);
    await expectCaught(site.id, new RegExp(`tally of idea ${ideas[1]} 'yes': stored 3, ballots hold 2`));
  });

  it('a ballot rewritten in place (tallies moved along, the log untouched): it is not its entry', async () => {
    const { site, ideas, users } = await votedSite();
    const victim = users[0]!.id;
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: ballotKeys.ballot(site.id, victim),
        UpdateExpression: 'REMOVE #v.#a SET #v.#b = :vote',
        ExpressionAttributeNames: { '#v': 'votes', '#a': String(ideas[0]), '#b': String(ideas[2]) },
        ExpressionAttributeValues: { ':vote': { id: 1, opinion: 'yes', createdAt: new Date().toISOString() } },
      }),
    );
    await addToTally(site.id, ideas[0], -1);
    await addToTally(site.id, ideas[2], 1);
    await expectCaught(site.id, new RegExp(`the ballot of user ${victim} \\(version 1\\) holds other votes than its log entry: edited in place`));
  });

  it('a replaced checkpoint (another root, its signature copied or made up): the signature fails', async () => {
    const { site } = await votedSite();
    await checkpoint(site.id);
    const [cp] = await readAllSignedCheckpoints(site.id);
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: voteLogKeys.checkpoint(site.id, cp!.id), UpdateExpression: 'SET #r = :root', ExpressionAttributeNames: { '#r': 'root' }, ExpressionAttributeValues: { ':root': 'ab'.repeat(32) } }));
    await expectCaught(site.id, /checkpoint 1: the signature does not verify \(a replaced or edited checkpoint\)/);
  });

  it('a checkpoint dropped and the log rewritten after it: the gap and the entries it no longer holds', async () => {
    const { site, users, ideas } = await votedSite();
    await checkpoint(site.id);
    expect((await castVotes(site.id, users[0]!.token, [{ ideaId: ideas[2] }])).status).toBe(200);
    await checkpoint(site.id, 10);
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: voteLogKeys.checkpoint(site.id, 1) }));
    await expectCaught(site.id, /checkpoint 1 is missing \(the next one is 2\): a deleted checkpoint/);
    // The entry is sealed and chained, so only the log's own record of it was the target: all checks still pass for it.
    expect(sealedOf((await entriesOf(site.id, users[0]!.id))[1]!).version).toBe(2);
  });

  it('a results snapshot with other counts (head and body rewritten in the table): exit 1 naming the idea; a stale one is a note', async () => {
    const { site, ideas, users } = await votedSite();
    await checkpoint(site.id);
    expect(await computeSiteResults((await findSite(site.id))!, { deadline: new Date(Date.now() + 60_000) })).toBe('done');
    expect((await verifySiteVotes(site.id)).problems).toEqual([]);
    expect((await verifySiteVotes(site.id)).checkpoint).toMatch(/results snapshot of .* (matches the log|is within what the log allows)/);

    // A round after the snapshot: an honest but stale snapshot is no problem.
    expect((await castVotes(site.id, users[0]!.token, [{ ideaId: ideas[2] }])).status).toBe(200);
    const stale = await verifySiteVotes(site.id);
    expect(stale.problems).toEqual([]);
    expect(stale.checkpoint).toMatch(/the results snapshot is stale: 1 entry written since it was computed/);

    const body = await forgeResultsSnapshot(site.id, ideas[2], 40);
    await expectCaught(site.id, new RegExp(`results snapshot of .* differs from the log: idea ${ideas[2]} 'yes' is ${body.ideas.find((i) => i.id === ideas[2])!.yes + 40}`));
  });

  it('the newest checkpoint and its leaves rewound: only a checkpoint kept outside the table (--pin) shows the rollback', async () => {
    const { site, users, ideas } = await votedSite();
    await checkpoint(site.id);
    expect((await castVotes(site.id, users[0]!.token, [{ ideaId: ideas[2] }])).status).toBe(200);
    await checkpoint(site.id);
    const kept = (await readAllSignedCheckpoints(site.id)).find((cp) => cp.id === 2)!;
    expect(kept.treeSize).toBe(4);
    const pin = JSON.stringify(kept);
    const before = await verifyCommand(site.id, pin);
    expect(before.code, before.output).toBe(0);

    // Back to checkpoint 1: checkpoint 2 deleted, the leaf tile cut to its first 3 receipts.
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: voteLogKeys.checkpoint(site.id, 2) }));
    const tile = (await doc.send(new GetCommand({ TableName: TABLE, Key: voteLogKeys.tile(site.id, 0, 0) }))).Item!;
    await doc.send(new PutCommand({ TableName: TABLE, Item: { ...tile, data: Buffer.from(tile.data as Uint8Array).subarray(0, 3 * 32) } }));
    expect((await verifyCommand(site.id)).output).not.toMatch(/rolled back/);
    const { code, output } = await verifyCommand(site.id, pin);
    expect(code, output).toBe(1);
    expect(output).toMatch(/the pinned checkpoint covers 4 entries, the log now holds 3: the log was rolled back/);
  });

  it('reads its command line', () => {
    expect(parseVerifyCommand(['--site', '12'])).toEqual({ siteId: 12 });
    expect(parseVerifyCommand(['--site', '12', '--pin', 'cp.json'])).toEqual({ siteId: 12, pin: 'cp.json' });
    expect(() => parseVerifyCommand([])).toThrow(/usage/);
    expect(() => parseVerifyCommand(['--site', '0'])).toThrow(/usage/);
    expect(() => parseVerifyCommand(['--site', 'x'])).toThrow(/usage/);
  });
});

describe('a ballot written behind a log that holds every ballot', () => {
  const latestSigned = async (siteId: number) => (await readAllSignedCheckpoints(siteId)).at(-1)!;

  it('a forged ballot with votes and no entry (tallies moved along): exit 1 naming it, the snapshot is checked, and migrate refuses to seal it', async () => {
    const { site, ideas } = await votedSite();
    await checkpoint(site.id);
    const forger = await forgeBallot(site.id, ideas[1]);
    await expectTalliesMatchBallots(site.id);
    await expectCaught(site.id, new RegExp(`the ballot of user ${forger} \\(version 1\\) has no log entry: written behind the log \\(checkpoint 1 says the log holds every ballot\\)`));
    // The results snapshot, computed from the table, counts the forged ballot: the log does not.
    expect(await computeSiteResults((await findSite(site.id))!, { deadline: new Date(Date.now() + 60_000) })).toBe('done');
    await expectCaught(site.id, /results snapshot of .* differs from the log/);

    const [report] = await migrate({ siteId: site.id, dryRun: false });
    expect(report).toMatchObject({ ballots: 0, refused: [expect.stringMatching(new RegExp(`user ${forger} .*not sealed: checkpoint 1 says the vote log holds every ballot.*npm run verify-votes -- --site ${site.id}`))] });
    expect((await allBallots(site.id)).find((b) => b.userId === forger)!.hash).toBeUndefined();
    expect(await entriesOf(site.id, forger)).toEqual([]);
    await expectCaught(site.id, /has no log entry: written behind the log/);
    expect(await latestSigned(site.id)).toMatchObject({ id: 1, complete: true });
  });

  it('a ballot from before the log, on a site no checkpoint called complete: a note; migrate seals it, and the next checkpoint says complete', async () => {
    const { site, users } = await votedSite();
    await unsealAsBeforeTheLog(site.id, users[1]!.id);
    const first = await checkpoint(site.id);
    expect(first.sites[0]!.done.join()).toMatch(/ballots without a seal remain: run verify-votes first .*, then npm run migrate seals those from before the vote log/);
    expect((await latestSigned(site.id)).complete).toBeUndefined();
    const before = await verifyCommand(site.id);
    expect(before.code, before.output).toBe(0);
    expect(before.output).toMatch(/1 ballot\(s\) from before the vote log \(npm run migrate seals them\)/);

    const [report] = await migrate({ siteId: site.id, dryRun: false });
    expect(report).toMatchObject({ ballots: 1, refused: [] });
    await checkpoint(site.id);
    expect(await latestSigned(site.id)).toMatchObject({ id: 2, complete: true });
    const after = await verifyCommand(site.id);
    expect(after.code, after.output).toBe(0);
    expect(after.output).toMatch(/the log holds every ballot of the site since checkpoint 2/);
    expect(after.output).not.toMatch(/from before the vote log/);
  });

  it('the complete line cannot be dropped: not from a signed record, nor by a later checkpoint signed over a rewritten log head', async () => {
    const { site, ideas } = await votedSite();
    await checkpoint(site.id);
    const key = voteLogKeys.checkpoint(site.id, 1);
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: key, UpdateExpression: 'REMOVE complete' }));
    await expectCaught(site.id, /checkpoint 1: its record drops the `complete` line it was signed with/);
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: key, UpdateExpression: 'SET complete = :t', ExpressionAttributeValues: { ':t': true } }));
    expect((await verifyCommand(site.id)).code).toBe(0);

    // The head rewritten to "not complete", and a forged ballot for the job's look to find: the job signs without the line.
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: voteLogKeys.head(site.id), UpdateExpression: 'SET complete = :f', ExpressionAttributeValues: { ':f': false } }));
    const forger = await forgeBallot(site.id, ideas[2]);
    await checkpoint(site.id);
    expect((await latestSigned(site.id)).complete).toBeUndefined();
    await expectCaught(site.id, /checkpoint 2 no longer says the log holds every ballot, as checkpoint 1 did/);
    await expectCaught(site.id, new RegExp(`user ${forger} \\(version 1\\) has no log entry: written behind the log \\(checkpoint 1`));
    const [report] = await migrate({ siteId: site.id, dryRun: false });
    expect(report!.refused).toHaveLength(1);
  });

  it('every checkpoint deleted and the log head reset: only a checkpoint kept outside (--pin) still says complete, and the forged ballot is caught', async () => {
    const { site, ideas } = await votedSite();
    await checkpoint(site.id);
    // As the public answer has it: no `complete` field; the signature says which form it is.
    const { complete: _complete, siteId: _site, createdAt: _created, ...published } = await latestSigned(site.id);
    const pin = JSON.stringify(published);
    for (const key of [voteLogKeys.checkpoint(site.id, 1), voteLogKeys.head(site.id), voteLogKeys.tile(site.id, 0, 0)]) await doc.send(new DeleteCommand({ TableName: TABLE, Key: key }));
    const forger = await forgeBallot(site.id, ideas[0]);

    const alone = await verifyCommand(site.id);
    expect(alone.code, alone.output).toBe(0);
    const { code, output } = await verifyCommand(site.id, pin);
    expect(code, output).toBe(1);
    expect(output).toMatch(/the log was rolled back/);
    expect(output).toMatch(new RegExp(`user ${forger} \\(version 1\\) has no log entry: written behind the log \\(checkpoint 1`));
  });
});
