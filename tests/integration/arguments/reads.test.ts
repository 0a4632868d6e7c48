/**
 * What argument reads add: `user` (withUser), replies nested in `reactions`
 * (includeReactionsOnReactions, also across pages), `can` per record, at a cost that does not grow with
 * the number of arguments (request counts as docs/benchmarks.md states them).
 */
import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { createSite, createUser } from '#tests/support/fixtures';
import { putIdea } from '#tests/support/ideas-fixture';
import { seedArgument } from '../ideas/helpers.ts';
import { handler as listArguments } from '../../../functions/arguments/list.ts';
import type { ListEnvelope } from '#tests/support/bodies';
import type { ArgumentRecordShape } from '#schemas/argument';

async function thread(tops: number, repliesEach: number) {
  const site = await createSite();
  const author = await createUser(site.id, 'member', { nickName: 'Anna' });
  const idea = await putIdea(site.id);
  const parents = [];
  for (let i = 0; i < tops; i++) {
    const parent = await seedArgument(site.id, idea.id, { userId: author.id });
    parents.push(parent);
    for (let j = 0; j < repliesEach; j++) await seedArgument(site.id, idea.id, { userId: author.id, parentId: parent.id });
  }
  return { site, author, idea, parents };
}

const query = { withUser: '1', withVoteCount: '1', withUserVote: '1', includeReactionsOnReactions: '1' };

describe('argument reads', () => {
  it('nest replies under their argument, with their authors and what the caller may do', async () => {
    const { site, author, idea, parents } = await thread(3, 2);
    const res = await invoke<ListEnvelope<ArgumentRecordShape>>(listArguments, { params: { siteId: site.id, ideaId: idea.id }, query, token: author.token });
    expect(res.status).toBe(200);
    expect(res.body.records.map((r) => r.id)).toEqual(parents.map((p) => p.id));
    for (const record of res.body.records) {
      expect(record.reactions).toHaveLength(2);
      expect(record).toMatchObject({ user: { id: author.id }, can: { edit: true, delete: true, reply: true }, yes: 0, hasUserVoted: false });
      for (const reply of record.reactions!) expect(reply).toMatchObject({ parentId: record.id, user: { id: author.id }, can: { reply: false } });
    }
    // A page boundary between a parent and its replies: the replies still come with their parent.
    const first = await invoke<ListEnvelope<ArgumentRecordShape>>(listArguments, { params: { siteId: site.id, ideaId: idea.id }, query: { ...query, pageSize: '2' } });
    expect(first.body.records.map((r) => [r.id, r.reactions?.length])).toEqual([[parents[0]!.id, 2]]);
    const second = await invoke<ListEnvelope<ArgumentRecordShape>>(listArguments, {
      params: { siteId: site.id, ideaId: idea.id },
      query: { ...query, pageSize: '2', cursor: first.body.metadata.nextCursor! },
    });
    expect(second.body.records.map((r) => r.id)).toEqual([parents[1]!.id]);
    expect(first.body.records[0]!.can).toEqual({ edit: false, delete: false, reply: false });
  });

  it('cost the same for few and many arguments: the page, one Query for the replies, one BatchGet for the authors', async () => {
    const small = await thread(1, 1);
    const large = await thread(8, 5);
    const measure = ({ site, idea }: Awaited<ReturnType<typeof thread>>) =>
      countRequests(() => invoke<ListEnvelope<ArgumentRecordShape>>(listArguments, { params: { siteId: site.id, ideaId: idea.id }, query }));
    const s = await measure(small);
    const l = await measure(large);
    expect(l.result.body.records).toHaveLength(8);
    expect(l.requests).toBe(s.requests);
    console.info(`argument list with users and reactions: ${s.requests} requests`, s.commands);
  }, 120_000);
});
