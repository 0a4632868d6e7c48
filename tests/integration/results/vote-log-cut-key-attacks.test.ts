/**
 * The checkpoint's cut against items a writer plants in the entry range under made-up keys (docs/results.md
 * "The vote record", threat model): a key sorts by its bytes, but its text may parse to another time
 * (a UTC offset), so the cut is taken only from entries under canonical keys, and a checkpoint holds
 * every entry up to its cut. Each test is the attack, then what must come out.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { sitePk } from '#lib/store/db/keys';
import { readAllLogEntries, readAllLogEntriesChecked, readAllSignedCheckpoints, voteLogKeys } from '#lib/store/vote-log/log';
import { createUser } from '#tests/support/fixtures';
import { castVotes } from '#tests/support/vote-fixtures';
import { atWallClock } from '#tests/support/wall-clock';
import { addToTally, checkpointLater, itemName, minutesLater, putItem, votedSite } from '#tests/support/ballot-tampering';
import { verifyCommand } from '../../../scripts/verify-votes.ts';

const verifyAt = (siteId: number, minutes: number) => atWallClock(minutesLater(minutes), () => verifyCommand(siteId));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A voted site with one checkpoint, then two more voters (A, then B a few milliseconds later): their entries. */
async function twoNewVoters() {
  const { site, ideas } = await votedSite();
  await checkpointLater(site.id);
  const [a, b] = [await createUser(site.id), await createUser(site.id)];
  expect((await castVotes(site.id, a.token, [{ ideaId: ideas[0] }])).status).toBe(200);
  await pause(5);
  expect((await castVotes(site.id, b.token, [{ ideaId: ideas[1] }])).status).toBe(200);
  const entries = await readAllLogEntries(site.id);
  return { site, ideas, a: entries.find((e) => e.userId === a.id)!, b: entries.find((e) => e.userId === b.id)!, users: [a, b] };
}

/** A made-up item of the entry range under `SK` (no entry: the job and verify-votes report it by its key). */
async function plant(siteId: number, sk: string) {
  const key = { PK: sitePk(siteId), SK: sk };
  await putItem(key, { junk: true });
  return key;
}

/** Every checkpoint's cut goes forward, and the log holds each entry once. */
async function expectForwardLog(siteId: number) {
  const checkpoints = await readAllSignedCheckpoints(siteId);
  // Entries by receipt: an item under a made-up key is never one of them.
  const entries = [...new Map((await readAllLogEntriesChecked(siteId)).records.map((e) => [e.mac, e])).values()];
  for (let i = 1; i < checkpoints.length; i += 1) expect(checkpoints[i]!.cut > checkpoints[i - 1]!.cut, `checkpoint ${checkpoints[i]!.id}`).toBe(true);
  const latest = checkpoints.at(-1)!;
  expect(latest.treeSize).toBe(entries.length);
  expect(latest.ballots).toBe(new Set(entries.map((e) => e.userId)).size);
}

describe('the checkpoint cut against planted entry keys', () => {
  it('a key that sorts before an entry but parses after it does not carry the cut past that entry: its deletion is reported', async () => {
    const { site, ideas, b, users } = await twoNewVoters();
    const c = await createUser(site.id);
    expect((await atWallClock(minutesLater(5), () => castVotes(site.id, c.token, [{ ideaId: ideas[2] }]))).status).toBe(200);
    // Sorts just before B's key ('-' < 'Z'), parses to B + 2 minutes.
    const planted = await plant(site.id, `VLOG#E#${b.writtenAt.slice(0, -1)}-00:02#x`);

    const run = await checkpointLater(site.id, 10, { share: 1 });
    expect(run.sites[0]!.failed.join('\n')).toContain(itemName(planted));
    for (const cp of await readAllSignedCheckpoints(site.id)) expect(cp.cut < b.writtenAt || cp.treeSize >= 5, `checkpoint ${cp.id} cut past B without it`).toBe(true);
    await expectForwardLog(site.id);

    // The writer removes B's vote, its entry and the planted item; the tally follows.
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: voteLogKeys.entry(site.id, b.writtenAt, b.mac) }));
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: ballotKeys.ballot(site.id, users[1]!.id) }));
    await addToTally(site.id, ideas[1], -1);
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: planted }));
    const after = await verifyAt(site.id, 15);
    expect(after.code, after.output).toBe(1);
    expect(after.output).toMatch(/has no entry: a deleted entry/);
  });

  it('a key that parses hours before the last cut never moves the cut back nor sequences an entry twice', async () => {
    const { site, b } = await twoNewVoters();
    const planted = await plant(site.id, `VLOG#E#${b.writtenAt.slice(0, -1)}+05:00#x`);
    const first = await checkpointLater(site.id, 10, { share: 1 });
    expect(first.sites[0]!.failed.join('\n')).toContain(itemName(planted));
    await checkpointLater(site.id, 20, { share: 1 });
    await expectForwardLog(site.id);
    expect((await verifyAt(site.id, 25)).code).toBe(1);
    await doc.send(new DeleteCommand({ TableName: TABLE, Key: planted }));
    const clean = await verifyAt(site.id, 25);
    expect(clean.code, clean.output).toBe(0);
  });

  it('items without a time in their key at the share boundary: the next checkpoints still hold every entry up to their cut', async () => {
    const { site, a } = await twoNewVoters();
    // Both sort after A's key and before B's ('x', 'y' > 'Z'); neither holds a time.
    const planted = [await plant(site.id, `VLOG#E#${a.writtenAt.slice(0, -1)}x#j`), await plant(site.id, `VLOG#E#${a.writtenAt.slice(0, -1)}y#j`)];
    const run = await checkpointLater(site.id, 10, { share: 1 });
    for (const key of planted) expect(run.sites[0]!.failed.join('\n')).toContain(itemName(key));
    await expectForwardLog(site.id);
    for (const key of planted) await doc.send(new DeleteCommand({ TableName: TABLE, Key: key }));
    const clean = await verifyAt(site.id, 15);
    expect(clean.code, clean.output).toBe(0);
  });

  it('an entry copied under another key is no entry: reported, never sequenced twice', async () => {
    const { site, b } = await twoNewVoters();
    const { PK: _pk, SK: _sk, ...copy } = { ...voteLogKeys.entry(site.id, b.writtenAt, b.mac), ...b };
    const key = { PK: sitePk(site.id), SK: `VLOG#E#${b.writtenAt.slice(0, -1)}-00:02#${b.mac}` };
    await putItem(key, copy);
    const run = await checkpointLater(site.id, 10, { share: 1 });
    expect(run.sites[0]!.failed.join('\n')).toContain(`${itemName(key)} (its key is not its entry's time and receipt)`);
    await expectForwardLog(site.id);
  });
});
