/**
 * A crowd over the local HTTP stack: 50 vote rounds by one user at once, as a frontend's double
 * clicks or a script would send them. Lambda runs them side by side in as many instances as it needs;
 * the local handler host (scripts/sls/handler-host.cjs) runs them on its pool of workers. Every round
 * is answered 200 (it was applied) or 409 (it lost the race for the user's ballot through its
 * retries), never a timeout or a 500, and the tallies count exactly the votes the user holds after.
 */
import { describe, expect, inject, it } from 'vitest';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { issueToken } from '#lib/auth/jwt';
import type { SiteBody } from '#tests/support/bodies';
import type { IdeaRecord } from '#schemas/idea';

const apiUrl = inject('apiUrl');
const ROUNDS = 50;

async function call<T = unknown>(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { 'X-Authorization': `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

describe('50 vote rounds by one user at once', () => {
  it('answers each 200 or 409, and the tallies count exactly the votes that stand', async () => {
    const site = await call<SiteBody>('POST', '/api/site', SERVICE_TOKEN, {
      name: 'crowd',
      config: { votes: { isViewable: true, isActive: true, voteType: 'likes', requiredUserRole: 'member' } },
    });
    expect(site.status).toBe(201);
    const siteId = site.body.id;
    const user = await call<{ id: number }>('POST', `/api/site/${siteId}/user`, SERVICE_TOKEN, { email: 'crowd@example.org', role: 'member' });
    expect(user.status).toBe(201);
    const token = await issueToken({ userId: user.body.id, siteId });
    const ideas: number[] = [];
    for (const title of ['A bench in the park', 'Trees along the canal']) {
      const idea = await call<IdeaRecord>('POST', `/api/site/${siteId}/idea`, SERVICE_TOKEN, { title, summary: 'Somewhere to sit in the shade', description: 'x'.repeat(150) });
      expect(idea.status).toBe(201);
      ideas.push(idea.body.id);
    }

    // Each round likes or dislikes one of two ideas: the rounds disagree, and every one changes the user's ballot.
    const rounds = Array.from({ length: ROUNDS }, (_, i) => [{ ideaId: ideas[i % 2]!, opinion: i % 3 === 0 ? 'no' : 'yes' }]);
    const answers = await Promise.all(rounds.map((round) => call<unknown>('POST', `/api/site/${siteId}/vote`, token, round)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 409), JSON.stringify(answers.filter((a) => a.status !== 200 && a.status !== 409).slice(0, 3))).toEqual([]);
    expect(statuses).toContain(200);

    // The tallies count exactly the votes the user holds now, whatever order the rounds committed in.
    const votes = await call<{ records: Array<{ ideaId: number; opinion: string }> }>('GET', `/api/site/${siteId}/vote`, SERVICE_TOKEN);
    expect(votes.status).toBe(200);
    // No count is expected: a like given twice is taken back (likes toggle), so the accepted rounds
    // may cancel out to an empty ballot, whose tallies must then be zero.
    for (const id of ideas) {
      const idea = await call<IdeaRecord & { yes: number; no: number }>('GET', `/api/site/${siteId}/idea/${id}?includeVoteCount=1`, SERVICE_TOKEN);
      const held = (opinion: string) => votes.body.records.filter((v) => v.ideaId === id && v.opinion === opinion).length;
      expect({ id, yes: idea.body.yes, no: idea.body.no }).toEqual({ id, yes: held('yes'), no: held('no') });
    }
  });
});
