/** The discovery filters of the idea list, alone and combined, with sorts and paging. */
import { beforeAll, describe, expect, it } from 'vitest';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { castVotes } from '../ideas/helpers.ts';
import { allPages, api, ideaText, ids } from './helpers.ts';
import { errorOf } from '#tests/support/bodies';

const AMSTERDAM = { lat: 52.3731, lng: 4.8926 };
const NEAR_AMSTERDAM = { lat: 52.3752, lng: 4.8840 }; // ~650 m west
const UTRECHT = { lat: 52.0907, lng: 5.1214 }; // ~35 km
const ROTTERDAM = { lat: 51.9244, lng: 4.4777 }; // ~58 km

let siteId: number;
let tag: Record<string, number>;
let idea: Record<string, number>;
let moderator: string;

beforeAll(async () => {
  siteId = (await createSite({ votes: { isViewable: true } })).id;
  moderator = (await createUser(siteId, 'moderator')).token;
  tag = {};
  for (const name of ['groen', 'verkeer', 'spelen']) tag[name] = (await api.createTag(siteId, moderator, { name })).body.id;
  idea = {};
  const make = async (key: string, body: Record<string, unknown>) => {
    const res = await api.createIdea(siteId, moderator, body);
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    idea[key] = res.body.id;
  };
  await make('cafe', { ...ideaText('Een terras bij het Café', 'Koffie en gebak.'), tags: [tag.groen], location: AMSTERDAM });
  await make('ijs', { ...ideaText('Een ĳssalon in de buurt-tuin'), tags: [tag.spelen], location: NEAR_AMSTERDAM });
  await make('fiets', { ...ideaText('Fietspad naar Utrecht', 'Veilig fietsen voor kinderen.'), tags: [tag.verkeer], location: UTRECHT, status: 'ACCEPTED' });
  await make('haven', { ...ideaText('Havenpark Rotterdam', 'Groen aan het water, met café.'), tags: [tag.groen, tag.verkeer], location: ROTTERDAM, status: 'DONE' });
  await make('plain', { ...ideaText('Zonder plek of tag') });
  // Votes: fiets 2, cafe 1.
  const voters = [await createUser(siteId, 'member'), await createUser(siteId, 'member')];
  await castVotes(siteId, voters[0]!.id, { [idea.fiets!]: 'yes', [idea.cafe!]: 'yes' });
  await castVotes(siteId, voters[1]!.id, { [idea.fiets!]: 'yes' });
});

const list = async (query: Record<string, string>) => {
  const res = await api.list(siteId, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.records;
};
const idsOf = async (query: Record<string, string>) => ids(await allPages((q) => api.list(siteId, q), { sort: 'createdate_asc', ...query }));

describe('idea list filters', () => {
  it('without filters every idea comes back, with tags and location on each record', async () => {
    const records = await list({ sort: 'createdate_asc' });
    expect(ids(records)).toEqual([idea.cafe, idea.ijs, idea.fiets, idea.haven, idea.plain]);
    expect(records[0]).toMatchObject({ tags: [tag.groen], location: AMSTERDAM });
    expect(records[4]).toMatchObject({ tags: [], location: null });
  });

  it('tags: ideas with any of them', async () => {
    expect(await idsOf({ tags: String(tag.groen) })).toEqual([idea.cafe, idea.haven]);
    expect(await idsOf({ tags: `${tag.spelen},${tag.verkeer}` })).toEqual([idea.ijs, idea.fiets, idea.haven]);
    expect(await idsOf({ tags: '999999' })).toEqual([]);
  });

  it('status: ideas with one of them', async () => {
    expect(await idsOf({ status: 'ACCEPTED,DONE' })).toEqual([idea.fiets, idea.haven]);
    expect(await idsOf({ status: 'OPEN' })).toEqual([idea.cafe, idea.ijs, idea.plain]);
    expect(await idsOf({ status: 'DONE', selectRunning: '1' })).toEqual([]);
  });

  it('search: word prefixes, accents and case ignored, every word must match', async () => {
    expect(await idsOf({ search: 'cafe' })).toEqual([idea.cafe, idea.haven]);
    expect(await idsOf({ search: 'CAFÉ' })).toEqual([idea.cafe, idea.haven]);
    expect(await idsOf({ search: 'caf' })).toEqual([idea.cafe, idea.haven]);
    expect(await idsOf({ search: 'c' })).toEqual([idea.cafe, idea.haven]);
    expect(await idsOf({ search: 'terras cafe' })).toEqual([idea.cafe]);
    expect(await idsOf({ search: 'cafe fiets' })).toEqual([]);
    // Word starts only: "pad" is inside "Fietspad", not the start of a word.
    expect(await idsOf({ search: 'pad' })).toEqual([]);
    expect(await idsOf({ search: 'fietspa' })).toEqual([idea.fiets]);
    // Dutch ĳ (one character) is found by "ij"; a hyphen splits words.
    expect(await idsOf({ search: 'ijssalon' })).toEqual([idea.ijs]);
    expect(await idsOf({ search: 'tuin' })).toEqual([idea.ijs]);
    expect(await idsOf({ search: 'buurt-tuin' })).toEqual([idea.ijs]);
    // The description and summary count too.
    expect(await idsOf({ search: 'gebak' })).toEqual([idea.cafe]);
    expect(await idsOf({ search: 'summary havenp' })).toEqual([idea.haven]);
  });

  it('bbox and near + radius', async () => {
    expect(await idsOf({ bbox: '52.3,4.8,52.4,5.0' })).toEqual([idea.cafe, idea.ijs]);
    expect(await idsOf({ bbox: '51,3,53,6' })).toEqual([idea.cafe, idea.ijs, idea.fiets, idea.haven]);
    expect(await idsOf({ bbox: '-90,-180,90,180' })).toEqual([idea.cafe, idea.ijs, idea.fiets, idea.haven]);
    expect(await idsOf({ near: `${AMSTERDAM.lat},${AMSTERDAM.lng}`, radius: '100' })).toEqual([idea.cafe]);
    expect(await idsOf({ near: `${AMSTERDAM.lat},${AMSTERDAM.lng}`, radius: '1000' })).toEqual([idea.cafe, idea.ijs]);
    expect(await idsOf({ near: `${AMSTERDAM.lat},${AMSTERDAM.lng}`, radius: '40000' })).toEqual([idea.cafe, idea.ijs, idea.fiets]);
    expect(await idsOf({ near: `${AMSTERDAM.lat},${AMSTERDAM.lng}`, radius: '50000', bbox: '52.2,0,60,10' })).toEqual([idea.cafe, idea.ijs]);
  });

  it('sort=distance orders by the distance from near, and pages', async () => {
    const near = `${ROTTERDAM.lat},${ROTTERDAM.lng}`;
    expect(ids(await list({ near, radius: '50000', sort: 'distance' }))).toEqual([idea.haven, idea.fiets]);
    const all = await allPages((q) => api.list(siteId, q), { near: `${UTRECHT.lat},${UTRECHT.lng}`, radius: '50000', sort: 'distance', pageSize: '1' });
    expect(ids(all)).toEqual([idea.fiets, idea.cafe, idea.ijs, idea.haven]);
  });

  it('filters combine with AND, with each other, the flags and the vote order', async () => {
    expect(await idsOf({ tags: String(tag.groen), search: 'cafe', status: 'DONE' })).toEqual([idea.haven]);
    expect(await idsOf({ tags: `${tag.groen},${tag.verkeer}`, bbox: '52,4,53,6' })).toEqual([idea.cafe, idea.fiets]);
    expect(await idsOf({ search: 'een', near: `${AMSTERDAM.lat},${AMSTERDAM.lng}`, radius: '5000' })).toEqual([idea.cafe, idea.ijs]);
    const byVotes = await list({ bbox: '51,3,53,6', sort: 'votes_desc', includeVoteCount: '1' });
    expect(ids(byVotes)).toEqual([idea.fiets, idea.cafe, idea.haven, idea.ijs]);
    expect(byVotes[0]).toMatchObject({ yes: 2 });
    const newest = await list({ tags: String(tag.groen), includeUser: '1', includePosterImage: '1' });
    expect(ids(newest)).toEqual([idea.haven, idea.cafe]);
    expect(newest[0]).toHaveProperty('posterImage', null);
  });

  it('pages of any size add up to the whole answer, in order, in both directions', async () => {
    const queries: Record<string, string>[] = [{ tags: `${tag.groen},${tag.verkeer},${tag.spelen}` }, { search: 'een' }, { bbox: '51,3,53,6' }, { status: 'OPEN,DONE,ACCEPTED' }];
    for (const query of queries) {
      const whole = await idsOf(query);
      for (const pageSize of ['1', '2', '3']) {
        expect(await idsOf({ ...query, pageSize })).toEqual(whole);
        const desc = ids(await allPages((q) => api.list(siteId, q), { ...query, pageSize, sort: 'createdate_desc' }));
        expect(desc).toEqual([...whole].reverse());
      }
    }
    const byVotes = ids(await allPages((q) => api.list(siteId, q), { bbox: '51,3,53,6', sort: 'votes_desc', pageSize: '1' }));
    expect(byVotes).toEqual([idea.fiets, idea.cafe, idea.haven, idea.ijs]);
  });

  it('a cursor continues only the query it came from', async () => {
    const first = await api.list(siteId, { tags: `${tag.groen},${tag.verkeer}`, pageSize: '1' });
    const cursor = first.body.metadata.nextCursor as string;
    expect(cursor).toBeTruthy();
    expect((await api.list(siteId, { tags: `${tag.groen},${tag.verkeer}`, pageSize: '1', cursor })).status).toBe(200);
    for (const query of [{ tags: String(tag.groen) }, { tags: `${tag.groen},${tag.verkeer}`, search: 'x' }, { tags: `${tag.groen},${tag.verkeer}`, sort: 'createdate_asc' }, {}]) {
      expect((await api.list(siteId, { ...query, cursor })).status, JSON.stringify(query)).toBe(400);
    }
    const other = await createSite();
    expect((await api.list(other.id, { tags: `${tag.groen},${tag.verkeer}`, cursor })).status).toBe(400);
    expect((await api.markers(siteId, { tags: `${tag.groen},${tag.verkeer}`, cursor })).status).toBe(400);
  });

  it('malformed filters are 400', async () => {
    const bad: Record<string, string>[] = [
      { tags: '' }, { tags: 'a' }, { tags: '0' }, { tags: '1,,2' }, { tags: '01' }, { tags: Array.from({ length: 21 }, (_, i) => i + 1).join(',') },
      { status: 'open' }, { status: 'OPEN,' }, { status: '' },
      { search: '' }, { search: '!!!' }, { search: 'x'.repeat(201) }, { search: 'a b c d e f g h i' },
      { bbox: '1,2,3' }, { bbox: '1,2,3,x' }, { bbox: '91,0,92,1' }, { bbox: '0,0,1,181' }, { bbox: '2,0,1,1' }, { bbox: '0,2,1,1' }, { bbox: '1e1,2,3,4' },
      { near: '52,4' }, { radius: '100' }, { near: '52', radius: '100' }, { near: '95,4', radius: '100' }, { near: '52,4', radius: '0' },
      { near: '52,4', radius: '50001' }, { near: '52,4', radius: '1.5' }, { near: '52,4', radius: '-1' },
      { sort: 'distance' }, { sort: 'distance', bbox: '0,0,1,1' }, { sort: 'nearest', near: '52,4', radius: '10' },
    ];
    for (const query of bad) {
      const res = await api.list(siteId, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(['ValidationError', 'BadRequest']).toContain(errorOf(res.body).error);
    }
  });
});

describe('location on ideas', () => {
  it('is validated (400 with the field path) and can be moved and removed', async () => {
    const site = await createSite();
    const member = await createUser(site.id, 'member');
    for (const location of [{ lat: 91, lng: 0 }, { lat: 0, lng: -180.5 }, { lat: '52', lng: 4 }, { lat: 52 }, [52, 4], 'here', { lat: 52, lng: 4, alt: 3 }, { lat: null, lng: 4 }]) {
      const res = await api.createIdea(site.id, member.token, { ...ideaText('Placed'), location });
      expect(res.status, JSON.stringify(location)).toBe(400);
      expect(errorOf(res.body).details![0]!.path).toMatch(/^location/);
    }
    const created = await api.createIdea(site.id, member.token, { ...ideaText('Placed'), location: { lat: -90, lng: 180 } });
    expect(created.status).toBe(201);
    expect(created.body.location).toEqual({ lat: -90, lng: 180 });
    const moved = await api.updateIdea(site.id, member.token, created.body.id, { location: AMSTERDAM });
    expect(moved.body.location).toEqual(AMSTERDAM);
    expect(ids((await api.list(site.id, { near: `${AMSTERDAM.lat},${AMSTERDAM.lng}`, radius: '10' })).body.records)).toEqual([created.body.id]);
    expect(ids((await api.list(site.id, { near: '-90,180', radius: '10' })).body.records)).toEqual([]);
    const removed = await api.updateIdea(site.id, member.token, created.body.id, { location: null });
    expect(removed.body.location).toBeNull();
    expect((await api.markers(site.id)).body.records).toEqual([]);
  });

  it('an update of the text or status moves the idea in the search and status filters; a delete removes it', async () => {
    const site = await createSite();
    const owner = await createUser(site.id, 'member');
    const created = await api.createIdea(site.id, owner.token, { ...ideaText('Een bankje'), location: AMSTERDAM });
    expect(ids((await api.list(site.id, { search: 'bankje' })).body.records)).toEqual([created.body.id]);
    await api.updateIdea(site.id, owner.token, created.body.id, { title: 'Een fontein hier', summary: 'Een samenvatting zonder dat woord' });
    expect(ids((await api.list(site.id, { search: 'bankje' })).body.records)).toEqual([]);
    expect(ids((await api.list(site.id, { search: 'fontein' })).body.records)).toEqual([created.body.id]);
    const busy = await api.updateIdea(site.id, SERVICE_TOKEN, created.body.id, { status: 'BUSY' });
    expect(busy.status, JSON.stringify(busy.body)).toBe(200);
    expect(ids((await api.list(site.id, { status: 'OPEN' })).body.records)).toEqual([]);
    expect(ids((await api.list(site.id, { status: 'BUSY' })).body.records)).toEqual([created.body.id]);
    expect((await api.deleteIdea(site.id, SERVICE_TOKEN, created.body.id)).status).toBe(200);
    for (const query of [{ search: 'fontein' }, { status: 'BUSY' }, { bbox: '-90,-180,90,180' }]) {
      expect((await api.list(site.id, query)).body.records).toEqual([]);
    }
  });

  it('an idea with a very long text is indexed in full (its index spills out of the transaction)', async () => {
    const site = await createSite({ ideas: { descriptionMaxLength: 20000 } });
    const owner = await createUser(site.id, 'member');
    const words = Array.from({ length: 400 }, (_, i) => `woord${i.toString(36)}x${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i * 7) % 26))}`);
    const text = `${words.join(' ')} zeldzaamwoord`;
    const created = await api.createIdea(site.id, owner.token, { ...ideaText('Heel lang'), description: text });
    expect(created.status).toBe(201);
    expect(ids((await api.list(site.id, { search: 'zeldzaam' })).body.records)).toEqual([created.body.id]);
    expect(ids((await api.list(site.id, { search: words[399]! })).body.records)).toEqual([created.body.id]);
    await api.updateIdea(site.id, owner.token, created.body.id, { description: 'Nu kort en anders, '.padEnd(150, 'y') });
    expect((await api.list(site.id, { search: 'zeldzaam' })).body.records).toEqual([]);
  });
});
