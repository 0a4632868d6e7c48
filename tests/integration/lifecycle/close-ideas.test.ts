/**
 * close-ideas, driven by an injected clock: OPEN ideas older than `afterXDays` become CLOSED, once.
 * Runs are limited to the test's site (as `npm run job -- close-ideas --site N`), because the
 * marker of this recurring job falls due at real time on every site of the parallel test files.
 */
import { describe, expect, it } from 'vitest';
import { countRequests } from '#tests/support/request-counter';
import { createUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { contentKeys } from '#lib/store/content/keys';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import { handler as updateIdea } from '../../../functions/ideas/update.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { createLifecycleSite, daysFrom, getItem, runOn, siteData } from './helpers.ts';
import type { IdeaRecord } from '#schemas/idea';
import type { ListEnvelope } from '#tests/support/bodies';
import type { IdeaItem } from '#lib/store/ideas/ideas';

const IDEA = { title: 'A park by the river', summary: 'Green space for everyone nearby', description: 'A long description. '.repeat(10) };
const rule = (afterXDays: number, isActive = true) => ({ ideas: { automaticallyUpdateStatus: { isActive, afterXDays } } });

async function siteWithIdeas(n: number, config = rule(10)) {
  const site = await createLifecycleSite(config);
  const member = await createUser(site.id, 'member');
  const ideas: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId: site.id }, body: IDEA, token: member.token });
    expect(res.status).toBe(201);
    ideas.push(res.body.id);
  }
  return { site, member, ideas, createdAt: new Date() };
}

const stored = async (siteId: number, ideaId: number) => (await getItem<IdeaItem>(contentKeys.idea(siteId, ideaId)))!;

describe('close-ideas', () => {
  it('closes OPEN ideas once they are older than afterXDays, leaves other statuses, and a rerun changes nothing', async () => {
    const { site, ideas, createdAt } = await siteWithIdeas(3);
    const moderator = await createUser(site.id, 'moderator');
    const accepted = await invoke(updateIdea, { method: 'PUT', params: { siteId: site.id, ideaId: ideas[2]! }, body: { status: 'ACCEPTED' }, token: moderator.token });
    expect(accepted.status).toBe(200);

    const early = await runOn('close-ideas', site.id, daysFrom(createdAt, 9));
    expect(early.sites[0]!.done).toEqual([]);
    // Due again when the oldest idea comes of age.
    expect(early.sites[0]!.nextDueAt! > daysFrom(createdAt, 9).toISOString()).toBe(true);
    expect(early.sites[0]!.nextDueAt! <= daysFrom(createdAt, 10).toISOString()).toBe(true);

    const now = daysFrom(createdAt, 11);
    const report = await runOn('close-ideas', site.id, now);
    expect(report.sites[0]!.done).toEqual([`idea ${ideas[0]} CLOSED`, `idea ${ideas[1]} CLOSED`]);
    expect(await stored(site.id, ideas[0]!)).toMatchObject({ status: 'CLOSED', updatedAt: now.toISOString(), version: 2 });
    expect((await stored(site.id, ideas[2]!)).status).toBe('ACCEPTED');
    // The status filter's index moved with the ideas (the job writes through the idea's index).
    const statusIds = async (status: string) =>
      (await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id }, query: { status, sort: 'createdate_asc' } })).body.records.map((r: { id: number }) => r.id);
    expect(await statusIds('CLOSED')).toEqual([ideas[0], ideas[1]]);
    expect(await statusIds('OPEN')).toEqual([]);

    const before = await siteData(site.id);
    await runOn('close-ideas', site.id, now);
    await runOn('close-ideas', site.id, daysFrom(createdAt, 40));
    expect(await siteData(site.id)).toEqual(before);
  });

  it('two overlapping runs close each idea once', async () => {
    const { site, ideas, createdAt } = await siteWithIdeas(4);
    const now = daysFrom(createdAt, 11);
    await Promise.all([runOn('close-ideas', site.id, now), runOn('close-ideas', site.id, now)]);
    // A run that lost a race leaves the rest to the next run.
    await runOn('close-ideas', site.id, now);
    for (const id of ideas) expect(await stored(site.id, id)).toMatchObject({ status: 'CLOSED', version: 2 });
  });

  it('is bounded per run, continues where it stopped, and its requests are constant per idea closed', async () => {
    const { site, ideas, createdAt } = await siteWithIdeas(5);
    const now = daysFrom(createdAt, 11);
    const first = await countRequests(() => runOn('close-ideas', site.id, now, { units: 2 }));
    expect(first.result.sites[0]!.done).toHaveLength(2);
    expect(first.result.more).toBe(true);
    // --site: GetItem site + TransactWriteItems (markers synced) + GetItem marker; then GetItem site,
    // 1 Query of ideas, 1 TransactWriteItems per idea closed (the idea and its status index items
    // together), 1 UpdateItem of the marker.
    expect(first.commands).toEqual({ GetItemCommand: 3, TransactWriteItemsCommand: 1 + 2, QueryCommand: 1, UpdateItemCommand: 1 });

    const second = await countRequests(() => runOn('close-ideas', site.id, now, { units: 3 }));
    expect(second.result.sites[0]!.done).toEqual(ideas.slice(2).map((id) => `idea ${id} CLOSED`));
    expect(second.commands).toEqual({ GetItemCommand: 3, TransactWriteItemsCommand: 1 + 3, QueryCommand: 1, UpdateItemCommand: 1 });
    expect(second.result.more).toBe(false);
  });

  it('closes ideas created after a run when their time comes (the marker keeps its place)', async () => {
    const { site, member, ideas, createdAt } = await siteWithIdeas(1);
    await runOn('close-ideas', site.id, daysFrom(createdAt, 11));
    const later = await invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId: site.id }, body: IDEA, token: member.token });
    expect((await stored(site.id, later.body.id)).status).toBe('OPEN');
    const report = await runOn('close-ideas', site.id, daysFrom(createdAt, 12));
    expect(report.sites[0]!.done).toEqual([`idea ${later.body.id} CLOSED`]);
    expect((await stored(site.id, ideas[0]!)).version).toBe(2);
  });

  it('does nothing while the rule is off', async () => {
    const { site, ideas, createdAt } = await siteWithIdeas(1, rule(1, false));
    const report = await runOn('close-ideas', site.id, daysFrom(createdAt, 400));
    expect(report.sites).toEqual([]);
    expect((await stored(site.id, ideas[0]!)).status).toBe('OPEN');
  });
});
