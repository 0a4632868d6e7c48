import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite } from '#tests/support/fixtures';
import { createIdea } from '#tests/support/ideas-fixture';
import { countRequests } from '#tests/support/request-counter';
import { argumentId, world, type World } from './helpers.ts';
import { handler as listArguments } from '../../../functions/arguments/list.ts';
import { handler as listSiteArguments } from '../../../functions/arguments/list-site.ts';
import { handler as vote } from '../../../functions/arguments/vote.ts';
import type { ArgumentRecordShape } from '#schemas/argument';

type ListBody = { records: Rec[]; metadata: { pageSize: number; nextCursor: string | null }; message?: string };
type Rec = { id: number; ideaId: number; parentId: number | null; sentiment: string; yes?: number; hasUserVoted?: boolean };

const ideaList = (w: { siteId: number; ideaId: number }, query: Record<string, string> = {}, token?: string) =>
  invoke<ListBody>(listArguments, {
    params: { siteId: w.siteId, ideaId: w.ideaId },
    query,
    ...(token ? { token } : {}),
  });

const siteList = (siteId: number, query: Record<string, string> = {}, token?: string) =>
  invoke<ListBody>(listSiteArguments, {
    params: { siteId },
    query,
    ...(token ? { token } : {}),
  });

const castVote = (w: { siteId: number; ideaId: number }, argumentId: number, token: string) =>
  invoke<ArgumentRecordShape>(vote, { method: 'POST', params: { siteId: w.siteId, ideaId: w.ideaId, argumentId }, token });

/** Arguments written in parallel (ids still ascend in creation order of the counter). */
async function many(w: World, count: number, sentimentOf: (i: number) => string = () => 'for'): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 10) {
    const batch = Array.from({ length: Math.min(10, count - i) }, (_, j) =>
      argumentId(w, w.member.token, { sentiment: sentimentOf(i + j) }),
    );
    ids.push(...(await Promise.all(batch)));
  }
  return ids.sort((a, b) => a - b);
}

describe("an idea's argument list", () => {
  it('lists arguments and replies in creation order in the envelope', async () => {
    const w = await world();
    const a = await argumentId(w, w.member.token);
    const b = await argumentId(w, w.other.token, { sentiment: 'against' });
    const reply = await argumentId(w, w.other.token, { parentId: a });
    const otherIdea = await createIdea(w.siteId, null);
    await argumentId({ siteId: w.siteId, ideaId: otherIdea.id }, w.member.token);

    const res = await ideaList(w);
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ pageSize: 100, nextCursor: null });
    expect(res.body.records.map((r) => r.id)).toEqual([a, b, reply]);
    expect(res.body.records[2]).toMatchObject({ parentId: a, ideaId: w.ideaId });
    for (const record of res.body.records) {
      expect(record).not.toHaveProperty('yes');
      expect(record).not.toHaveProperty('hasUserVoted');
      expect(record).not.toHaveProperty('voterIds');
    }
  });

  it('filters by sentiment and rejects other values', async () => {
    const w = await world();
    const ids = await many(w, 6, (i) => (i % 3 === 0 ? 'against' : 'for'));
    const against = await ideaList(w, { sentiment: 'against' });
    expect(against.body.records.every((r) => r.sentiment === 'against')).toBe(true);
    expect(against.body.records).toHaveLength(2);
    const forList = await ideaList(w, { sentiment: 'for' });
    expect(forList.body.records).toHaveLength(4);
    expect([...against.body.records, ...forList.body.records].map((r) => r.id).sort((x, y) => x - y)).toEqual(ids);
    for (const sentiment of ['neutral', 'FOR', '']) {
      const res = await ideaList(w, { sentiment });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ValidationError', details: [{ path: 'sentiment' }] });
    }
  });

  it('adds yes with withVoteCount and hasUserVoted with withUserVote', async () => {
    const w = await world();
    const [a, b] = await many(w, 2);
    await castVote(w, a!, w.member.token);
    await castVote(w, a!, w.other.token);
    await castVote(w, b!, w.other.token);

    const counted = await ideaList(w, { withVoteCount: '1' });
    expect(counted.body.records.map((r) => r.yes)).toEqual([2, 1]);
    expect(counted.body.records[0]).not.toHaveProperty('hasUserVoted');

    const mine = await ideaList(w, { withUserVote: 'true' }, w.member.token);
    expect(mine.body.records.map((r) => r.hasUserVoted)).toEqual([true, false]);
    expect(mine.body.records[0]).not.toHaveProperty('yes');

    const both = await ideaList(w, { withUserVote: '1', withVoteCount: '1' }, w.other.token);
    expect(both.body.records.map((r) => [r.yes, r.hasUserVoted])).toEqual([[2, true], [1, true]]);

    const anonymous = await ideaList(w, { withUserVote: '1' });
    expect(anonymous.body.records.map((r) => r.hasUserVoted)).toEqual([false, false]);

    const off = await ideaList(w, { withUserVote: '0', withVoteCount: 'false' });
    expect(off.body.records[0]).not.toHaveProperty('yes');
    for (const query of [{ withVoteCount: '2' }, { withUserVote: 'yes' }] as Record<string, string>[]) {
      expect((await ideaList(w, query)).status).toBe(400);
    }
  });

  it('pages with an opaque cursor guarded to the idea and the site', async () => {
    const w = await world();
    const ids = await many(w, 5);
    const seen: number[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const res = await ideaList(w, { pageSize: '2', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.metadata.pageSize).toBe(2);
      expect(res.body.records.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.records.map((r) => r.id));
      cursor = res.body.metadata.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual(ids);

    const first = await ideaList(w, { pageSize: '2' });
    const next = first.body.metadata.nextCursor!;
    const otherIdea = await createIdea(w.siteId, null);
    expect((await ideaList({ siteId: w.siteId, ideaId: otherIdea.id }, { cursor: next })).status).toBe(400);
    const other = await world();
    expect((await ideaList({ siteId: other.siteId, ideaId: other.ideaId }, { cursor: next })).status).toBe(400);
    expect((await siteList(other.siteId, { cursor: next })).status).toBe(400);
    expect((await ideaList(w, { cursor: 'not a cursor' })).status).toBe(400);
    for (const pageSize of ['0', '501', 'x']) expect((await ideaList(w, { pageSize })).status).toBe(400);
  });

  it('answers 404 for an idea that does not exist on the site', async () => {
    const w = await world();
    const other = await world();
    const res = await ideaList({ siteId: w.siteId, ideaId: other.ideaId });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(`Idea ${other.ideaId} not found on site ${w.siteId}`);
    expect((await ideaList({ siteId: 999_999_999, ideaId: w.ideaId })).status).toBe(404);
    expect((await ideaList({ siteId: w.siteId, ideaId: 'abc' as unknown as number })).status).toBe(400);
  });

  it('costs the same number of DynamoDB requests for 3 and for 40 arguments, with both flags', async () => {
    const measure = async (count: number) => {
      const w = await world();
      const ids = await many(w, count);
      await Promise.all(ids.slice(0, 3).map((id) => castVote(w, id, w.other.token)));
      const { result, requests, commands } = await countRequests(() =>
        ideaList(w, { withVoteCount: '1', withUserVote: '1' }, w.other.token),
      );
      expect(result.status).toBe(200);
      expect(result.body.records).toHaveLength(count);
      expect(result.body.records.filter((r) => r.hasUserVoted)).toHaveLength(3);
      return { requests, commands };
    };
    const small = await measure(3);
    const large = await measure(40);
    // site + caller (one BatchGet) + idea check (GetItem) + one Query page.
    expect(small).toEqual({ requests: 3, commands: { BatchGetItemCommand: 1, GetItemCommand: 1, QueryCommand: 1 } });
    expect(large).toEqual(small);
  });
});

describe("a site's argument list", () => {
  it('lists every argument of the site (not of other sites), with filters and flags', async () => {
    const w = await world();
    const secondIdea = await createIdea(w.siteId, w.other.id);
    const w2 = { ...w, ideaId: secondIdea.id };
    const a = await argumentId(w, w.member.token);
    const b = await argumentId(w2, w.other.token, { sentiment: 'against' });
    const c = await argumentId(w, w.other.token, { parentId: a, sentiment: 'against' });
    const elsewhere = await world();
    await argumentId(elsewhere, elsewhere.member.token);
    await castVote(w2, b, w.member.token);

    const all = await siteList(w.siteId);
    expect(all.status).toBe(200);
    // Grouped by idea, then creation order.
    expect(all.body.records.map((r) => r.id)).toEqual([a, c, b]);
    expect(all.body.metadata).toEqual({ pageSize: 100, nextCursor: null });

    const against = await siteList(w.siteId, { sentiment: 'against', withVoteCount: '1', withUserVote: '1' }, w.member.token);
    expect(against.body.records.map((r) => [r.id, r.yes, r.hasUserVoted])).toEqual([
      [c, 0, false],
      [b, 1, true],
    ]);
    expect((await siteList(w.siteId, { sentiment: 'both' })).status).toBe(400);

    const empty = await createSite();
    expect((await siteList(empty.id)).body).toEqual({ records: [], metadata: { pageSize: 100, nextCursor: null } });
    expect((await siteList(999_999_999)).status).toBe(404);
  });

  it('pages through the site and costs one Query per page', async () => {
    const w = await world();
    const ids = await many(w, 5);
    const first = await countRequests(() => siteList(w.siteId, { pageSize: '3' }));
    expect(first.requests).toBe(2); // site + Query (no token)
    expect(first.result.body.records.map((r) => r.id)).toEqual(ids.slice(0, 3));
    const second = await siteList(w.siteId, { pageSize: '3', cursor: first.result.body.metadata.nextCursor! });
    expect(second.body.records.map((r) => r.id)).toEqual(ids.slice(3));
  });
});
