import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import type { SiteConfigInput } from '#schemas/site-config';
import { validIdea } from './helpers.ts';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import { handler as updateIdea } from '../../../functions/ideas/update.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as getIdea } from '../../../functions/ideas/get.ts';
import type { IdeaRecord } from '#schemas/idea';
import { errorOf, type ListEnvelope } from '#tests/support/bodies';

const post = (siteId: number, body: unknown, token = SERVICE_TOKEN) => invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId }, body, token });
const put = (siteId: number, ideaId: number, body: unknown, token = SERVICE_TOKEN) =>
  invoke<IdeaRecord>(updateIdea, { method: 'PUT', params: { siteId, ideaId }, body, token });
const paths = (body: unknown) => (errorOf(body).details ?? []).map((d) => d.path).sort();
const countIdeas = async (siteId: number) => (await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId } })).body.records.length;

const enforced: SiteConfigInput = {
  ideas: {
    extraDataMustBeDefined: true,
    extraData: {
      theme: { type: 'enum', values: ['green', 'traffic'], allowNull: false },
      images: { type: 'arrayOfStrings' },
      votes: { type: 'int' },
      public: { type: 'boolean', allowNull: true },
      address: { type: 'object', subset: { street: { type: 'string' }, number: { type: 'int', allowNull: false } } },
    },
  },
};

describe('idea length limits', () => {
  it('requires title, summary and description on create, each its own detail', async () => {
    const site = await createSite();
    const res = await post(site.id, {});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, error: 'ValidationError' });
    expect(paths(res.body)).toEqual(['description', 'summary', 'title']);
  });

  it('applies the default limits (title 10-50, summary 20-140, description 140-5000)', async () => {
    const site = await createSite();
    const good = validIdea();
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ ...good, title: 'x'.repeat(9) }, ['title']],
      [{ ...good, title: 'x'.repeat(51) }, ['title']],
      [{ ...good, summary: 'x'.repeat(19) }, ['summary']],
      [{ ...good, summary: 'x'.repeat(141) }, ['summary']],
      [{ ...good, description: 'x'.repeat(139) }, ['description']],
      [{ ...good, description: 'x'.repeat(5001) }, ['description']],
      [{ title: 'short', summary: 'short', description: 'short' }, ['description', 'summary', 'title']],
      [{ ...good, title: 12345678901 }, ['title']],
    ];
    for (const [body, expected] of cases) {
      const res = await post(site.id, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(paths(res.body)).toEqual(expected);
    }
    const edges = { title: 'x'.repeat(10), summary: 'x'.repeat(140), description: 'x'.repeat(5000) };
    expect((await post(site.id, edges)).status).toBe(201);
    expect((await post(site.id, { ...good, title: 'x'.repeat(50), summary: 'x'.repeat(20), description: 'x'.repeat(140) })).status).toBe(201);
    expect(await countIdeas(site.id)).toBe(2);
  });

  it('counts characters, not UTF-16 units', async () => {
    const site = await createSite({ ideas: { titleMaxLength: 10 } });
    expect((await post(site.id, { ...validIdea(), title: '🌳'.repeat(10) })).status).toBe(201);
    expect((await post(site.id, { ...validIdea(), title: '🌳'.repeat(11) })).status).toBe(400);
  });

  it('uses the limits of the site config', async () => {
    const site = await createSite({ ideas: { titleMinLength: 2, titleMaxLength: 5, descriptionMinLength: 1 } });
    expect((await post(site.id, { ...validIdea(), title: 'ok', description: 'd' })).status).toBe(201);
    const res = await post(site.id, { ...validIdea(), title: 'too long' });
    expect(paths(res.body)).toEqual(['title']);
    expect(errorOf(res.body).details![0]!.message).toMatch(/2 and 5/);
  });

  it('checks only the fields an update sends', async () => {
    const site = await createSite({ ideas: { titleMinLength: 1 } });
    const created = await post(site.id, { ...validIdea(), title: 'tiny' });
    expect(created.status).toBe(201);
    // The site tightens its limits; the old title no longer fits, but an update that leaves it alone passes.
    await invoke((await import('../../../functions/sites/update.ts')).handler, {
      method: 'PUT',
      params: { siteId: site.id },
      token: SERVICE_TOKEN,
      body: { config: {} },
    });
    expect((await put(site.id, created.body.id, { summary: 'A new summary that is long enough' })).status).toBe(200);
    const bad = await put(site.id, created.body.id, { title: 'tiny', description: 'short' });
    expect(bad.status).toBe(400);
    expect(paths(bad.body)).toEqual(['description', 'title']);
    expect((await invoke<IdeaRecord>(getIdea, { params: { siteId: site.id, ideaId: created.body.id } })).body.title).toBe('tiny');
  });

  it('rejects bad values of the moderator fields', async () => {
    const site = await createSite();
    const res = await post(site.id, { ...validIdea(), status: 'open', budget: -1, userId: '3' });
    expect(paths(res.body)).toEqual(['budget', 'status', 'userId']);
    expect((await post(site.id, { ...validIdea(), budget: 1.5 })).status).toBe(400);
  });
});

describe('idea extraData', () => {
  it('accepts anything undefined while extraDataMustBeDefined is off, but checks defined keys', async () => {
    const site = await createSite({ ideas: { extraData: { theme: { type: 'enum', values: ['green'] } } } });
    const free = await post(site.id, { ...validIdea(), extraData: { anything: { nested: [1, 'two'] }, theme: 'green' } });
    expect(free.status).toBe(201);
    expect(free.body.extraData).toEqual({ anything: { nested: [1, 'two'] }, theme: 'green' });
    const bad = await post(site.id, { ...validIdea(), extraData: { theme: 'purple' } });
    expect(bad.status).toBe(400);
    expect(paths(bad.body)).toEqual(['extraData.theme']);
  });

  // Regression (hostile suite): these reached DynamoDB unchecked and came back as a 500.
  it('refuses unchecked values the table cannot store with 400, and stores nothing', async () => {
    const site = await createSite();
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { a: deep };
    const cases: Array<[unknown, string]> = [
      [{ big: 1e200 }, 'extraData.big'],
      [{ tiny: [1e-200] }, 'extraData.tiny[0]'],
      [{ unsafe: 2 ** 53 }, 'extraData.unsafe'],
      [{ '': 'empty key' }, 'extraData'],
      [{ deep }, `extraData.deep${'.a'.repeat(20)}`],
    ];
    for (const [extraData, path] of cases) {
      const res = await post(site.id, { ...validIdea(), extraData });
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ status: 400, error: 'ValidationError' });
      expect(paths(res.body)).toEqual([path]);
    }
    const idea = await post(site.id, validIdea());
    expect((await put(site.id, idea.body.id, { extraData: { n: -1e300 } })).status).toBe(400);
    expect(await countIdeas(site.id)).toBe(1);
    expect((await invoke<IdeaRecord>(getIdea, { params: { siteId: site.id, ideaId: idea.body.id } })).body.extraData).toEqual({});
  });

  it('enforces the definitions with one detail per failing path', async () => {
    const site = await createSite(enforced);
    const res = await post(site.id, {
      ...validIdea(),
      extraData: {
        theme: 'purple',
        images: ['a.png', 3],
        votes: 1.5,
        public: 'yes',
        address: { street: 1, number: null, floor: 2 },
        unknown: 'x',
      },
    });
    expect(res.status).toBe(400);
    expect(paths(res.body)).toEqual(
      [
        'extraData.address.floor',
        'extraData.address.number',
        'extraData.address.street',
        'extraData.images[1]',
        'extraData.public',
        'extraData.theme',
        'extraData.unknown',
        'extraData.votes',
      ].sort(),
    );
    expect(await countIdeas(site.id)).toBe(0);

    const good = await post(site.id, {
      ...validIdea(),
      extraData: { theme: 'green', images: ['a.png'], votes: 3, public: null, address: { street: 'Main', number: 1 } },
    });
    expect(good.status).toBe(201);
    expect(good.body.extraData).toEqual({ theme: 'green', images: ['a.png'], votes: 3, address: { street: 'Main', number: 1 } });
  });

  it('refuses null for a field with allowNull false, and extraData that is not an object', async () => {
    const site = await createSite(enforced);
    expect(paths((await post(site.id, { ...validIdea(), extraData: { theme: null } })).body)).toEqual(['extraData.theme']);
    expect(paths((await post(site.id, { ...validIdea(), extraData: ['green'] })).body)).toEqual(['extraData']);
    expect(paths((await post(site.id, { ...validIdea(), extraData: null })).body)).toEqual(['extraData']);
  });

  it('reports schema, length and extraData failures of one request together', async () => {
    const site = await createSite(enforced);
    const res = await post(site.id, { title: 'short', summary: 42, status: 'NOPE', extraData: { theme: 'purple', other: 1 } });
    expect(res.status).toBe(400);
    expect(paths(res.body)).toEqual(['description', 'extraData.other', 'extraData.theme', 'status', 'summary', 'title']);
  });

  it('validates and merges extraData on update', async () => {
    const site = await createSite(enforced);
    const member = await createUser(site.id, 'member');
    const created = await post(site.id, { ...validIdea(), extraData: { theme: 'green', votes: 1, public: true } }, member.token);
    const bad = await put(site.id, created.body.id, { title: 'x', extraData: { theme: 'nope', votes: null, extra: 1 } }, member.token);
    expect(bad.status).toBe(400);
    expect(paths(bad.body)).toEqual(['extraData.extra', 'extraData.theme', 'title']);
    const nullTheme = await put(site.id, created.body.id, { extraData: { theme: null } }, member.token);
    expect(paths(nullTheme.body)).toEqual(['extraData.theme']);
    const ok = await put(site.id, created.body.id, { extraData: { theme: 'traffic', public: null } }, member.token);
    expect(ok.status).toBe(200);
    expect(ok.body.extraData).toEqual({ theme: 'traffic', votes: 1 });
  });

  // Regression (hostile suite): each request is at most 256 KiB, but extraData merges, so two updates
  // grew the item past DynamoDB's 400 KB and the second was a 500.
  it('refuses with 400 an update that would grow the idea past what one record holds, and keeps it as it was', async () => {
    const site = await createSite();
    const created = await post(site.id, { ...validIdea(), extraData: { a: 'x'.repeat(200_000) } });
    expect(created.status).toBe(201);
    const grown = await put(site.id, created.body.id, { extraData: { b: 'y'.repeat(220_000) } });
    expect(grown.status).toBe(400);
    expect(grown.body).toMatchObject({ status: 400, error: 'BadRequest', message: expect.stringContaining('400 KB') });
    const after = await invoke<IdeaRecord>(getIdea, { params: { siteId: site.id, ideaId: created.body.id } });
    expect(Object.keys(after.body.extraData)).toEqual(['a']);
    // Replacing the big value instead of adding one fits.
    expect((await put(site.id, created.body.id, { extraData: { a: null, b: 'y'.repeat(220_000) } })).status).toBe(200);
  });

  it('never stores a __proto__ key', async () => {
    const site = await createSite();
    const res = await post(site.id, `{"title":"A good idea 1..","summary":"A summary that is long enough","description":"${'d'.repeat(150)}","extraData":{"__proto__":{"x":1},"ok":1}}`);
    expect(res.status).toBe(400);
    expect(paths(res.body)).toEqual(['extraData.__proto__']);
  });
});
