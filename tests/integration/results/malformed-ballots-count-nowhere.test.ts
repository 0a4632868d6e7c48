/**
 * A writer with table access puts a ballot that does not match the ballot's schema under a voter's
 * key (docs/results.md "Malformed items"): results, the votes exports and verify-votes agree on what a
 * ballot is, so such an item counts nowhere, no answer is a 500, and verify-votes reports it by its
 * key. Each test is the attack, then what must come out.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { doc, TABLE } from '#lib/store/db/client';
import { ballotKeys } from '#lib/store/ballots/keys';
import { computeSiteResults } from '#lib/results/compute';
import { unpackSnapshot } from '#lib/results/snapshot';
import { findSite } from '#lib/sites/site';
import { getResultsHead, readResultsBody } from '#lib/store/results/snapshots';
import { createUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { atWallClock } from '#tests/support/wall-clock';
import { addToTally, checkpointLater, minutesLater, putMalformedBallot, votedSite } from '#tests/support/ballot-tampering';
import { call } from '../../../scripts/lambda-call.ts';
import { verifyCommand } from '../../../scripts/verify-votes.ts';
import { handler as getResults } from '../../../functions/results/get.ts';
import { handler as exportVotes } from '../../../functions/results/export-votes.ts';

const verifyLater = (siteId: number) => atWallClock(minutesLater(5), () => verifyCommand(siteId));
/** User ids no test user reaches, for items a writer makes up. */
const madeUpUser = (n: number) => 990_700 + n;

async function votesExport(siteId: number, format: 'csv' | 'pabulib') {
  const admin = await createUser(siteId, 'admin');
  return call(exportVotes, { method: 'GET', path: '/api/site/{siteId}/export/votes', params: { siteId }, query: { format }, token: admin.token });
}

describe('a ballot that does not match the ballot schema', () => {
  it('malformed outside its votes (a text version), its tally moved along: results and the CSV export leave it out, verify-votes reports it', async () => {
    const { site, ideas } = await votedSite();
    const at = new Date().toISOString();
    const user = madeUpUser(1);
    const key = await putMalformedBallot(site.id, user, { version: 'one', votes: { [String(ideas[2])]: { id: 5, opinion: 'yes', createdAt: at } } });
    await addToTally(site.id, ideas[2], 1);
    await checkpointLater(site.id);

    expect(await computeSiteResults((await findSite(site.id))!, { deadline: minutesLater(1) })).toBe('done');
    const body = unpackSnapshot((await readResultsBody((await getResultsHead(site.id))!))!) as { ballots: number; ideas: { id: number; yes: number }[] };
    expect(body.ballots).toBe(3);
    expect(body.ideas.find((idea) => idea.id === ideas[2])?.yes).toBe(1);
    const csv = await votesExport(site.id, 'csv');
    expect(csv.status).toBe(200);
    expect(String(csv.text)).not.toContain(String(user));

    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain(`a malformed item in the ballot range: ${key} (version`);
    expect(output).toContain(`tally of idea ${ideas[2]} 'yes': stored 2, ballots hold 1`);
  });

  it('whose votes are no map: results compute without it, GET /results, the CSV and the Pabulib export answer 200', async () => {
    const { site } = await votedSite();
    const key = await putMalformedBallot(site.id, madeUpUser(2), { votes: 'yes' });

    expect(await computeSiteResults((await findSite(site.id))!, { deadline: minutesLater(1) })).toBe('done');
    const moderator = await createUser(site.id, 'moderator');
    const results = await invoke<{ ballots: number }>(getResults, { method: 'GET', path: '/api/site/{siteId}/results', params: { siteId: site.id }, token: moderator.token });
    expect(results.status, JSON.stringify(results.body)).toBe(200);
    expect(results.body.ballots).toBe(3);
    for (const format of ['csv', 'pabulib'] as const) expect((await votesExport(site.id, format)).status, format).toBe(200);

    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain(`a malformed item in the ballot range: ${key} (votes`);
  });
});

describe('a well-formed copy of a ballot under another key of the ballot range', () => {
  it('counts nowhere: results and the CSV export are as without it; verify-votes reports it', async () => {
    const { site, users } = await votedSite();
    const voter = users[2]!;
    const own = ballotKeys.ballot(site.id, voter.id);
    const ballot = (await doc.send(new GetCommand({ TableName: TABLE, Key: own, ConsistentRead: true }))).Item!;
    const copy = `${own.SK}#copy`;
    await doc.send(new PutCommand({ TableName: TABLE, Item: { ...ballot, SK: copy } }));

    expect(await computeSiteResults((await findSite(site.id))!, { deadline: minutesLater(1) })).toBe('done');
    const body = unpackSnapshot((await readResultsBody((await getResultsHead(site.id))!))!) as { ballots: number; ideas: { id: number; yes: number }[] };
    expect(body.ballots).toBe(3);
    expect(body.ideas.map((idea) => idea.yes).sort()).toEqual([1, 2, 3]);
    const csv = await votesExport(site.id, 'csv');
    expect(csv.status).toBe(200);
    expect(String(csv.text).split('\n').filter((row) => row.includes(`,${voter.id},`))).toHaveLength(3);

    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain(`the item ${copy} in the ballot range (user ${voter.id}) is not a ballot of this site`);
  });
});
