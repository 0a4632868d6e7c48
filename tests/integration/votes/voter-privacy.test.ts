/**
 * What a reader who may not see user ids can and cannot link, on a site whose votes are public
 * (`votes.isViewable`), written as the attack: list every vote anonymously, list the users, and try to
 * tie the two together.
 *
 * CAN: which ideas got which opinions, and when each vote was cast (`createdAt`, a CONTRACT field).
 * CANNOT: a vote's user from its id (ids are a keyed permutation), the voter's place in signup order
 * from a page's order or grouping (shown by vote id), a Pabulib voter's user or signup order (voter ids
 * are HMAC pseudonyms under a key drawn per export, rows in pseudonym order), one export's voter ids
 * from another's, or a ballot's content from its receipt (a keyed mac: two identical ballots have
 * unrelated receipts).
 */
import { describe, expect, it } from 'vitest';
import { createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { castVotes, createIdeas, votingSite } from '#tests/support/vote-fixtures';
import { call } from '../../../scripts/lambda-call.ts';
import { handler as listVotes } from '../../../functions/votes/list.ts';
import { handler as exportVotes } from '../../../functions/results/export-votes.ts';
import type { ListEnvelope } from '#tests/support/bodies';
import type { VoteRecord } from '#schemas/votes';

describe('what an anonymous reader of public votes can link', () => {
  it('votes to ideas and times, but not to users: no user id, ids and order unrelated to users or signup order', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', maxIdeas: 10, isViewable: true });
    const ideas = await createIdeas(site.id, 4);
    // Users signed up in this order; each votes for two ideas, the same two for all (identical ballots).
    const users = [];
    for (let i = 0; i < 6; i++) users.push(await createUser(site.id));
    const receipts: string[] = [];
    for (const user of users) {
      const res = await castVotes(site.id, user.token, [{ ideaId: ideas[0] }, { ideaId: ideas[1] }]);
      expect(res.status).toBe(200);
      receipts.push(res.body[0]!.receipt!);
    }
    const page = await invoke<ListEnvelope<VoteRecord>>(listVotes, { method: 'GET', path: '/api/site/{siteId}/vote', params: { siteId: site.id } });
    expect(page.status).toBe(200);
    const records = page.body.records;
    expect(records).toHaveLength(12);
    // CAN: the idea, the opinion and the time of every vote.
    for (const record of records) expect(Object.keys(record).sort()).toEqual(['createdAt', 'id', 'ideaId', 'opinion']);
    // CANNOT: the user from the id (neither the old 10^12 + userId * 10^6 + n nor any user-sized range).
    for (const record of records) for (const user of users) expect(Math.floor((record.id - 1e12) / 1e6)).not.toBe(user.id);
    // CANNOT: the signup order from the page's order: it is by id, so the two votes of one ballot are not
    // neighbours by rule, and the first records are not the first voters'.
    expect(records.map((r) => r.id)).toEqual([...records.map((r) => r.id)].sort((a, b) => a - b));
    const own = await invoke<ListEnvelope<VoteRecord>>(listVotes, { method: 'GET', path: '/api/site/{siteId}/vote', params: { siteId: site.id }, query: { userId: String(users[0]!.id) }, token: users[0]!.token });
    const firstVoterIds = own.body.records.map((r) => r.id);
    const positions = records.flatMap((r, i) => (firstVoterIds.includes(r.id) ? [i] : []));
    expect(positions).toHaveLength(2);
    // CANNOT: a ballot's content from its receipt: six identical ballots, six unrelated receipts.
    expect(new Set(receipts).size).toBe(users.length);

    // Pabulib (meant to be published): pseudonyms drawn per export, in pseudonym order, none of them a
    // user id; two published exports of the same votes share no voter id, so they cannot be joined by it.
    const exportRows = async () => {
      const pabulib = await call(exportVotes, { method: 'GET', path: '/api/site/{siteId}/export/votes', params: { siteId: site.id }, query: { format: 'pabulib' }, token: SERVICE_TOKEN });
      expect(pabulib.status).toBe(200);
      return pabulib.text.split('VOTES')[1]!.split('\n').slice(2).filter(Boolean).map((line) => line.split(';')[0]!);
    };
    const rows = await exportRows();
    expect(rows).toHaveLength(users.length);
    expect(rows).toEqual([...rows].sort());
    expect(new Set(rows).size).toBe(users.length);
    for (const user of users) expect(rows).not.toContain(String(user.id));
    const again = await exportRows();
    expect(again.filter((id) => rows.includes(id))).toEqual([]);
  });
});
