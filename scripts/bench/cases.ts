/**
 * The timed calls, as TimedCase builders shared by the latency and the scale sections, with the
 * undo steps the writing ones need between a run and the replay of its requests.
 */
import { batchDelete, batchGet } from '#lib/store/db/batch';
import { deleteContentItem } from '#lib/store/content/content-items';
import { type Key } from '#lib/store/db/keys';
import { ballotKeys } from '#lib/store/ballots/keys';
import { ideaKeys } from '#lib/store/ideas/keys';
import { TABLE } from '#lib/store/db/client';
import { rankOf } from '#lib/store/ideas/tallies';
import { handler as ideaList } from '../../functions/ideas/list.ts';
import { handler as ideaGet } from '../../functions/ideas/get.ts';
import { handler as ideaCreate } from '../../functions/ideas/create.ts';
import { handler as voteCast } from '../../functions/votes/cast.ts';
import { handler as argumentList } from '../../functions/arguments/list.ts';
import { handler as siteGet } from '../../functions/sites/get.ts';
import { call, json } from '../lambda-call.ts';
import { batchPut, type SeededUser } from './seed.ts';
import type { RecordedRequest } from './recorder.ts';
import type { TimedCase } from './timing.ts';
import { ALL_IDEA_FLAGS, spread, type IdeaSite } from './world.ts';

export const listCase = (site: IdeaSite, sort: 'createdate_desc' | 'votes_desc', name = `idea list, page of 100, every flag, ${sort}`): TimedCase => ({
  name,
  endpoint: 'ideaList',
  status: 200,
  run: () =>
    call(ideaList, { params: { siteId: site.siteId }, query: { ...ALL_IDEA_FLAGS, sort, pageSize: '100' }, token: site.moderator.token }),
});

/**
 * Discovery: a filtered page of 5 (tag: 1 idea in 10; a theme word: 1 in 20; 2 km around the
 * centre, nearest first), small enough that both sites fill it, so the two pages hold the same records' worth.
 */
export const filteredListCase = (site: IdeaSite, filter: 'tag' | 'search' | 'near' | 'nearest'): TimedCase => {
  const query: Record<string, string> =
    filter === 'tag'
      ? { tags: String(site.tagIds[0]) }
      : filter === 'search'
        ? { search: 'speeltuin' }
        : { near: '52.345,4.875', radius: '2000', ...(filter === 'nearest' ? { sort: 'distance' } : {}) };
  return {
    name: `idea list, page of 5, ${filter === 'nearest' ? 'near filter, sort=distance' : `${filter} filter`}, includeVoteCount`,
    endpoint: 'ideaList',
    status: 200,
    run: () => call(ideaList, { params: { siteId: site.siteId }, query: { ...query, includeVoteCount: '1', pageSize: '5' }, token: site.moderator.token }),
  };
};

export const getIdeaCase = (site: IdeaSite): TimedCase => ({
  name: 'get idea, every flag',
  endpoint: 'ideaGet',
  status: 200,
  run: () => call(ideaGet, { params: { siteId: site.siteId, ideaId: site.ideaIds[1]! }, query: ALL_IDEA_FLAGS, token: site.moderator.token }),
});

export const argumentListCase = (site: IdeaSite): TimedCase => ({
  name: "an idea's arguments, withVoteCount + withUserVote",
  endpoint: 'argumentList',
  status: 200,
  run: () =>
    call(argumentList, {
      params: { siteId: site.siteId, ideaId: site.ideaIds[1]! },
      query: { withVoteCount: '1', withUserVote: '1' },
      token: site.member.token,
    }),
});

export const siteGetCase = (site: IdeaSite): TimedCase => ({
  name: 'get site, anonymous',
  endpoint: 'siteGet',
  status: 200,
  run: () => call(siteGet, { params: { siteId: site.siteId } }),
});

const IDEA_BODY = {
  title: 'A bench idea title',
  summary: 'A summary of the bench idea that is long enough',
  description: 'A description of the bench idea. '.padEnd(300, 'x'),
};

/** Create: between the run and its replay the new idea and its tally item are deleted again. */
export const createIdeaCase = (siteId: number, author: SeededUser): TimedCase => ({
  name: 'create idea',
  endpoint: 'ideaCreate',
  status: 201,
  run: () => call(ideaCreate, { method: 'POST', params: { siteId }, body: IDEA_BODY, token: author.token }),
  reset: async (_state, result) => {
    const { id } = json<{ id: number }>(result);
    const tally = { Delete: { TableName: TABLE, Key: ideaKeys.ideaTally(siteId, id) } };
    if (!(await deleteContentItem('IDEA', siteId, id, { with: [tally] }))) throw new Error('create reset: idea gone');
  },
});

/** Keys of the items a run's transactions Put (a round's vote log entry, beside its ballot). */
function keysPut(requests: readonly RecordedRequest[]): Key[] {
  return requests.flatMap((r) => {
    const items = (r.input as { TransactItems?: Array<{ Put?: { Item: Record<string, unknown> } }> }).TransactItems ?? [];
    return items.flatMap((t) => (t.Put ? [{ PK: String(t.Put.Item['PK']), SK: String(t.Put.Item['SK']) }] : []));
  });
}

/**
 * A vote round of 20 that replaces the voter's previous 20 (two disjoint sets spread over the
 * whole site, taken in turn, so every round really writes 40 vote changes, one per idea's tally).
 * Between run and replay the ballot and the 40 tally items are put back as they were before the run,
 * and the vote log entry the round added is deleted, so the replayed transaction's conditions
 * (ballot version, votable ideas, an entry not yet in the log) hold again.
 */
export function voteRoundCase(site: IdeaSite, voter: SeededUser, name = 'vote round of 20 (replaces 20)'): TimedCase<Record<string, unknown>[]> {
  const sets = [spread(site.ideaIds, 20, 1), spread(site.ideaIds, 20, 2)];
  let turn = 0;
  const touched: Key[] = [ballotKeys.ballot(site.siteId, voter.id), ...sets.flat().map((ideaId) => ideaKeys.ideaTally(site.siteId, ideaId))];
  return {
    name,
    endpoint: 'voteCast',
    status: 200,
    before: () => batchGet<Record<string, unknown>>(touched, { consistentRead: true }),
    run: () => {
      const ideas = sets[turn++ % 2]!;
      return call(voteCast, { method: 'POST', params: { siteId: site.siteId }, body: ideas.map((ideaId) => ({ ideaId })), token: voter.token });
    },
    reset: async (snapshot, _result, requests) => {
      const present = new Set(snapshot.map((item) => `${item.PK}|${item.SK}`));
      const isTouched = new Set(touched.map((k) => `${k.PK}|${k.SK}`));
      // A tally's rank is a decimal that comes back as an inexact double: written back, it is rebuilt
      // from the count it stands for (lib/store/ideas/tallies.ts rankOf).
      await batchPut(snapshot.map((item) => (item['GSI3SK'] === undefined ? item : { ...item, GSI3SK: rankOf(Number(item['v_yes'] ?? 0), Number(item['tallyOf'])) })));
      const added = keysPut(requests).filter((k) => !isTouched.has(`${k.PK}|${k.SK}`));
      await batchDelete([...touched.filter((k) => !present.has(`${k.PK}|${k.SK}`)), ...added]);
    },
  };
}
