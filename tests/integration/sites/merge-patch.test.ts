/**
 * `PATCH /api/site/:id` with a JSON Merge Patch (RFC 7396) changes only what it names, where `PUT`
 * replaces the config whole (CONTRACT "Decided details, security"). The newcomer who allows one
 * frontend origin with a PUT drops the site's login; the same change as a PATCH keeps it.
 */
import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { errorOf, type SiteBody } from '#tests/support/bodies';
import { getSite as storedSite } from '#lib/store/sites/sites';
import { handler as updateSite } from '../../../functions/sites/update.ts';
import { handler as patchSite } from '../../../functions/sites/patch.ts';
import { handler as login } from '../../../functions/oauth/login.ts';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };
const oauth = { default: { 'auth-server-url': 'https://auth.example.org', 'auth-client-id': 'c', 'auth-client-secret': 's' } };
const config = () => ({ allowedDomains: ['city.example.org'], oauth, votes: { isActive: true, voteType: 'likes' as const, voteValues: [{ value: 'yes' }, { value: 'no' }] }, ideas: { titleMinLength: 5 } });

const patch = (siteId: number, body: unknown, token = SERVICE_TOKEN, headers: Record<string, string> = MERGE_PATCH) =>
  invoke<SiteBody>(patchSite, { method: 'PATCH', params: { siteId }, token, headers, body });
const startLogin = (siteId: number) => invoke(login, { params: { siteId }, query: { redirectUrl: 'https://new.example.org/after' }, headers: { host: 'api.example.org' } });

describe('allowing one more frontend origin', () => {
  it('with PUT replaces the whole config: the login is gone (what PUT says it does)', async () => {
    const site = await createSite(config());
    const put = await invoke(updateSite, { method: 'PUT', params: { siteId: site.id }, token: SERVICE_TOKEN, body: { config: { allowedDomains: ['city.example.org', 'new.example.org'] } } });
    expect(put.status).toBe(200);
    expect((await storedSite(site.id))!.config).toEqual({ allowedDomains: ['city.example.org', 'new.example.org'] });
    expect((await startLogin(site.id)).status).toBe(404);
  });

  it('with PATCH changes the origins only: the login, the votes and the limits stay', async () => {
    const site = await createSite(config());
    const answer = await patch(site.id, { config: { allowedDomains: ['city.example.org', 'new.example.org'] } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.config.allowedDomains).toEqual(['city.example.org', 'new.example.org']);
    expect((await storedSite(site.id))!.config).toEqual({ ...config(), allowedDomains: ['city.example.org', 'new.example.org'] });
    const started = await startLogin(site.id);
    expect(started.status, JSON.stringify(started.body)).toBe(302);
  });
});

describe('merge patch semantics', () => {
  it('objects merge at any depth, null removes, arrays replace, other fields as sent', async () => {
    const site = await createSite(config());
    const answer = await patch(site.id, {
      title: null,
      domain: 'oost.example.org',
      config: { votes: { isActive: null, voteValues: [{ value: 'yes' }] }, ideas: { titleMaxLength: 80 }, custom: { a: 1 } },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const stored = (await storedSite(site.id))!;
    expect(stored).toMatchObject({ title: null, domain: 'oost.example.org' });
    expect(stored.config).toEqual({
      allowedDomains: ['city.example.org'],
      oauth,
      votes: { voteType: 'likes', voteValues: [{ value: 'yes' }] },
      ideas: { titleMinLength: 5, titleMaxLength: 80 },
      custom: { a: 1 },
    });
    // Read back merged with the defaults, as every read.
    expect(answer.body.config.votes).toMatchObject({ isActive: null, voteType: 'likes', withExisting: 'error' });
    // `config: null` removes the stored config: the defaults are all that is left.
    expect((await patch(site.id, { config: null })).status).toBe(200);
    expect((await storedSite(site.id))!.config).toEqual({});
  });

  it('the merged config is checked as a whole: a 400 names the full path and nothing is stored', async () => {
    const site = await createSite(config());
    const before = await storedSite(site.id);
    const bad = await patch(site.id, { config: { votes: { voteType: 'nope' } } });
    expect(bad.status).toBe(400);
    expect(errorOf(bad.body).details!.map((d) => d.path)).toEqual(['config.votes.voteType']);
    // Removing a value a rule needs is checked the same way.
    expect(errorOf((await patch(site.id, { config: { votes: { voteValues: [] } } })).body).details!.map((d) => d.path)).toEqual(['config.votes.voteValues']);
    expect((await patch(site.id, { name: null })).status).toBe(400);
    expect(await storedSite(site.id)).toEqual(before);
  });

  it('takes application/merge-patch+json only: a JSON body is not guessed to be a patch (415)', async () => {
    const site = await createSite(config());
    for (const type of ['application/json', 'application/json-patch+json', 'text/plain']) {
      const answer = await patch(site.id, { config: { allowedDomains: [] } }, SERVICE_TOKEN, { 'content-type': type });
      expect(answer.status, type).toBe(415);
    }
    expect((await patch(site.id, { config: {} }, SERVICE_TOKEN, { 'content-type': 'application/merge-patch+json; charset=utf-8' })).status).toBe(200);
  });

  it('two patches at the same time on different keys: both are kept (no lost update)', async () => {
    const site = await createSite(config());
    const answers = await Promise.all([
      patch(site.id, { config: { allowedDomains: ['a.example.org'] } }),
      patch(site.id, { config: { ideas: { titleMaxLength: 99 } } }),
      patch(site.id, { config: { votes: { isViewable: true } } }),
    ]);
    // A patch that lost every retry is a 409 and wrote nothing; the others are all in.
    const stored = (await storedSite(site.id))!.config as ReturnType<typeof config> & { votes: { isViewable?: boolean }; ideas: { titleMaxLength?: number } };
    const applied = answers.map((a) => a.status);
    expect(applied.every((s) => s === 200 || s === 409)).toBe(true);
    if (applied[0] === 200) expect(stored.allowedDomains).toEqual(['a.example.org']);
    if (applied[1] === 200) expect(stored.ideas.titleMaxLength).toBe(99);
    if (applied[2] === 200) expect(stored.votes.isViewable).toBe(true);
    expect(stored.oauth).toEqual(oauth);
  });
});

describe('who may patch: the same as PUT', () => {
  it('nobody, a member, an editor and another site\'s admin are refused; this site\'s admin may', async () => {
    const site = await createSite(config());
    const other = await createSite(config());
    const before = await storedSite(site.id);
    const body = { config: { basicAuth: { active: true, user: 'x', password: 'y' } } };
    expect((await invoke(patchSite, { method: 'PATCH', params: { siteId: site.id }, headers: MERGE_PATCH, body })).status).toBe(401);
    for (const role of ['member', 'moderator', 'editor'] as const) {
      expect((await patch(site.id, body, (await createUser(site.id, role)).token)).status, role).toBe(403);
    }
    expect((await patch(site.id, body, (await createUser(other.id, 'admin')).token)).status).toBe(401);
    expect(await storedSite(site.id)).toEqual(before);
    const admin = await createUser(site.id, 'admin');
    expect((await patch(site.id, { config: { ideas: { titleMinLength: 7 } } }, admin.token)).status).toBe(200);
  });
});
