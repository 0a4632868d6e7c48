/**
 * A writer with table access against the tally items (docs/results.md "The vote record", verification):
 * whatever such a writer leaves in the tally range, the order by votes and the exports show only what
 * verify-votes checks, and verify-votes reports every tally item no write of ours leaves (a gone one
 * still in the order by votes, one without `tallyOf`, a votable one taken out of the order or listed at
 * another count). Each test is the attack, then what must come out.
 */
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { doc, TABLE } from '#lib/store/db/client';
import { ideaKeys } from '#lib/store/ideas/keys';
import { tallyGoneItem } from '#lib/store/ideas/tallies';
import { createUser } from '#tests/support/fixtures';
import { invoke, type InvokeResult } from '#tests/support/invoke';
import type { ListEnvelope } from '#tests/support/bodies';
import { createIdea } from '#tests/support/vote-fixtures';
import { atWallClock } from '#tests/support/wall-clock';
import { checkpointLater, itemName, minutesLater, overwriteAttributes, votedSite } from '#tests/support/ballot-tampering';
import { call } from '../../../scripts/lambda-call.ts';
import { verifyCommand } from '../../../scripts/verify-votes.ts';
import { handler as exportIdeas } from '../../../functions/results/export-ideas.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';

const verifyLater = (siteId: number) => atWallClock(minutesLater(5), () => verifyCommand(siteId));

/** The ideas CSV export's rows, by idea id: `[yes, no]` as written. */
async function exportedCounts(siteId: number): Promise<Map<number, [string, string]>> {
  const admin = await createUser(siteId, 'admin');
  const res = await call(exportIdeas, { method: 'GET', path: '/api/site/{siteId}/export/ideas', params: { siteId }, query: { format: 'csv' }, token: admin.token });
  expect(res.status, String(res.text)).toBe(200);
  const [header, ...rows] = String(res.text).trim().split('\r\n');
  const columns = header!.split(',');
  const at = (row: string[], name: string) => row[columns.indexOf(name)]!;
  return new Map(rows.map((line) => line.split(',')).map((row) => [Number(at(row, 'id')), [at(row, 'yes'), at(row, 'no')]]));
}

/** The site's ideas by votes as a moderator lists them (votes are not public while the vote runs), most first, a page of one at a time: `[id, yes]` each. */
async function listedByVotes(siteId: number): Promise<Array<[number, number]>> {
  const moderator = await createUser(siteId, 'moderator');
  const listed: Array<[number, number]> = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const res: InvokeResult<ListEnvelope<{ id: number; yes: number }>> = await invoke<ListEnvelope<{ id: number; yes: number }>>(listIdeas, {
      params: { siteId },
      token: moderator.token,
      query: { sort: 'votes_desc', includeVoteCount: '1', pageSize: '1', ...(cursor ? { cursor } : {}) },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    listed.push(...res.body.records.map((r): [number, number] => [r.id, r.yes]));
    cursor = res.body.metadata.nextCursor;
    if (!cursor) return listed;
  }
  throw new Error('the order by votes did not end');
}

describe('tally items the order by votes and the exports read', () => {
  it('a tally marked gone that keeps its GSI3 keys and a forged count: no list or export shows the count, verify-votes reports it', async () => {
    const { site, ideas } = await votedSite();
    await checkpointLater(site.id);
    const unvoted = (await createIdea(site.id)).id;
    const tally = ideaKeys.ideaTally(site.id, unvoted);
    await overwriteAttributes(tally, { gone: true, v_yes: 50 });

    const exported = await exportedCounts(site.id);
    expect(exported.get(ideas[0])).toEqual(['3', '0']);
    expect(exported.get(unvoted)?.[0]).not.toBe('50');
    const listed = await listedByVotes(site.id);
    expect(listed).toEqual([[ideas[0], 3], [ideas[1], 2], [ideas[2], 1]]);

    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain(`the tally ${itemName(tally)} of idea ${unvoted} is marked gone yet keeps its place in the order by votes`);
    expect(output).toContain(`tally of idea ${unvoted} 'yes': stored 50, ballots hold 0`);
  });

  it('a tally item without tallyOf, still in the order by votes: GET /export/ideas answers without its count, verify-votes reports it malformed', async () => {
    const { site, ideas } = await votedSite();
    await checkpointLater(site.id);
    const unvoted = (await createIdea(site.id)).id;
    const tally = ideaKeys.ideaTally(site.id, unvoted);
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: tally, UpdateExpression: 'REMOVE tallyOf SET v_yes = :n, GSI3SK = :n', ExpressionAttributeValues: { ':n': 40 } }));

    const exported = await exportedCounts(site.id);
    expect(exported.get(ideas[0])).toEqual(['3', '0']);
    expect(exported.get(unvoted)?.[0]).not.toBe('40');
    expect((await listedByVotes(site.id)).map(([id]) => id)).toEqual([ideas[0], ideas[1], ideas[2]]);

    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain(`a malformed item among the tallies: ${itemName(tally)} (tallyOf`);
  });

  it("a votable tally taken out of the order by votes (its count hidden) or listed at another count: verify-votes reports it", async () => {
    const { site, ideas } = await votedSite();
    await checkpointLater(site.id);
    const hidden = ideaKeys.ideaTally(site.id, ideas[0]);
    const moved = ideaKeys.ideaTally(site.id, ideas[2]);
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: hidden, UpdateExpression: 'REMOVE GSI3PK, GSI3SK' }));
    await overwriteAttributes(moved, { GSI3SK: 70 });

    expect((await exportedCounts(site.id)).get(ideas[0])?.[0]).not.toBe('3');
    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(1);
    expect(output).toContain(`the tally ${itemName(hidden)} of idea ${ideas[0]} is not in the order by votes`);
    expect(output).toContain(`the tally ${itemName(moved)} of idea ${ideas[2]} is in the order by votes at rank 70, not at its 1 'yes'`);
  });

  it('a tally its idea deletion marked gone, the votes not yet taken out of the ballots: its counts still match them, verify-votes passes', async () => {
    const { site, ideas } = await votedSite();
    await checkpointLater(site.id);
    await doc.send(new TransactWriteCommand({ TransactItems: [tallyGoneItem(site.id, ideas[1])] }));

    expect((await listedByVotes(site.id)).map(([id]) => id)).toEqual([ideas[0], ideas[2]]);
    const { code, output } = await verifyLater(site.id);
    expect(code, output).toBe(0);
  });
});
