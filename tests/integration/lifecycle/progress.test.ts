/** `progress` on ideas with visible counts: min(100, round(100 * yes / ideas.minimumYesVotes)). */
import { describe, expect, it } from 'vitest';
import { createSite, createUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { castVotes, createIdeas } from '#tests/support/vote-fixtures';
import { handler as getIdea } from '../../../functions/ideas/get.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import type { IdeaRecord } from '#schemas/idea';
import type { ListEnvelope } from '#tests/support/bodies';

describe('idea progress', () => {
  it('is the share of minimumYesVotes reached, capped at 100, only where counts are shown', async () => {
    const site = await createSite({ votes: { isActive: true, isViewable: true, maxIdeas: 2 }, ideas: { minimumYesVotes: 3 } });
    const [one, two] = await createIdeas(site.id, 2);
    for (let i = 0; i < 4; i++) {
      const user = await createUser(site.id);
      const ideas = i < 1 ? [one, two] : [two];
      expect((await castVotes(site.id, user.token, ideas.map((ideaId) => ({ ideaId, opinion: 'yes' })))).status).toBe(200);
    }
    const read = (ideaId: number, query: Record<string, string>) => invoke<IdeaRecord>(getIdea, { params: { siteId: site.id, ideaId }, query });
    expect((await read(one, { includeVoteCount: '1' })).body).toMatchObject({ yes: 1, progress: 33 });
    expect((await read(two, { includeVoteCount: '1' })).body).toMatchObject({ yes: 4, progress: 100 });
    expect((await read(one, {})).body.progress).toBeUndefined();
    const listed = await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id }, query: { includeVoteCount: '1' } });
    expect(listed.body.records.map((r) => [r.id, r.progress])).toEqual([[two, 100], [one, 33]]);
  });

  it('is absent when the counts are hidden from the caller', async () => {
    const site = await createSite({ votes: { isActive: true, isViewable: false } });
    const [idea] = await createIdeas(site.id, 1);
    const res = await invoke<IdeaRecord>(getIdea, { params: { siteId: site.id, ideaId: idea }, query: { includeVoteCount: '1' } });
    expect(res.body.yes).toBeUndefined();
    expect(res.body.progress).toBeUndefined();
  });

  it('uses the default minimumYesVotes of 100', async () => {
    const site = await createSite({ votes: { isActive: true, isViewable: true } });
    const [idea] = await createIdeas(site.id, 1);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: idea, opinion: 'yes' }])).status).toBe(200);
    const res = await invoke<IdeaRecord>(getIdea, { params: { siteId: site.id, ideaId: idea }, query: { includeVoteCount: '1' } });
    expect(res.body).toMatchObject({ yes: 1, progress: 1 });
  });
});
