/**
 * The exports of a site's votes (CSV, Pabulib) and ideas (CSV) in lib/results/export.ts, with the
 * store as a double: only a service token or an admin of this very site exports; an answer reads
 * pages until its text passes the target and says where to go on (a cursor bound to the site, the
 * list and the format); the CSV header and the Pabulib META/PROJECTS head come on the first page only;
 * Pabulib carries approval ballots only, voters under opaque ids in pseudonym order, and no empty ballot.
 */
import { createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Caller } from '#lib/auth/caller';
import { decodeCursorObject, encodeCursor, encodeCursorObject } from '#lib/store/db/cursor';
import { withDefaults } from '#lib/sites/config-defaults';
import type { Site } from '#lib/sites/site';

type Item = Record<string, unknown> & { SK: string };
const world = vi.hoisted(() => ({
  ranges: { ballots: [] as Item[], ideas: [] as Item[] },
  pages: [] as Array<{ range: string; start: unknown; limit: number | undefined }>,
  tallies: new Map<number, Record<string, number>>(),
  voters: 0,
}));

vi.mock('#lib/store/ballots/site-ranges', () => ({
  siteRangePage: vi.fn(async (siteId: number, range: 'ballots' | 'ideas', start: { SK: string } | undefined, limit?: number) => {
    world.pages.push({ range, start, limit });
    const all = world.ranges[range];
    const from = start ? all.findIndex((item) => item.SK === start.SK) + 1 : 0;
    const items = all.slice(from, from + (limit ?? all.length));
    const lastItem = items.at(-1);
    const more = from + items.length < all.length;
    return { items, last: more && lastItem ? { PK: `SITE#${siteId}`, SK: lastItem.SK } : undefined };
  }),
  readSiteIdeas: vi.fn(async () => world.ranges.ideas),
}));
vi.mock('#lib/store/ideas/tallies', () => ({ readSiteTallies: vi.fn(async () => world.tallies) }));

const { exportIdeas, exportVotes } = await import('#lib/results/export');

/** The votes CSV's columns (docs/results.md). */
const VOTE_CSV_COLUMNS = ['id', 'userId', 'ideaId', 'opinion', 'createdAt'];

const SITE_ID = 4;
const siteWith = (votes: Record<string, unknown> = {}, more: Record<string, unknown> = {}): Site =>
  ({ id: SITE_ID, name: 'Wijk', title: 'Wijkbudget', createdAt: '2026-01-10T08:00:00.000Z', config: withDefaults({ votes: { voteType: 'budgeting', ...votes } }), ...more }) as unknown as Site;
const SERVICE: Caller = { kind: 'service', role: 'admin', userId: undefined };
const user = (role: 'moderator' | 'admin', siteId = SITE_ID): Caller => ({ kind: 'user', role, userId: 1, siteId, user: {} as never });
const vote = (id: number, opinion: string) => ({ id, opinion, createdAt: `2026-02-0${id % 9}T10:00:00.000Z` });
const ballot = (userId: number, votes: Record<number, ReturnType<typeof vote>>): Item => ({ SK: `BALLOT#${userId}`, userId, votes });
const idea = (id: number, budget?: number, theme?: string): Item => ({
  SK: `IDEA#${id}`,
  id,
  title: `Idea ${id}`,
  status: 'OPEN',
  createdAt: '2026-01-20T10:00:00.000Z',
  ...(budget === undefined ? {} : { budget }),
  ...(theme === undefined ? {} : { extraData: { theme } }),
});
const lines = (text: string) => text.split(/\r?\n/).filter((line) => line !== '');
const rejected = <V extends object>(v: V) => ({ ...v, review: { rejected: true, by: 3, at: '2026-02-10T00:00:00.000Z' } });

/** A Pabulib export under a key the test knows, so its voter ids are known: HMAC of site and user id, 16 hex digits. */
const PABULIB_SCOPE = { siteId: SITE_ID, list: 'export-votes', query: { format: 'pabulib' } };
const EXPORT_KEY = Buffer.alloc(32, 7);
const voterIdOf = (userId: number) => createHmac('sha256', EXPORT_KEY).update(`${SITE_ID}:${userId}`).digest('hex').slice(0, 16);
const pabulibCursorAfter = (after: string) => encodeCursorObject({ key: EXPORT_KEY.toString('base64url'), after }, PABULIB_SCOPE);
const cursorOf = (next: string | null) => decodeURIComponent(/cursor=(.+)$/.exec(next ?? '')?.[1] ?? '');

beforeEach(() => {
  world.ranges = {
    ballots: [ballot(11, { 1: vote(1, 'yes'), 2: vote(2, 'no') }), ballot(12, {}), ballot(13, { 2: vote(3, 'yes') }), ballot(14, { 1: vote(4, 'yes'), 3: vote(5, 'yes') })],
    ideas: [idea(1, 300, 'green'), idea(2, 500), idea(3)],
  };
  world.pages = [];
  world.tallies = new Map<number, Record<string, number>>([[1, { yes: 2 }], [2, { yes: 1, no: 1 }]]);
  world.voters = 3;
});

describe('who exports', () => {
  it('is a service token or an admin of this very site; nothing is read for anybody else', async () => {
    await expect(exportVotes(siteWith(), user('moderator'), { format: 'csv' })).rejects.toMatchObject({ status: 403 });
    await expect(exportVotes(siteWith(), user('admin', SITE_ID + 1), { format: 'csv' })).rejects.toMatchObject({ status: 403 });
    await expect(exportIdeas(siteWith(), user('moderator'), { format: 'csv' })).rejects.toMatchObject({ status: 403 });
    expect(world.pages).toEqual([]);
    await expect(exportVotes(siteWith(), user('admin'), { format: 'csv' })).resolves.toMatchObject({ next: null });
    await expect(exportVotes(siteWith(), SERVICE, { format: 'csv' })).resolves.toMatchObject({ next: null });
  });
});

describe('the votes as CSV', () => {
  it('is one row per vote with the voter, under a header, on one page when small', async () => {
    const page = await exportVotes(siteWith(), SERVICE, { format: 'csv' });
    expect(page.contentType).toBe('text/csv; charset=utf-8');
    expect(page.next).toBeNull();
    expect(page.text.startsWith(`${VOTE_CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    expect(lines(page.text)).toEqual([
      VOTE_CSV_COLUMNS.join(','),
      `1,11,1,yes,${vote(1, '').createdAt}`,
      `2,11,2,no,${vote(2, '').createdAt}`,
      `3,13,2,yes,${vote(3, '').createdAt}`,
      `4,14,1,yes,${vote(4, '').createdAt}`,
      `5,14,3,yes,${vote(5, '').createdAt}`,
    ]);
  });

  it('stops reading once the text passes the target, and goes on from the cursor without a header', async () => {
    const first = await exportVotes(siteWith(), SERVICE, { format: 'csv' }, undefined, { bytes: 1, queryLimit: 1 });
    expect(lines(first.text)).toEqual([VOTE_CSV_COLUMNS.join(','), `1,11,1,yes,${vote(1, '').createdAt}`, `2,11,2,no,${vote(2, '').createdAt}`]);
    expect(first.next).toMatch(/^format=csv&cursor=/);
    const texts = [first.text];
    let next = first.next;
    while (next !== null) {
      const page = await exportVotes(siteWith(), SERVICE, { format: 'csv', cursor: cursorOf(next) }, undefined, { bytes: 1, queryLimit: 1 });
      expect(page.text.startsWith('id,')).toBe(false);
      texts.push(page.text);
      next = page.next;
    }
    expect(lines(texts.join(''))).toEqual(lines((await exportVotes(siteWith(), SERVICE, { format: 'csv' })).text));
  });

  it('reads pages until the text passes the target (an empty ballot adds nothing)', async () => {
    const page = await exportVotes(siteWith(), SERVICE, { format: 'csv' }, undefined, { bytes: 100, queryLimit: 1 });
    expect(world.pages.map((p) => p.limit)).toEqual([1, 1, 1]);
    expect(lines(page.text)).toHaveLength(4);
    expect(page.next).not.toBeNull();
  });

  it('stops at the Query page whose text reaches the target exactly; one byte more and it reads on', async () => {
    const firstBallot = `1,11,1,yes,${vote(1, '').createdAt}\r\n2,11,2,no,${vote(2, '').createdAt}\r\n`;
    const target = Buffer.byteLength(firstBallot);
    const page = await exportVotes(siteWith(), SERVICE, { format: 'csv' }, undefined, { bytes: target, queryLimit: 1 });
    expect(page.text).toBe(`${VOTE_CSV_COLUMNS.join(',')}\r\n${firstBallot}`);
    expect(world.pages).toHaveLength(1);
    expect(page.next).toMatch(/^format=csv&cursor=/);
    world.pages = [];
    // Past the empty ballot (no text) to the third one.
    await exportVotes(siteWith(), SERVICE, { format: 'csv' }, undefined, { bytes: target + 1, queryLimit: 1 });
    expect(world.pages).toHaveLength(3);
  });

  it('leaves out a vote a moderator rejected; a reinstated one is in', async () => {
    const reinstated = { ...vote(5, 'yes'), review: { rejected: false, by: null, at: '2026-02-11T00:00:00.000Z' } };
    world.ranges.ballots = [ballot(11, { 1: vote(1, 'yes'), 2: rejected(vote(2, 'no')) }), ballot(13, { 2: rejected(vote(3, 'yes')) }), ballot(14, { 3: reinstated })];
    const page = await exportVotes(siteWith(), SERVICE, { format: 'csv' });
    expect(lines(page.text)).toEqual([VOTE_CSV_COLUMNS.join(','), `1,11,1,yes,${vote(1, '').createdAt}`, `5,14,3,yes,${vote(5, '').createdAt}`]);
  });

  it('refuses a cursor of another format, list or site', async () => {
    const { next } = await exportVotes(siteWith(), SERVICE, { format: 'csv' }, undefined, { bytes: 1, queryLimit: 1 });
    const cursor = cursorOf(next);
    await expect(exportVotes(siteWith(), SERVICE, { format: 'pabulib', cursor })).rejects.toMatchObject({ status: 400 });
    await expect(exportIdeas(siteWith(), SERVICE, { format: 'csv', cursor })).rejects.toMatchObject({ status: 400 });
    await expect(exportVotes({ ...siteWith(), id: SITE_ID + 1 } as Site, SERVICE, { format: 'csv', cursor })).rejects.toMatchObject({ status: 400 });
  });
});

describe('the votes as Pabulib', () => {
  const NOW = new Date('2026-03-01T12:00:00.000Z');

  it('holds META and PROJECTS from the site and its ideas, then the approvals of each voting ballot under an opaque id', async () => {
    const page = await exportVotes(siteWith({ maxBudget: 700, minIdeas: 1, maxIdeas: 2, isActiveFrom: '2026-02-01T00:00:00.000Z', isActiveTo: '2026-02-20T00:00:00.000Z' }), SERVICE, { format: 'pabulib' }, () => NOW);
    expect(page.contentType).toBe('text/plain; charset=utf-8');
    expect(page.next).toBeNull();
    const text = lines(page.text);
    const meta = Object.fromEntries(text.slice(1, text.indexOf('PROJECTS')).map((l) => l.split(';')));
    expect(meta).toMatchObject({
      description: 'Wijkbudget',
      unit: 'Wijk',
      instance: String(SITE_ID),
      num_votes: '3',
      budget: '700',
      vote_type: 'approval',
      rule: 'unknown',
      date_begin: '01.02.2026',
      date_end: '20.02.2026',
      min_length: '1',
      max_length: '2',
      vote_type_api: 'budgeting',
    });
    const projects = text.slice(text.indexOf('PROJECTS') + 2, text.indexOf('VOTES'));
    expect(projects.map((l) => l.split(';').slice(0, 4))).toEqual([
      ['1', '300', '2', 'Idea 1'],
      ['2', '500', '1', 'Idea 2'],
      ['3', '0', '0', 'Idea 3'],
    ]);
    expect(projects[0]).toContain('green');
    const votes = text.slice(text.indexOf('VOTES') + 2).map((l) => l.split(';'));
    // Voters 11, 13 and 14 (12's ballot is empty), each under an id of its own, in id order.
    expect(votes.map((v) => v[1]).sort()).toEqual(['1', '1,3', '2']);
    const ids = votes.map((v) => v[0]!);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(3);
  });

  it('takes the budget as the sum of the costs without a maximum, and the dates from the site and now without voting dates', async () => {
    const text = lines((await exportVotes(siteWith(), SERVICE, { format: 'pabulib' }, () => NOW)).text);
    const meta = Object.fromEntries(text.slice(1, text.indexOf('PROJECTS')).map((l) => l.split(';')));
    expect(meta).toMatchObject({ budget: '800', date_begin: '10.01.2026', date_end: '01.03.2026' });
    const bad = lines((await exportVotes(siteWith({ isActiveFrom: 'not a date' }), SERVICE, { format: 'pabulib' }, () => NOW)).text);
    expect(Object.fromEntries(bad.slice(1, bad.indexOf('PROJECTS')).map((l) => l.split(';')))).toMatchObject({ date_begin: '01.03.2026' });
  });

  it('gives every voter an id of 16 hex digits drawn for this export: another export of the site shares none', async () => {
    const idsOf = async () => lines((await exportVotes(siteWith(), SERVICE, { format: 'pabulib' }, () => NOW)).text.split('VOTES\n')[1]!).slice(1).map((l) => l.split(';')[0]!);
    const [one, two] = [await idsOf(), await idsOf()];
    expect(one).toHaveLength(3);
    expect(one.filter((id) => two.includes(id))).toEqual([]);
  });

  it('has its head on the first page only', async () => {
    const first = await exportVotes(siteWith(), SERVICE, { format: 'pabulib' }, () => NOW, { bytes: 1, queryLimit: 1 });
    expect(first.text.startsWith('META\n')).toBe(true);
    expect(first.next).toMatch(/^format=pabulib&cursor=/);
    const second = await exportVotes(siteWith(), SERVICE, { format: 'pabulib', cursor: cursorOf(first.next) }, () => NOW, { bytes: 1, queryLimit: 1 });
    expect(second.text).not.toContain('META');
    expect(second.text).not.toContain('PROJECTS');
  });

  it('paged one voter at a time, lists every voter exactly once, in voter id order across the pages', async () => {
    const rowsOf = (text: string) => lines(text.includes('VOTES\n') ? text.split('VOTES\n')[1]! : text).filter((l) => !l.startsWith('voter_id'));
    const whole = rowsOf((await exportVotes(siteWith(), SERVICE, { format: 'pabulib' }, () => NOW)).text);
    expect(whole).toHaveLength(3);
    const paged: string[] = [];
    let page = await exportVotes(siteWith(), SERVICE, { format: 'pabulib' }, () => NOW, { bytes: 1, queryLimit: 1 });
    for (let n = 0; n < 10; n += 1) {
      paged.push(...rowsOf(page.text));
      if (page.next === null) break;
      page = await exportVotes(siteWith(), SERVICE, { format: 'pabulib', cursor: cursorOf(page.next) }, () => NOW, { bytes: 1, queryLimit: 1 });
    }
    expect(paged).toHaveLength(3);
    const ids = paged.map((row) => row.split(';')[0]!);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(3);
    // One page large enough for everything has no next page.
    expect((await exportVotes(siteWith(), SERVICE, { format: 'pabulib' }, () => NOW, { bytes: 1_000_000, queryLimit: 1 })).next).toBeNull();
  });

  it('refuses a cursor of the right scope that does not hold an export key and a voter id', async () => {
    const scope = { siteId: SITE_ID, list: 'export-votes', query: { format: 'pabulib' } };
    const key = Buffer.alloc(32, 1).toString('base64url');
    const after = 'ab'.repeat(8);
    const good = encodeCursorObject({ key, after }, scope);
    await expect(exportVotes(siteWith(), SERVICE, { format: 'pabulib', cursor: good }, () => NOW)).resolves.toMatchObject({ contentType: expect.any(String) });
    const values = [{ after }, { key }, { key: 5, after }, { key: [key], after }, { key: `${key}=`, after }, { key, after: 7 }, { key, after: [after] }, { key, after: 'AB'.repeat(8) }, { key, after: `${after}0` }, { key, after, more: 1 }];
    for (const value of values) {
      await expect(exportVotes(siteWith(), SERVICE, { format: 'pabulib', cursor: encodeCursorObject(value, scope) }, () => NOW)).rejects.toMatchObject({ status: 400, message: 'Invalid cursor' });
    }
  });

  it('writes META and PROJECTS exactly: no country, the site name without a title, no category column when no idea has a theme', async () => {
    world.ranges.ideas = [idea(2), idea(1, 300)];
    world.tallies = new Map([[1, { yes: 2, no: 4 }]]);
    const site = siteWith({ maxBudget: 700, minIdeas: 1, maxIdeas: 2, isActiveFrom: '2026-02-01T00:00:00.000Z', isActiveTo: '2026-02-20T00:00:00.000Z' }, { title: undefined });
    const page = await exportVotes(site, SERVICE, { format: 'pabulib' }, () => NOW);
    expect(page.text.slice(0, page.text.indexOf('voter_id;vote\n'))).toBe(
      'META\nkey;value\ndescription;Wijk\ncountry;\nunit;Wijk\ninstance;4\nnum_projects;2\nnum_votes;3\nbudget;700\nvote_type;approval\nrule;unknown\n' +
        'date_begin;01.02.2026\ndate_end;20.02.2026\nmin_length;1\nmax_length;2\nvote_type_api;budgeting\n' +
        'PROJECTS\nproject_id;cost;votes;name\n1;300;2;Idea 1\n2;0;0;Idea 2\nVOTES\n',
    );
  });

  it('dates an export without voting dates by the clock, the real one unless told', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-04-05T23:30:00.000Z'));
      const text = lines((await exportVotes(siteWith({}, { createdAt: undefined }), SERVICE, { format: 'pabulib' })).text);
      expect(text.filter((l) => l.startsWith('date_'))).toEqual(['date_begin;05.04.2026', 'date_end;05.04.2026']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves out rejected votes: a ballot of rejected votes only is no voter', async () => {
    world.ranges.ballots = [ballot(11, { 1: vote(1, 'yes'), 2: rejected(vote(2, 'yes')) }), ballot(13, { 2: rejected(vote(3, 'yes')) }), ballot(14, { 3: vote(5, 'yes') })];
    const text = lines((await exportVotes(siteWith(), SERVICE, { format: 'pabulib' }, () => NOW)).text);
    expect(text).toContain('num_votes;2');
    expect(text.slice(text.indexOf('voter_id;vote') + 1).map((l) => l.split(';')[1]).sort()).toEqual(['1', '3']);
  });

  it('ends an answer with the row that reaches the target exactly, and goes on strictly after its voter id', async () => {
    world.ranges.ballots = [21, 22, 23, 24].map((userId) => ballot(userId, { 1: vote(userId, 'yes') }));
    const ids = [21, 22, 23, 24].map(voterIdOf).sort();
    // Every row is 19 bytes: 16 hex digits, ';', '1' and a line feed.
    const one = await exportVotes(siteWith(), SERVICE, { format: 'pabulib', cursor: pabulibCursorAfter('0'.repeat(16)) }, () => NOW, { bytes: 19 });
    expect(one.text).toBe(`${ids[0]};1\n`);
    expect(decodeCursorObject(cursorOf(one.next), PABULIB_SCOPE)).toEqual({ key: EXPORT_KEY.toString('base64url'), after: ids[0] });
    const two = await exportVotes(siteWith(), SERVICE, { format: 'pabulib', cursor: pabulibCursorAfter('0'.repeat(16)) }, () => NOW, { bytes: 20 });
    expect(two.text).toBe(`${ids[0]};1\n${ids[1]};1\n`);
    const rest = await exportVotes(siteWith(), SERVICE, { format: 'pabulib', cursor: pabulibCursorAfter(ids[1]!) }, () => NOW, { bytes: 1000 });
    expect(rest).toEqual({ contentType: 'text/plain; charset=utf-8', text: `${ids[2]};1\n${ids[3]};1\n`, next: null });
  });

  it('holds 4 MiB of rows in an answer unless told: it ends with the row that passes 4 MiB', async () => {
    // 2,500 voters approving the same 100 ideas with 16-digit ids: every row is 16 + 1 + 100 * 17 - 1 + 1 = 1,717 bytes.
    const votes = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [1_000_000_000_000_000 + i, vote(i + 1, 'yes')]));
    world.ranges.ballots = Array.from({ length: 2500 }, (_, u) => ballot(100 + u, votes));
    const page = await exportVotes(siteWith(), SERVICE, { format: 'pabulib', cursor: pabulibCursorAfter('0'.repeat(16)) }, () => NOW);
    const rows = page.text.split('\n').filter((row) => row !== '');
    expect(rows[0]).toHaveLength(1716);
    expect(rows).toHaveLength(Math.ceil((4 * 1024 * 1024) / 1717));
    expect(page.next).not.toBeNull();
  });

  it('is refused for a site whose ballots are not approvals, before anything is read', async () => {
    await expect(exportVotes(siteWith({ voteType: 'likes' }), SERVICE, { format: 'pabulib' })).rejects.toMatchObject({
      status: 400,
      message: 'Pabulib holds approval ballots; a likes site exports its votes with format=csv',
    });
    expect(world.pages).toEqual([]);
  });
});

describe('the ideas as CSV', () => {
  it('has one header, on the first page, and pages like the votes', async () => {
    const all = await exportIdeas(siteWith(), SERVICE, { format: 'csv' });
    expect(all.contentType).toBe('text/csv; charset=utf-8');
    expect(all.next).toBeNull();
    const rows = lines(all.text);
    expect(rows).toHaveLength(1 + 3);
    expect(rows.slice(1).map((r) => r.split(',')[0])).toEqual(['1', '2', '3']);
    const first = await exportIdeas(siteWith(), SERVICE, { format: 'csv' }, { bytes: 1, queryLimit: 2 });
    expect(lines(first.text)).toEqual(rows.slice(0, 3));
    expect(first.next).toMatch(/^format=csv&cursor=/);
    const rest = await exportIdeas(siteWith(), SERVICE, { format: 'csv', cursor: cursorOf(first.next) }, { bytes: 1, queryLimit: 2 });
    expect(lines(rest.text)).toEqual(rows.slice(3));
    expect(rest.next).toBeNull();
  });

  it('writes its header once however many Query pages an answer reads', async () => {
    const whole = await exportIdeas(siteWith(), SERVICE, { format: 'csv' });
    world.pages = [];
    const paged = await exportIdeas(siteWith(), SERVICE, { format: 'csv' }, { bytes: 1_000_000, queryLimit: 1 });
    expect(world.pages).toHaveLength(3);
    expect(paged.text).toBe(whole.text);
  });

  it('goes on from a cursor sealed for the ideas export of this site (the list export-ideas) and its format', async () => {
    const cursor = encodeCursor({ PK: `SITE#${SITE_ID}`, SK: 'IDEA#1' }, { siteId: SITE_ID, list: 'export-ideas', query: { format: 'csv' } })!;
    const rest = await exportIdeas(siteWith(), SERVICE, { format: 'csv', cursor });
    expect(lines(rest.text).map((row) => row.split(',')[0])).toEqual(['2', '3']);
    const first = await exportIdeas(siteWith(), SERVICE, { format: 'csv' }, { bytes: 1, queryLimit: 1 });
    expect(decodeCursorObject(cursorOf(first.next), { siteId: SITE_ID, list: 'export-ideas', query: { format: 'csv' } })).toEqual({ PK: `SITE#${SITE_ID}`, SK: 'IDEA#1' });
  });
});
