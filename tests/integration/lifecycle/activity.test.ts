/**
 * `lastActivityAt`: a write on the site refreshes it at most once a day per user (one conditional
 * UpdateItem on the first write of a day, nothing after), clears an inactivity warning and moves the
 * user on the activity index; reads do not count.
 */
import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { createLifecycleSite, getStoredUser, putUser, runOn } from './helpers.ts';
import type { IdeaRecord } from '#schemas/idea';

const IDEA = { title: 'A park by the river', summary: 'Green space for everyone nearby', description: 'A long description. '.repeat(10) };
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString();

describe('activity of a user', () => {
  it('is recorded by the first write of a day only: one request more, then none', async () => {
    const site = await createLifecycleSite({});
    const user = await putUser(site.id, { lastActivityAt: yesterday() });
    const post = () => invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId: site.id }, body: IDEA, token: user.token });

    const first = await countRequests(post);
    expect(first.result.status).toBe(201);
    const stored = await getStoredUser(site.id, user.id);
    expect(stored!.lastActivityAt!.slice(0, 10)).toBe(new Date().toISOString().slice(0, 10));
    expect(stored!.GSI2SK).toBe(`A#${stored!.lastActivityAt}#${String(user.id).padStart(10, '0')}`);

    const second = await countRequests(post);
    expect(second.result.status).toBe(201);
    expect(first.requests).toBe(second.requests + 1);
    expect(first.commands.UpdateItemCommand).toBe((second.commands.UpdateItemCommand ?? 0) + 1);
    expect((await getStoredUser(site.id, user.id))!.lastActivityAt).toBe(stored!.lastActivityAt);
  });

  it('is not recorded by reads', async () => {
    const site = await createLifecycleSite({});
    const before = yesterday();
    const user = await putUser(site.id, { lastActivityAt: before });
    expect((await invoke(listIdeas, { params: { siteId: site.id }, token: user.token })).status).toBe(200);
    expect((await getStoredUser(site.id, user.id))!.lastActivityAt).toBe(before);
  });

  it('clears an inactivity warning', async () => {
    const site = await createLifecycleSite({ anonymize: { warnUsersAfterXDaysOfInactivity: 1, anonymizeUsersAfterXDaysOfInactivity: 30 } });
    const user = await putUser(site.id, { lastActivityAt: new Date(Date.now() - 3 * 86_400_000).toISOString() });
    await runOn('anonymize-inactive', site.id, new Date());
    expect((await getStoredUser(site.id, user.id))!.warnedAt).toBeDefined();
    expect((await invoke(createIdea, { method: 'POST', params: { siteId: site.id }, body: IDEA, token: user.token })).status).toBe(201);
    const stored = await getStoredUser(site.id, user.id);
    expect(stored!.warnedAt).toBeUndefined();
    expect(stored!.GSI2SK.startsWith('A#')).toBe(true);
  });
});
