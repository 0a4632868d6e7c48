/**
 * Constant cost: a list page (or one idea) with every include flag on takes the same number of
 * DynamoDB requests however many ideas, users, votes and arguments it covers. The figures are in
 * docs/data-model.md ("Cost per request").
 */
import { describe, expect, it } from 'vitest';
import { dynamo } from '#lib/store/db/client';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { createSite, createUser, type TestUser } from '#tests/support/fixtures';
import { castVotes, seedArgument, seedIdeas } from './helpers.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as getIdea } from '../../../functions/ideas/get.ts';
import type { ListEnvelope } from '#tests/support/bodies';
import type { IdeaRecord } from '#schemas/idea';

const allFlags = {
  includeArguments: '1',
  includePosterImage: '1',
  includeUser: '1',
  includeVoteCount: '1',
  includeUserVote: '1',
  includeArgsCount: '1',
};

/** A site with `count` ideas, each by its own user, with votes and arguments on every idea. */
async function populatedSite(count: number) {
  const site = await createSite();
  const caller = await createUser(site.id, 'moderator');
  const authors: TestUser[] = [];
  for (let i = 0; i < count; i += 10) {
    authors.push(...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, () => createUser(site.id, 'member')))));
  }
  // One block of consecutive ids: the page's arguments are then one range Query (lib/store/arguments/id-runs.ts);
  // ideas created by separate requests are thousands of ids apart and take one Query each.
  const ideas = await seedIdeas(site.id, authors.length, { extraData: { images: ['p.png'] } }, (i) => ({ userId: authors[i]!.id }));
  for (let i = 0; i < ideas.length; i += 10) {
    await Promise.all(
      ideas.slice(i, i + 10).flatMap((idea) => [
        seedArgument(site.id, idea.id, { sentiment: 'for' }),
        seedArgument(site.id, idea.id, { sentiment: 'against' }),
      ]),
    );
  }
  await castVotes(site.id, caller.id, Object.fromEntries(ideas.map((idea) => [idea.id, 'yes'])));
  await castVotes(site.id, authors[0]!.id, Object.fromEntries(ideas.map((idea) => [idea.id, 'no'])));
  return { site, caller, ideas };
}

describe('request counts', () => {
  it('a list page with every include flag costs the same for 5 and for 60 ideas', async () => {
    const small = await populatedSite(5);
    const large = await populatedSite(60);
    for (const sort of ['createdate_desc', 'votes_desc']) {
      const measure = async ({ site, caller }: Awaited<ReturnType<typeof populatedSite>>) =>
        countRequests(() => invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id }, query: { ...allFlags, sort }, token: caller.token }));
      const s = await measure(small);
      const l = await measure(large);
      expect(s.result.status).toBe(200);
      expect(s.result.body.records).toHaveLength(5);
      expect(l.result.body.records).toHaveLength(60);
      // The page really holds what was counted.
      for (const record of l.result.body.records) {
        expect(record).toMatchObject({ yes: 1, no: 1, userVote: { opinion: 'yes' }, posterImage: { url: 'p.png' } });
        expect(record.user).toEqual(expect.objectContaining({ id: record.userId }));
        expect(record.argumentsFor).toHaveLength(1);
        expect(record.argumentsAgainst).toHaveLength(1);
        // Read from the tally items the page reads anyway: argCount and `can` cost no request.
        expect(record).toMatchObject({ argCount: 2, can: { edit: true, delete: true } });
      }
      expect(l.requests).toBe(s.requests);
      // One BatchGet of site + caller + ballot (the request's prefetch); the page: by date one Query of the
      // ideas with their tallies, by votes a Query of GSI3 (the page's tallies) + a BatchGet of its ideas;
      // then users (one BatchGet) and arguments (one Query).
      expect(s.requests).toBe(sort === 'createdate_desc' ? 4 : 5);
      console.info(`list ${sort}, every include: ${s.requests} requests`, l.commands);
    }
    // 65 ideas with 130 arguments (each written with its count in a transaction) take a while to seed.
  }, 180_000);

  it('one idea with every include flag costs the same with few or many arguments and voters', async () => {
    const site = await createSite();
    const caller = await createUser(site.id, 'moderator');
    const author = await createUser(site.id, 'member');
    const [quiet, busy] = await seedIdeas(site.id, 2, { userId: author.id });
    for (let i = 0; i < 40; i += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, j) => seedArgument(site.id, busy!.id, { sentiment: j % 2 ? 'for' : 'against' })));
    }
    await castVotes(site.id, caller.id, { [busy!.id]: 'yes' });
    const measure = (ideaId: number) =>
      countRequests(() => invoke<IdeaRecord>(getIdea, { params: { siteId: site.id, ideaId }, query: allFlags, token: caller.token }));
    const q = await measure(quiet!.id);
    const b = await measure(busy!.id);
    expect(b.result.body.argumentsFor!.length + b.result.body.argumentsAgainst!.length).toBe(40);
    expect(b.result.body).toMatchObject({ yes: 1, userVote: { opinion: 'yes' }, user: { id: author.id }, argCount: 40 });
    expect(q.result.body).toMatchObject({ yes: 0, userVote: null, argumentsFor: [] });
    expect(b.requests).toBe(q.requests);
    // One BatchGet of site + caller + idea + its tally + ballot (the request's prefetch), then the user
    // and the arguments.
    expect(q.requests).toBe(3);
    console.info(`get one idea, every include: ${q.requests} requests`, q.commands);
  });

  it("an owner's page shows `can` per idea (the first-vote-or-argument rule) at the same cost as anyone's", async () => {
    // Counts public: members may then order by votes too.
    const site = await createSite({ votes: { isViewable: true } });
    const owner = await createUser(site.id, 'member');
    const voter = await createUser(site.id, 'member');
    const ideas = await seedIdeas(site.id, 6, { userId: owner.id });
    await seedArgument(site.id, ideas[1]!.id);
    await castVotes(site.id, voter.id, { [ideas[2]!.id]: 'yes' });
    for (const sort of ['createdate_asc', 'votes_desc']) {
      const mine = await countRequests(() =>
        invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id }, query: { sort, includeArgsCount: '1' }, token: owner.token }),
      );
      const theirs = await countRequests(() =>
        invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id }, query: { sort, includeArgsCount: '1' }, token: voter.token }),
      );
      const can = new Map(mine.result.body.records.map((r) => [r.id, r.can?.edit]));
      expect(ideas.map((idea) => can.get(idea.id))).toEqual([true, false, false, true, true, true]);
      expect(theirs.result.body.records.every((r) => r.can?.edit === false)).toBe(true);
      expect(mine.requests).toBe(theirs.requests);
      console.info(`list ${sort} with argCount and can: ${mine.requests} requests`);
    }
  });

  it('a page ordered by votes reads the arguments of its own ideas, not of every idea between them', async () => {
    const site = await createSite();
    const caller = await createUser(site.id, 'moderator');
    const ideas = await seedIdeas(site.id, 40);
    for (let i = 0; i < ideas.length; i += 10) {
      await Promise.all(ideas.slice(i, i + 10).flatMap((idea) => [seedArgument(site.id, idea.id, { sentiment: 'for' }), seedArgument(site.id, idea.id, { sentiment: 'against' })]));
    }
    // Four voted ideas far apart (13 ids), as the top of a large site's vote order is.
    const voted = [0, 13, 26, 39].map((i) => ideas[i]!);
    await castVotes(site.id, caller.id, Object.fromEntries(voted.map((idea) => [idea.id, 'yes'])));
    const page = await countRequests(() =>
      invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id }, query: { includeArguments: '1', sort: 'votes_desc', pageSize: '4' }, token: caller.token }),
    );
    expect(page.result.status).toBe(200);
    expect(page.result.body.records.map((r) => r.id).sort()).toEqual(voted.map((idea) => idea.id).sort());
    for (const record of page.result.body.records) {
      expect(record.argumentsFor!.map((a) => a.ideaId)).toEqual([record.id]);
      expect(record.argumentsAgainst!.map((a) => a.ideaId)).toEqual([record.id]);
    }
    // The GSI3 Query reads the 4 + 1 tally items of the page (Limit page + 1); the arguments, one range
    // Query per far-apart idea, read their 8 arguments. One range over the page would read all 80.
    expect(page.commands['QueryCommand']).toBe(1 + voted.length);
    expect(page.queryItemsRead).toBe(5 + 2 * voted.length);
  });

  it('a page ordered by votes reads its ideas, their authors and their arguments in one round trip after the order', async () => {
    const { site, caller } = await populatedSite(12);
    const events: string[] = [];
    const name = 'testRoundTrips';
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const command = String((context as { commandName?: string }).commandName);
        const input = (args as { input?: Record<string, unknown> }).input ?? {};
        const what =
          command === 'BatchGetItemCommand'
            ? [...new Set(Object.values(input['RequestItems'] as Record<string, { Keys: Array<{ SK: string }> }>).flatMap((r) => r.Keys.map((k) => k.SK.split('#')[0])))].sort().join('+')
            : command === 'QueryCommand'
              ? String(input['IndexName'] ?? 'table')
              : command;
        events.push(`send ${what}`);
        const answer = await next(args);
        events.push(`done ${what}`);
        return answer;
      },
      { step: 'initialize', name, priority: 'high' },
    );
    try {
      const res = await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id }, query: { ...allFlags, sort: 'votes_desc' }, token: caller.token });
      expect(res.status).toBe(200);
      expect(res.body.records.every((r) => r.user?.id === r.userId && r.argumentsFor!.length === 1)).toBe(true);
    } finally {
      dynamo.middlewareStack.remove(name);
    }
    // The request's first read, then the order (GSI3), then ideas, authors and arguments all sent before
    // any of them is answered: three round trips, as for a page in creation order.
    const afterOrder = events.slice(events.indexOf('done GSI3') + 1);
    expect(events.slice(0, events.indexOf('done GSI3') + 1)).toEqual(['send BALLOT+SITE+USER', 'done BALLOT+SITE+USER', 'send GSI3', 'done GSI3']);
    expect(afterOrder.slice(0, 3).sort()).toEqual(['send IDEA', 'send USER', 'send table'].sort());
  });

  it('a list page without include flags is site + caller (one BatchGet) + one Query', async () => {
    const { site, caller } = await populatedSite(5);
    const plain = await countRequests(() => invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id }, token: caller.token }));
    expect(plain.requests).toBe(2);
    const anonymous = await countRequests(() => invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id } }));
    expect(anonymous.requests).toBe(2);
  });
});
