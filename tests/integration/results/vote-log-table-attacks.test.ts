/**
 * The vote log against a writer with full table access and neither the chain key nor the signing key
 * (docs/results.md "The vote record", threat model): no forged vote may count while verify-votes
 * exits 0, nor may `npm run migrate` seal one. Each test is the attack, then what must come out.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { migrate } from '#lib/migrate/run';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { sitePk } from '#lib/store/db/keys';
import { readSiteTallies } from '#lib/store/ideas/tallies';
import { readAllLogEntries, readAllSignedCheckpoints, voteLogKeys } from '#lib/store/vote-log/log';
import { atWallClock } from '#tests/support/wall-clock';
import { addToTally, checkpointLater, forgeBallot, forgeResultsSnapshot, minutesLater, unsealAsBeforeTheLog, votedSite } from '#tests/support/ballot-tampering';
import { computeSiteResults } from '#lib/results/compute';
import { findSite } from '#lib/sites/site';
import { verifyCommand } from '../../../scripts/verify-votes.ts';

const later = minutesLater;
const checkpoint = (siteId: number, minutes = 1) => checkpointLater(siteId, minutes);
const computeResults = async (siteId: number) => computeSiteResults((await findSite(siteId))!, { deadline: later(1) });

/** A ballot item as stored, without its owner's index entry (so a copy does not claim it). */
async function ballotCopy(siteId: number, userId: number) {
  const item = (await doc.send(new GetCommand({ TableName: TABLE, Key: ballotKeys.ballot(siteId, userId), ConsistentRead: true }))).Item!;
  const { GSI1PK: _pk, GSI1SK: _sk, ...copy } = item;
  return copy;
}

/** The site's signed checkpoint items as stored. */
const checkpointItems = async (siteId: number) =>
  (
    await doc.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :p)',
        ExpressionAttributeValues: { ':pk': sitePk(siteId), ':p': voteLogKeys.checkpointPrefix },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];

describe('the vote log against a writer with table access and no keys', () => {
  it('a forged ballot migrate sealed while the checkpoints were hidden from it is left out by the job and reported by verify-votes', async () => {
    const { site, ideas } = await votedSite();
    await checkpoint(site.id);
    const signed = (await readAllSignedCheckpoints(site.id)).at(-1)!;
    expect(signed).toMatchObject({ id: 1, complete: true });
    const { complete: _c, siteId: _s, createdAt: _t, ...published } = signed;
    const pin = JSON.stringify(published);

    const forger = await forgeBallot(site.id, ideas[1]);
    // The seal guard reads the table: the checkpoints are deleted for the migrate run and put back after.
    const hidden = await checkpointItems(site.id);
    for (const item of hidden) await doc.send(new DeleteCommand({ TableName: TABLE, Key: { PK: item['PK'], SK: item['SK'] } }));
    const [report] = await migrate({ siteId: site.id, dryRun: false });
    for (const item of hidden) await doc.send(new PutCommand({ TableName: TABLE, Item: item }));
    expect(report!.ballots).toBe(1);

    const run = await checkpoint(site.id, 3);
    expect(run.sites[0]!.failed).toEqual([expect.stringContaining(`entry sealed by npm run migrate after the log held every ballot, left out of the log (a ballot written behind it; run verify-votes): user ${forger} version 1`)]);
    const logged = (await readAllLogEntries(site.id)).find((e) => e.userId === forger);
    expect(logged).toMatchObject({ migrated: true });

    const alone = await atWallClock(later(4), () => verifyCommand(site.id));
    expect(alone.code, alone.output).toBe(1);
    expect(alone.output).toContain(`the ballot of user ${forger}, version 1 was sealed by npm run migrate`);
    const pinned = await atWallClock(later(4), () => verifyCommand(site.id, pin));
    expect(pinned.code, pinned.output).toBe(1);
    expect(pinned.output).toContain(`the ballot of user ${forger}, version 1 was sealed by npm run migrate`);
  });

  it('a second ballot item of an existing voter under another key is reported, though it matches the voter’s entries', async () => {
    const { site, ideas, users } = await votedSite();
    await checkpoint(site.id);
    const copy = await ballotCopy(site.id, users[0]!.id);
    await doc.send(new PutCommand({ TableName: TABLE, Item: { ...copy, ...ballotKeys.ballot(site.id, 999_999) } }));
    await addToTally(site.id, ideas[0], 1);
    expect((await readSiteTallies(site.id, { consistent: true })).get(ideas[0])).toMatchObject({ yes: 4 });

    const { code, output } = await verifyCommand(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain(`user ${users[0]!.id} has 2 items in the ballot range`);
    expect(output).toContain(`${ballotKeys.ballot(site.id, 999_999).SK} in the ballot range (user ${users[0]!.id}) is not a ballot of this site`);
  });

  it('a ballot copied from another site under its user’s key here is reported by the site it names', async () => {
    const { site, ideas } = await votedSite();
    const other = await votedSite();
    await checkpoint(site.id);
    const foreign = await ballotCopy(other.site.id, other.users[0]!.id);
    const vote = Object.values(foreign['votes'] as object)[0] as unknown;
    await doc.send(new PutCommand({ TableName: TABLE, Item: { ...foreign, votes: { [String(ideas[0])]: vote }, ...ballotKeys.ballot(site.id, other.users[0]!.id) } }));
    await addToTally(site.id, ideas[0], 1);

    const { code, output } = await verifyCommand(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain(`it names site ${other.site.id}`);
  });

  it('a forged ballot made to look sealed (made-up hash, version 1) on a complete site is reported', async () => {
    const { site, ideas } = await votedSite();
    await checkpoint(site.id);
    const forger = await forgeBallot(site.id, ideas[0]);
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: ballotKeys.ballot(site.id, forger),
        UpdateExpression: 'SET #h = :h, prevHash = :z',
        ExpressionAttributeNames: { '#h': 'hash' },
        ExpressionAttributeValues: { ':h': 'ab'.repeat(32), ':z': '0'.repeat(64) },
      }),
    );
    const { code, output } = await verifyCommand(site.id);
    expect(code, output).toBe(1);
  });

  it('an item in the ballot range that is not its user’s ballot is refused by migrate and reported, and does not keep the site out of complete', async () => {
    const { site, ideas, users } = await votedSite();
    await unsealAsBeforeTheLog(site.id, users[1]!.id);
    // Well-formed, empty, unsealed, under a key with a tail (inside BALLOT#..BALLOT#~): migrate cannot seal it.
    const decoy = `${ballotKeys.ballot(site.id, users[0]!.id).SK}x`;
    const at = new Date().toISOString();
    await doc.send(new PutCommand({ TableName: TABLE, Item: { PK: ballotKeys.ballot(site.id, users[0]!.id).PK, SK: decoy, siteId: site.id, userId: 123_456, version: 1, updatedAt: at, votes: {} } }));

    const [report] = await migrate({ siteId: site.id, dryRun: false });
    expect(report!.ballots).toBe(1);
    expect(report!.skipped).toBe(0);
    expect(report!.refused).toEqual([expect.stringContaining(`the item ${decoy} in the ballot range is not its user's ballot`)]);

    const run = await checkpoint(site.id);
    expect(run.sites[0]!.failed).toEqual([expect.stringContaining(`item ${decoy} in the ballot range is not its user's ballot`)]);
    expect((await readAllSignedCheckpoints(site.id)).at(-1)).toMatchObject({ complete: true });

    const decoyOnly = await atWallClock(later(2), () => verifyCommand(site.id));
    expect(decoyOnly.code, decoyOnly.output).toBe(1);
    expect(decoyOnly.output).toContain(`the item ${decoy} in the ballot range (user 123456) is not a ballot of this site`);
    const forger = await forgeBallot(site.id, ideas[2]);
    const { code, output } = await atWallClock(later(2), () => verifyCommand(site.id));
    expect(code, output).toBe(1);
    expect(output).toContain(`the ballot of user ${forger} (version 1) has no log entry: written behind the log`);
  });

  it('a results snapshot with other counts on a site not yet complete is held to the table’s ballots', async () => {
    const { site, ideas, users } = await votedSite();
    await unsealAsBeforeTheLog(site.id, users[1]!.id);
    await checkpoint(site.id);
    expect((await readAllSignedCheckpoints(site.id)).at(-1)?.complete).toBeFalsy();
    expect(await computeResults(site.id)).toBe('done');
    expect((await atWallClock(later(2), () => verifyCommand(site.id))).code).toBe(0);

    await forgeResultsSnapshot(site.id, ideas[2], 40);

    const { code, output } = await atWallClock(later(2), () => verifyCommand(site.id));
    expect(code, output).toBe(1);
    expect(output).toMatch(/results snapshot .* differs from the log: idea \d+ 'yes' is 41/);
  });
});
