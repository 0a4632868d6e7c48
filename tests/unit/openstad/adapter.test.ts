/** The OpenStad adapter's pure parts: its handler table, dates, query and body reading, list shapes. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ROUTES } from '#lib/openapi/routes';
import { TARGETS } from '../../../functions/openstad/targets.ts';
import { humanizeDate } from '#lib/openstad/humanize';
import { lenientQuery, readOpenStadQuery } from '#lib/openstad/query';
import { locationFromGeoJson, numericId, translateBody } from '#lib/openstad/body';
import { pageEnvelope, sortIdeas } from '#lib/openstad/lists';
import { amsterdamDay, overview, perDay } from '#lib/openstad/stats';
import { listIdeasQuery } from '#schemas/idea';
import { ACCESS_CLASSES } from '#lib/config/access-classes';
import { OPENSTAD_FUNCTION } from '#lib/openstad/function';

describe('the handler table', () => {
  it('holds the handler of every main route (so every main path has its OpenStad twin)', () => {
    // The vote record's public key has a class of its own (a key only that function holds): not behind the surface.
    const handlers = new Set(ROUTES.filter((r) => r.dataAccess !== 'publicKey').map((r) => r.handler).filter((h) => !h.startsWith('functions/system/')));
    expect([...handlers].filter((h) => !(h in TARGETS))).toEqual([]);
    expect(TARGETS).toHaveProperty(['functions/system/not-found']);
  });

  it("runs in an access class that grants whatever any main route's class grants (it calls them all)", () => {
    const surface = ACCESS_CLASSES[OPENSTAD_FUNCTION.dataAccess];
    // It reads the service tokens itself (a CMS token without Bearer).
    expect(surface.secrets).toContain('serviceTokens');
    for (const route of ROUTES.filter((r) => r.handler in TARGETS)) {
      const grant = ACCESS_CLASSES[route.dataAccess];
      expect(grant.table.filter((action) => !(surface.table as readonly string[]).includes(action)), route.operationId).toEqual([]);
      expect(grant.secrets.filter((name) => !(surface.secrets as readonly string[]).includes(name)), route.operationId).toEqual([]);
    }
  });
});

describe('createDateHumanized', () => {
  it("is moment's LLL in Dutch, Amsterdam time", () => {
    expect(humanizeDate('2023-03-01T09:30:00.000Z')).toBe('1 maart 2023 10:30');
    expect(humanizeDate('2023-07-15T22:05:00.000Z')).toBe('16 juli 2023 00:05');
    expect(humanizeDate(undefined)).toBe('Onbekende datum');
  });
});

describe('query strings', () => {
  it("reads OpenStad's nested keys and ignores empty values", () => {
    const q = readOpenStadQuery('page=1&pageSize=10&sort=title&tags=&filters[theme]=groen&filters[area]=&exclude[theme][0]=x&tags[0]=3&tags[1]=4&search[criteria][0][title]=bank&search[options][andOr]=and');
    expect(q).toMatchObject({ page: 1, pageSize: 10, sort: 'title', main: { tags: '3,4', search: 'bank' } });
    expect([...q.filters]).toEqual([['theme', ['groen']]]);
    expect([...q.exclude]).toEqual([['theme', ['x']]]);
  });

  it('drops what the main route refuses and reads any other flag value as on', () => {
    expect(lenientQuery(listIdeasQuery, { includeVoteCount: 'yes', tags: 'a,b', status: 'OPEN', includeUser: '0' })).toEqual({ includeVoteCount: '1', status: 'OPEN', includeUser: '0' });
  });
});

describe('bodies', () => {
  it('turns canonical numeric strings into ids and leaves everything else for the main API to refuse', () => {
    expect(numericId('12')).toBe(12);
    for (const raw of ['012', '1e3', '-1', '1.5', '99999999999999999999', ' 12', '']) expect(numericId(raw)).toBe(raw);
    fc.assert(fc.property(fc.string(), (s) => typeof numericId(s) !== 'number' || String(numericId(s)) === s));
  });

  it('reads GeoJSON points, also as a JSON string', () => {
    expect(locationFromGeoJson('{"type":"Point","coordinates":[52.1,5.2]}')).toEqual({ lat: 52.1, lng: 5.2 });
    expect(locationFromGeoJson({})).toBeNull();
    expect(locationFromGeoJson('not json')).toBe('not json');
    expect(translateBody([{ ideaId: '5', opinion: 'yes' }])).toEqual([{ ideaId: 5, opinion: 'yes' }]);
    expect(translateBody({ tags: [{ id: '2' }, '3'] })).toEqual({ tags: [2, 3] });
  });
});

describe('lists', () => {
  it("pages with openstad-api's envelope and links", () => {
    const env = pageEnvelope([1, 2, 3, 4, 5], 1, 2, { path: '/openstad/api/site/1/idea', query: 'page=1&pageSize=2' });
    expect(env.records).toEqual([3, 4]);
    expect(env.metadata).toMatchObject({ page: 1, pageSize: 2, pageCount: 3, totalCount: 5 });
    expect(env.metadata.links).toMatchObject({ previous: expect.stringContaining('page=0'), next: expect.stringContaining('page=2') });
  });

  it("sorts by OpenStad's default: accepted, open, busy, others, denied; newest first", () => {
    const ideas = [
      { id: 1, status: 'DENIED', createdAt: '2023-01-03' },
      { id: 2, status: 'OPEN', createdAt: '2023-01-01' },
      { id: 3, status: 'ACCEPTED', createdAt: '2023-01-01' },
      { id: 4, status: 'OPEN', createdAt: '2023-01-02' },
      { id: 5, status: 'CLOSED', createdAt: '2023-01-05' },
    ];
    expect(sortIdeas(ideas, 'date_desc').map((i) => i.id)).toEqual([3, 4, 2, 5, 1]);
    expect(sortIdeas(ideas, 'no-such-sort').map((i) => i.id)).toEqual([3, 4, 2, 5, 1]);
  });
});

describe('the stats overview', () => {
  it('counts per Amsterdam day, every day from the first to the last, distinct voters per day', () => {
    expect(amsterdamDay('2024-03-30T23:30:00.000Z')).toBe('2024-03-31');
    expect(amsterdamDay('2024-07-01T21:59:00.000Z')).toBe('2024-07-01');
    expect(amsterdamDay('2024-07-01T22:00:00.000Z')).toBe('2024-07-02');
    expect(amsterdamDay('not a date')).toBeUndefined();
    const votes = [
      { userId: 1, opinion: 'yes', createdAt: '2024-03-29T10:00:00.000Z' },
      { userId: 1, opinion: 'no', createdAt: '2024-03-29T11:00:00.000Z' },
      { userId: 2, opinion: 'yes', createdAt: '2024-04-01T10:00:00.000Z' },
    ];
    // Across the change to summer time (31 March): no day skipped or doubled.
    expect(perDay(votes)).toEqual([
      { date: '2024-03-29', counted: 2 },
      { date: '2024-03-30', counted: 0 },
      { date: '2024-03-31', counted: 0 },
      { date: '2024-04-01', counted: 1 },
    ]);
    expect(perDay(votes, (v) => v['userId']).map((d) => d.counted)).toEqual([1, 0, 0, 1]);
    expect(perDay([])).toEqual([]);
  });

  it("answers OpenStad's keys, totals as [{counted}]", () => {
    const entries = overview({
      ideas: [{ createdAt: '2024-03-29T10:00:00.000Z' }],
      votes: [
        { userId: 1, opinion: 'yes', createdAt: '2024-03-29T10:00:00.000Z' },
        { userId: 1, opinion: 'no', createdAt: '2024-03-29T10:00:00.000Z' },
        { userId: 2, opinion: 'yes', createdAt: '2024-03-29T10:00:00.000Z' },
      ],
      arguments: [{ sentiment: 'for' }, { sentiment: 'against' }, { sentiment: 'for' }],
    });
    const byKey = Object.fromEntries(entries.map((e) => [e.key, e.result]));
    expect(Object.keys(byKey)).toEqual([
      'ideaTotal', 'ideasSubmittedPerDay', 'userVoteTotal', 'ideaVotesCountTotal', 'ideaVotesCountForTotal', 'ideaVotesCountAgainstTotal',
      'usersVotedPerDay', 'votesPerDay', 'argumentCountTotal', 'argumentForCountTotal', 'argumentAgainstCountTotal', 'choicesguideresultsCountTotal',
    ]);
    expect(byKey).toMatchObject({
      ideaTotal: [{ counted: 1 }],
      userVoteTotal: [{ counted: 2 }],
      ideaVotesCountTotal: [{ counted: 3 }],
      ideaVotesCountForTotal: [{ counted: 2 }],
      ideaVotesCountAgainstTotal: [{ counted: 1 }],
      usersVotedPerDay: [{ date: '2024-03-29', counted: 2 }],
      argumentForCountTotal: [{ counted: 2 }],
      choicesguideresultsCountTotal: [{ counted: 0 }],
    });
    for (const entry of entries) expect(typeof entry.description).toBe('string');
  });
});
