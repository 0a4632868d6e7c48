/**
 * On a site whose vote counts are hidden (`votes.isViewable: false`), the order by votes is the
 * ranking the counts would give. An anonymous browser or a member asking `/idea` or `/idea-marker`
 * for `sort=votes_desc|votes_asc` is refused (403, CONTRACT "Decided details, security"); who sees
 * the counts (moderators and above, everyone where they are public) may order by them.
 */
import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { errorOf, type ListEnvelope } from '#tests/support/bodies';
import { castVotes, seedIdeas } from '../ideas/helpers.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as listMarkers } from '../../../functions/ideas/markers.ts';

const lists = { idea: listIdeas, 'idea-marker': listMarkers } as const;
const call = (path: keyof typeof lists, siteId: number, sort: string, token?: string) =>
  invoke<ListEnvelope<{ id: number }>>(lists[path], { params: { siteId }, query: { sort }, ...(token ? { token } : {}) });

/** Three located ideas with 0, 2 and 1 yes votes: the order by votes is not the order of creation. */
async function rankedSite(config: Record<string, unknown>) {
  const site = await createSite(config);
  const ideas = await seedIdeas(site.id, 3, { location: { lat: 52.37, lng: 4.89 } });
  const voters = await Promise.all([1, 2].map(() => createUser(site.id, 'member')));
  await castVotes(site.id, voters[0]!.id, { [ideas[1]!.id]: 'yes', [ideas[2]!.id]: 'yes' });
  await castVotes(site.id, voters[1]!.id, { [ideas[1]!.id]: 'yes' });
  return { site, ideas: ideas.map((i) => i.id), member: voters[0]! };
}

describe('the hidden ranking through sort=votes_*', () => {
  it.each(['idea', 'idea-marker'] as const)('/%s: an anonymous browser and a member get 403, whichever direction', async (path) => {
    const { site, member } = await rankedSite({ votes: { isViewable: false } });
    for (const sort of ['votes_desc', 'votes_asc']) {
      for (const token of [undefined, member.token]) {
        const answer = await call(path, site.id, sort, token);
        expect(answer.status, `${sort} ${token ? 'member' : 'anonymous'}`).toBe(403);
        expect(errorOf(answer.body).message).toMatch(/ordered by votes/);
      }
    }
    // The creation order stays everyone's.
    expect((await call(path, site.id, 'createdate_desc')).status).toBe(200);
  });

  it.each(['idea', 'idea-marker'] as const)('/%s: a moderator and a service token see the ranking; so does everyone where counts are public', async (path) => {
    const hidden = await rankedSite({ votes: { isViewable: false } });
    const moderator = await createUser(hidden.site.id, 'moderator');
    for (const token of [moderator.token, SERVICE_TOKEN]) {
      const answer = await call(path, hidden.site.id, 'votes_desc', token);
      expect(answer.status).toBe(200);
      expect(answer.body.records.map((r) => r.id)).toEqual([hidden.ideas[1], hidden.ideas[2], hidden.ideas[0]]);
    }
    const open = await rankedSite({ votes: { isViewable: true } });
    const anonymous = await call(path, open.site.id, 'votes_desc');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.records.map((r) => r.id)).toEqual([open.ideas[1], open.ideas[2], open.ideas[0]]);
  });
});
