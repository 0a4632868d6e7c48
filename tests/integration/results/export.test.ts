/**
 * The exports (CONTRACT "Decided details, results and exports"): admin and service token only; CSV
 * with a header row and Pabulib with its three sections; long exports in pages joined by a sealed
 * cursor and a `Link: <...>; rel="next"` header, which concatenated give the whole file; requests per
 * 1,000 ballots.
 */
import { describe, expect, it } from 'vitest';
import { exportVotes } from '#lib/results/export';
import { loadSite } from '#lib/sites/site';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { putBallots } from '#tests/support/ballot-fixtures';
import { createIdea } from '#tests/support/vote-fixtures';
import { putIdea } from '#tests/support/ideas-fixture';
import { countRequests } from '#tests/support/request-counter';
import { call } from '../../../scripts/lambda-call.ts';
import { handler as votesHandler } from '../../../functions/results/export-votes.ts';
import { handler as ideasHandler } from '../../../functions/results/export-ideas.ts';

type Handler = typeof votesHandler;

/** The rows of a CSV whose cells hold no separators or quotes (the tests' data). */
const parse = (text: string): string[][] => text.split('\r\n').filter((line) => line !== '').map((line) => line.split(','));

async function getText(handler: Handler, siteId: number, query: Record<string, string>, token?: string) {
  const path = handler === votesHandler ? '/api/site/{siteId}/export/votes' : '/api/site/{siteId}/export/ideas';
  const answer = await call(handler, { method: 'GET', path, params: { siteId }, query, ...(token ? { token } : {}) });
  return { status: answer.status, text: answer.text, headers: answer.headers };
}

const SERVICE = { token: SERVICE_TOKEN };

describe('who may export', () => {
  it.each([
    ['votes', votesHandler, { format: 'csv' }],
    ['ideas', ideasHandler, { format: 'csv' }],
  ] as const)('%s: admin and service token; member, moderator 403; nobody 401; another site admin 401', async (_name, handler, query) => {
    const site = await createSite({ votes: { voteType: 'likes' } });
    const other = await createSite();
    const [member, moderator, admin, foreignAdmin] = await Promise.all([
      createUser(site.id, 'member'),
      createUser(site.id, 'moderator'),
      createUser(site.id, 'admin'),
      createUser(other.id, 'admin'),
    ]);
    expect((await getText(handler, site.id, query)).status).toBe(401);
    expect((await getText(handler, site.id, query, member.token)).status).toBe(403);
    expect((await getText(handler, site.id, query, moderator.token)).status).toBe(403);
    expect((await getText(handler, site.id, query, foreignAdmin.token)).status).toBe(401);
    expect((await getText(handler, site.id, query, admin.token)).status).toBe(200);
    expect((await getText(handler, site.id, query, SERVICE.token)).status).toBe(200);
  });

  it('a missing or unknown format is a 400 (after access)', async () => {
    const site = await createSite();
    const member = await createUser(site.id, 'member');
    expect((await getText(votesHandler, site.id, {}, member.token)).status).toBe(403);
    expect((await getText(votesHandler, site.id, { format: 'xlsx' }, SERVICE.token)).status).toBe(400);
    expect((await getText(votesHandler, site.id, {}, SERVICE.token)).status).toBe(400);
    expect((await getText(ideasHandler, site.id, { format: 'pabulib' }, SERVICE.token)).status).toBe(400);
  });
});

describe('formats', () => {
  it('votes as CSV: a header row, one row per vote, quoted correctly, text/csv, with the security headers', async () => {
    const site = await createSite({ votes: { voteType: 'count' } });
    const a = await createIdea(site.id);
    const b = await createIdea(site.id);
    const [u1, u2] = await putBallots(site.id, [{ ideaIds: [a.id, b.id] }, { ideaIds: [b.id] }, { ideaIds: [] }]);
    const answer = await getText(votesHandler, site.id, { format: 'csv' }, SERVICE.token);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['link']).toBeUndefined();
    const rows = parse(answer.text) as string[][];
    expect(rows[0]).toEqual(['id', 'userId', 'ideaId', 'opinion', 'createdAt']);
    expect(rows.slice(1).map((r) => [Number(r[1]), Number(r[2]), r[3]])).toEqual([
      [u1, a.id, 'yes'],
      [u1, b.id, 'yes'],
      [u2, b.id, 'yes'],
    ]);
  });

  it('votes as Pabulib: META, PROJECTS and VOTES; empty ballots are no voters', async () => {
    const site = await createSite({ votes: { voteType: 'budgeting', maxBudget: 500 } });
    const a = await putIdea(site.id, { budget: 100, fields: { title: 'Trees; "green" park' } });
    const b = await createIdea(site.id, { budget: 300, theme: 'roads' });
    const [u1, u2] = await putBallots(site.id, [{ ideaIds: [b.id, a.id] }, { ideaIds: [b.id] }, { ideaIds: [] }]);
    const answer = await getText(votesHandler, site.id, { format: 'pabulib' }, SERVICE.token);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = answer.text.trimEnd().split('\n');
    expect(lines[0]).toBe('META');
    expect(lines).toContain('num_projects;2');
    expect(lines).toContain('num_votes;2');
    expect(lines).toContain('budget;500');
    expect(lines).toContain('vote_type;approval');
    const projects = lines.indexOf('PROJECTS');
    const votes = lines.indexOf('VOTES');
    expect(projects).toBeGreaterThan(0);
    expect(lines[projects + 1]).toBe('project_id;cost;votes;name;category');
    // A name with the separator and quotes is quoted as CSV quotes it.
    expect(lines[projects + 2]).toBe(`${a.id};100;0;"Trees; ""green"" park";`);
    // Voter ids are opaque (16 hex digits, not the user ids), rows in voter id order.
    const rows = lines.slice(votes + 2);
    expect(lines[votes + 1]).toBe('voter_id;vote');
    expect(rows.map((row) => row.split(';')[1]).sort()).toEqual([`${a.id},${b.id}`, `${b.id}`].sort());
    const ids = rows.map((row) => row.split(';')[0]!);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    for (const userId of [u1!, u2!]) expect(ids).not.toContain(String(userId));
    expect(ids).toEqual([...ids].sort());
  });

  it('Pabulib voter ids are random per export: two exports share none, and one export keeps one id per voter across its pages', async () => {
    const site = await createSite({ votes: { voteType: 'count' } });
    const ideas = await Promise.all(Array.from({ length: 4 }, () => createIdea(site.id)));
    // Every ballot different, so a row's content names its voter in both exports.
    const picks = Array.from({ length: 15 }, (_, i) => ideas.filter((_, j) => ((i + 1) >> j) & 1).map((x) => x.id));
    await putBallots(site.id, picks.map((ideaIds) => ({ ideaIds })));
    const loaded = await loadSite(site.id);
    const caller = { kind: 'service' } as never;
    const rowsOf = (text: string) => text.split('VOTES\n')[text.includes('VOTES\n') ? 1 : 0]!.split('\n').filter((line) => line !== '' && line !== 'voter_id;vote').map((line) => line.split(';') as [string, string]);

    /** A whole export through its cursors, a few rows per answer and three ballots per Query page. */
    async function paged() {
      const pages: [string, string][][] = [];
      let cursor: string | undefined;
      do {
        const page = await exportVotes(loaded, caller, { format: 'pabulib', ...(cursor ? { cursor } : {}) }, undefined, { bytes: 40, queryLimit: 3 });
        pages.push(rowsOf(page.text));
        cursor = page.next === null ? undefined : decodeURIComponent(/cursor=([^&]+)/.exec(page.next)![1]!);
      } while (cursor);
      return pages;
    }
    const first = await paged();
    const second = await paged();
    expect(first.length).toBeGreaterThan(2);
    for (const pages of [first, second]) {
      const rows = pages.flat();
      // One row per voter in all: no voter on two pages or on none, whatever page their ballot was read in.
      expect(rows).toHaveLength(15);
      expect(rows.map(([, vote]) => vote).sort()).toEqual(picks.map((ids) => [...ids].sort((x, y) => x - y).join(',')).sort());
      // In voter id order across the pages (not in ballot, i.e. user id, order).
      const ids = rows.map(([id]) => id);
      expect(ids).toEqual([...ids].sort());
      expect(new Set(ids).size).toBe(15);
    }
    // The same voter (the same ballot) has another id in the other export; no id is in both.
    const idByVote = (pages: [string, string][][]) => new Map(pages.flat().map(([id, vote]) => [vote, id]));
    const [one, two] = [idByVote(first), idByVote(second)];
    for (const [vote, id] of one) expect(two.get(vote)).not.toBe(id);
    const shared = [...one.values()].filter((id) => [...two.values()].includes(id));
    expect(shared).toEqual([]);
    // Nor does the order of one export tell the order of the other.
    const order = (pages: [string, string][][]) => pages.flat().map(([, vote]) => vote);
    expect(order(first)).not.toEqual(order(second));
  });

  it('Pabulib of a likes site is a 400 (use CSV)', async () => {
    const site = await createSite({ votes: { voteType: 'likes' } });
    expect((await getText(votesHandler, site.id, { format: 'pabulib' }, SERVICE.token)).status).toBe(400);
  });

  it('ideas as CSV: tallies, status, budget, theme; a formula in a title is not run', async () => {
    const site = await createSite({ votes: { voteType: 'likes' } });
    const idea = await createIdea(site.id, { budget: 250, theme: 'park' });
    const answer = await getText(ideasHandler, site.id, { format: 'csv' }, SERVICE.token);
    const rows = parse(answer.text) as string[][];
    expect(rows[0]).toEqual(['id', 'title', 'status', 'budget', 'theme', 'yes', 'no', 'createdAt']);
    expect(rows[1]!.slice(0, 7)).toEqual([String(idea.id), expect.any(String), 'OPEN', '250', 'park', '0', '0']);
  });
});

describe('paging', () => {
  it('pages joined by the Link header concatenate to the one-page export; cursors are bound to site, list and format', async () => {
    const site = await createSite({ votes: { voteType: 'count' } });
    const ideas = [await createIdea(site.id), await createIdea(site.id)];
    await putBallots(site.id, Array.from({ length: 10 }, (_, i) => ({ ideaIds: ideas.slice(0, 1 + (i % 2)).map((x) => x.id) })));
    const loaded = await loadSite(site.id);
    const caller = { kind: 'service' } as never;
    for (const format of ['csv', 'pabulib'] as const) {
      const whole = await exportVotes(loaded, caller, { format });
      expect(whole.next).toBeNull();
      const parts: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await exportVotes(loaded, caller, { format, ...(cursor ? { cursor } : {}) }, undefined, { bytes: 1, queryLimit: 3 });
        parts.push(page.text);
        pages++;
        cursor = page.next === null ? undefined : decodeURIComponent(/cursor=([^&]+)/.exec(page.next)![1]!);
      } while (cursor);
      if (format === 'csv') {
        expect(pages).toBe(4);
        expect(parts.join('')).toBe(whole.text);
      } else {
        // Pabulib: one row per answer at this target; the ids are the export's own (another key than
        // the whole export's), so the pages hold the same votes as the whole, in voter id order.
        expect(pages).toBe(10);
        const rows = (text: string) => text.split('VOTES\n').at(-1)!.split('\n').filter((line) => line !== '' && line !== 'voter_id;vote');
        const votesOf = (text: string) => rows(text).map((row) => row.split(';')[1]).sort();
        expect(votesOf(parts.join(''))).toEqual(votesOf(whole.text));
        const ids = rows(parts.join('')).map((row) => row.split(';')[0]);
        expect(ids).toEqual([...ids].sort());
        expect(parts.join('').split('VOTES\n')[0]).toBe(whole.text.split('VOTES\n')[0]);
      }
    }
    // A CSV cursor does not continue the Pabulib export, nor another site's.
    const csvPage = await exportVotes(loaded, caller, { format: 'csv' }, undefined, { bytes: 1, queryLimit: 3 });
    const csvCursor = decodeURIComponent(/cursor=([^&]+)/.exec(csvPage.next!)![1]!);
    expect((await getText(votesHandler, site.id, { format: 'pabulib', cursor: csvCursor }, SERVICE.token)).status).toBe(400);
    const other = await createSite({ votes: { voteType: 'count' } });
    expect((await getText(votesHandler, other.id, { format: 'csv', cursor: csvCursor }, SERVICE.token)).status).toBe(400);
    expect((await getText(ideasHandler, site.id, { format: 'csv', cursor: csvCursor }, SERVICE.token)).status).toBe(400);
    // Through HTTP the cursor works and the Link header is absent on the last page.
    const last = await getText(votesHandler, site.id, { format: 'csv', cursor: csvCursor }, SERVICE.token);
    expect(last.status).toBe(200);
    expect(last.headers['link']).toBeUndefined();
  });

  it('the Link header points at the next page', async () => {
    const { nextLink } = await import('#lib/results/link');
    expect(nextLink('/api/site/3/export/votes', 'format=csv&cursor=abc')).toEqual({ link: '</api/site/3/export/votes?format=csv&cursor=abc>; rel="next"' });
    expect(nextLink('/api/site/3/export/votes', null)).toBeUndefined();
  });
});

describe('cost per 1,000 ballots', () => {
  it('CSV: one Query page of ballots (under 1 MB); Pabulib adds the ideas and the tallies', async () => {
    const site = await createSite({ votes: { voteType: 'count' } });
    const ideas = await Promise.all(Array.from({ length: 10 }, () => createIdea(site.id)));
    await putBallots(site.id, Array.from({ length: 1000 }, (_, i) => ({ ideaIds: ideas.filter((_, j) => (i + j) % 3 === 0).map((x) => x.id) })));
    const csv = await countRequests(() => getText(votesHandler, site.id, { format: 'csv' }, SERVICE.token));
    expect(csv.result.status).toBe(200);
    expect(csv.commands).toEqual({ GetItemCommand: 1, QueryCommand: 1 });
    const pb = await countRequests(() => getText(votesHandler, site.id, { format: 'pabulib' }, SERVICE.token));
    expect(pb.result.status).toBe(200);
    expect(pb.result.text).toContain('num_votes;1000');
    // Ballots (every answer reads them all), ideas and the tallies (GSI3, tally items only).
    expect(pb.commands).toEqual({ GetItemCommand: 1, QueryCommand: 3 });
    const ideasCsv = await countRequests(() => getText(ideasHandler, site.id, { format: 'csv' }, SERVICE.token));
    expect(ideasCsv.commands).toEqual({ GetItemCommand: 1, QueryCommand: 2 });
  });
});
