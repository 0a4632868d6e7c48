/**
 * The vote record's tools against a writer with table access who puts items that do not match their
 * schema where the tools read (docs/results.md "The vote record", verification): every such item is
 * a reported problem naming its key (verify-votes exits 1, migrate refuses it, the checkpoint job
 * reports it and leaves it out), never an exception, and the audit goes on with the other items.
 * Each test is the attack, then what must come out.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { migrate, refusedBallots } from '#lib/migrate/run';
import { computeSiteResults } from '#lib/results/compute';
import { findSite } from '#lib/sites/site';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { ideaKeys } from '#lib/store/ideas/keys';
import { readAllSignedCheckpoints, voteLogKeys } from '#lib/store/vote-log/log';
import { atWallClock } from '#tests/support/wall-clock';
import {
  checkpointLater,
  forgeBallot,
  itemName,
  minutesLater,
  overwriteAttributes,
  putItem,
  putMalformedBallot,
  replaceResultsSnapshotBody,
  unsealAsBeforeTheLog,
  votedSite,
} from '#tests/support/ballot-tampering';
import { verifyCommand } from '../../../scripts/verify-votes.ts';

const verifyLater = (siteId: number) => atWallClock(minutesLater(5), () => verifyCommand(siteId));
/** User ids no test user reaches, for items a writer makes up. */
const madeUpUser = (n: number) => 990_000 + n;
const count = (lines: readonly string[], text: string) => lines.filter((line) => line.includes(text)).length;

describe('malformed items in the ballot range', () => {
  it('verify-votes reports each by its key and goes on with the audit (a forged ballot beside them is still reported)', async () => {
    const { site, ideas } = await votedSite();
    await checkpointLater(site.id);
    const at = new Date().toISOString();
    const noUser = await putMalformedBallot(site.id, madeUpUser(1), { userId: undefined });
    const votesOfWrongType = await putMalformedBallot(site.id, madeUpUser(2), { votes: 'yes' });
    const textBudget = await putMalformedBallot(site.id, madeUpUser(3), { votes: { [String(ideas[0])]: { id: 5, opinion: 'yes', createdAt: at, budget: 'ten' } } });
    const forger = await forgeBallot(site.id, ideas[1]);

    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(1);
    for (const key of [noUser, votesOfWrongType, textBudget]) expect(output).toContain(`a malformed item in the ballot range: ${key} (`);
    expect(output).toContain(`the ballot of user ${forger} (version 1) has no log entry: written behind the log`);
    expect(output).not.toMatch(/\n\s+at /);
  });

  it('migrate refuses to seal one, naming it, and seals the genuine ballots from before the log', async () => {
    const { site, users } = await votedSite();
    await unsealAsBeforeTheLog(site.id, users[1]!.id);
    const malformed = await putMalformedBallot(site.id, madeUpUser(4), { version: 'one' });

    const reports = await migrate({ siteId: site.id, dryRun: false });
    expect(reports[0]!.ballots).toBe(1);
    expect(reports[0]!.refused).toEqual([expect.stringContaining(`a malformed item in the ballot range: ${malformed} (version`)]);
    expect(refusedBallots(reports)).toBe(1);
  });

  it('the checkpoint job reports each misplaced or malformed item once per run, however often it looks, and they do not keep the site out of complete', async () => {
    const { site, users } = await votedSite();
    // A ballot from before the log holds the look at its key, so each checkpoint of the run reads the items after it again.
    await unsealAsBeforeTheLog(site.id, users[0]!.id);
    const decoy = `${ballotKeys.ballot(site.id, users[2]!.id).SK}x`;
    await putItem({ PK: ballotKeys.ballot(site.id, users[2]!.id).PK, SK: decoy }, { siteId: site.id, userId: 123_456, version: 1, updatedAt: new Date().toISOString(), votes: {} });
    const malformed = await putMalformedBallot(site.id, madeUpUser(5), { votes: ['yes'] });

    // One entry per checkpoint: the run signs one checkpoint per entry left.
    const run = await checkpointLater(site.id, 1, { share: 1 });
    const { done, failed } = run.sites[0]!;
    expect(done.length).toBeGreaterThan(1);
    expect(count(failed, `item ${decoy} in the ballot range`)).toBe(1);
    expect(count(failed, `a malformed item in the ballot range: ${malformed} (`)).toBe(1);
    expect(failed).toHaveLength(2);

    // migrate seals the genuine one; the misplaced and the malformed item hold nothing back.
    await migrate({ siteId: site.id, dryRun: false });
    await checkpointLater(site.id, 2);
    expect((await readAllSignedCheckpoints(site.id)).at(-1)).toMatchObject({ complete: true });
  });
});

describe('malformed items in the vote log', () => {
  it('a made-up item in the entry range is left out of the log and reported once by the job; verify-votes reports it and nothing else', async () => {
    const { site } = await votedSite();
    const key = voteLogKeys.entry(site.id, new Date(Date.now() - 1_000).toISOString(), 'ee'.repeat(32));
    await putItem(key, { siteId: site.id, userId: madeUpUser(6), version: 'one', votes: 'all', writtenAt: 5 });

    const first = await checkpointLater(site.id);
    expect(first.sites[0]!.failed).toEqual([expect.stringContaining(`a malformed item in the vote log's entries, left out of the log: ${itemName(key)} (`)]);
    expect((await readAllSignedCheckpoints(site.id)).at(-1)).toMatchObject({ treeSize: 3, ballots: 3, complete: true });
    const second = await checkpointLater(site.id, 2);
    expect(second.sites[0]!.failed).toEqual([]);

    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain('1 problem(s):');
    expect(output).toContain(`a malformed item in the vote log's entries: ${itemName(key)} (`);
  });

  it('a checkpoint made unreadable is reported by verify-votes, and migrate refuses to seal past it', async () => {
    const { site, users } = await votedSite();
    await checkpointLater(site.id);
    await unsealAsBeforeTheLog(site.id, users[0]!.id);
    const key = voteLogKeys.checkpoint(site.id, 1);
    await overwriteAttributes(key, { root: 'not a root', treeSize: 'three' });

    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain(`a malformed item in the vote log's checkpoints: ${itemName(key)} (`);

    const [report] = await migrate({ siteId: site.id, dryRun: false });
    expect(report!.ballots).toBe(0);
    expect(report!.refused).toEqual([expect.stringContaining(`the checkpoint item(s) ${itemName(key)} of the site are malformed`)]);
  });

  it('a log head or an edge tile made unreadable: the job reports it for the site, signs nothing, frees its lease; verify-votes reports the tile', async () => {
    const { site } = await votedSite();
    await checkpointLater(site.id);
    const tile = voteLogKeys.tile(site.id, 0, 0);
    await overwriteAttributes(tile, { data: 'not bytes' });

    const tileRun = await checkpointLater(site.id, 2);
    expect(tileRun.sites[0]!.failed).toEqual([expect.stringMatching(/^no checkpoint: .*VLOG#T#0#0000000000.* run verify-votes/)]);
    expect(tileRun.sites[0]!.nextDueAt).not.toBeNull();
    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain(`a malformed item in the vote log's tiles: ${itemName(tile)} (`);

    const head = voteLogKeys.head(site.id);
    await overwriteAttributes(head, { frontier: 'none' });
    const headRun = await checkpointLater(site.id, 3);
    expect(headRun.sites[0]!.failed).toEqual([expect.stringContaining(`no checkpoint: Stored vote log head ${itemName(head)} is malformed`)]);
    const stored = (await doc.send(new GetCommand({ TableName: TABLE, Key: head, ConsistentRead: true }))).Item!;
    expect(stored['leaseOwner']).toBeUndefined();
    expect((await readAllSignedCheckpoints(site.id)).map((cp) => cp.id)).toEqual([1]);
  });

  it('a tally item with a counter that is no number is reported by verify-votes, with what the ballots hold', async () => {
    const { site, ideas } = await votedSite();
    await checkpointLater(site.id);
    const tally = ideaKeys.ideaTally(site.id, ideas[0]);
    await overwriteAttributes(tally, { v_yes: 'many' });

    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain(`a malformed item among the tallies: ${itemName(tally)} (v_yes a counter must be a number)`);
    expect(output).toContain(`tally of idea ${ideas[0]} 'yes': stored 0, ballots hold 3`);
  });

  it('a results snapshot whose body lacks its counts is reported by verify-votes', async () => {
    const { site } = await votedSite();
    await checkpointLater(site.id);
    expect(await computeSiteResults((await findSite(site.id))!, { deadline: minutesLater(1) })).toBe('done');
    await replaceResultsSnapshotBody(site.id, { computedAt: new Date().toISOString(), ballots: 3, ideas: 'none' });

    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain('the results snapshot cannot be read: its body lacks');
  });
});
