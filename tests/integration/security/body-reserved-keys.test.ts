/**
 * Attack: object keys `__proto__`, `constructor`, `prototype` in a JSON body. They
 * once gave 500s and, for users linked to an auth server, reached that server and broke every later
 * login of the person. CONTRACT "Decided details, security": anywhere in a body, at any depth, they
 * are a 400 ValidationError naming the key's path, checked before anything is written here or on the
 * auth server; a JSON body of the wrong kind (`false`, `0`, `"x"`, `null`) is a 400 too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { countRequests } from '#tests/support/request-counter';
import { snapshotSites, changedKeys } from '#tests/support/hostile/snapshot';
import { parseJsonBody, reservedKeyPaths } from '#lib/http/body';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { createLoginSite, loginUser, startTestAuthServer } from '../oauth/login-helpers.ts';
import { validIdea } from '../ideas/helpers.ts';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import { handler as updateSite } from '../../../functions/sites/update.ts';
import { handler as createSiteHandler } from '../../../functions/sites/create.ts';
import { handler as castVotes } from '../../../functions/votes/cast.ts';
import { handler as updateUser } from '../../../functions/users/update.ts';
import { handler as createArgument } from '../../../functions/arguments/create.ts';
import { handler as signup } from '../../../functions/newsletter/create.ts';
import type { IdeaRecord } from '#schemas/idea';
import type { SiteRecord } from '#schemas/site';
import type { VoteRecord } from '#schemas/votes';
import type { ArgumentRecordShape } from '#schemas/argument';
import type { SignupRecord } from '#schemas/newsletter';
import type { UserRecord } from '#schemas/user';
import { errorOf } from '#tests/support/bodies';

/** A raw JSON text body, so an own `__proto__` key is sent as a client would send it. */
const raw = (text: string) => ({ body: text, headers: { 'content-type': 'application/json' } });

describe('reserved keys anywhere in a body: 400 with the path, nothing stored', () => {
  it.each([
    ['{"extraData": {"constructor": 1}}', 'extraData.constructor'],
    ['{"extraData": {"__proto__": {"isAdmin": true}}}', 'extraData.__proto__'],
    ['{"extraData": {"a": [0, 1, {"constructor": {"prototype": 1}}]}}', 'extraData.a[2].constructor'],
    ['{"extraData": {"tags": [[{"x": {"prototype": null}}]]}}', 'extraData.tags[0][0].x.prototype'],
    ['{"prototype": "x"}', 'prototype'],
  ])('an idea with %s: 400 naming %s', async (extra, path) => {
    const site = await createSite();
    const member = await createUser(site.id, 'moderator');
    const body = JSON.stringify({ ...validIdea() }).replace(/}$/, `,${extra.slice(1, -1)}}`);
    const before = await snapshotSites([site.id]);
    const res = await invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId: site.id }, token: member.token, ...raw(body) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, error: 'ValidationError', details: [{ path, message: expect.any(String) }] });
    expect(errorOf(res.body).details).toHaveLength(1);
    expect(changedKeys(before, await snapshotSites([site.id]))).toEqual([]);
  });

  it('a site config with a reserved key (create and update): 400, the config stays as it was', async () => {
    const site = await createSite({ votes: { isViewable: true } });
    const before = await snapshotSites([site.id]);
    const put = await invoke<SiteRecord>(updateSite, {
      method: 'PUT',
      params: { siteId: site.id },
      token: SERVICE_TOKEN,
      ...raw('{"config": {"votes": {"themes": [{"value": "a"}, {"value": "b", "constructor": {"name": "x"}}]}}}'),
    });
    expect(put.status).toBe(400);
    expect(errorOf(put.body).details).toEqual([{ path: 'config.votes.themes[1].constructor', message: expect.any(String) }]);
    expect(changedKeys(before, await snapshotSites([site.id]))).toEqual([]);
    const created = await invoke<SiteRecord>(createSiteHandler, { method: 'POST', token: SERVICE_TOKEN, ...raw('{"name": "reserved", "config": {"__proto__": {"basicAuth": {"active": false}}}}') });
    expect(created.status).toBe(400);
    expect(errorOf(created.body).details).toEqual([{ path: 'config.__proto__', message: expect.any(String) }]);
  });

  it('a vote round with a reserved key in an entry, and an argument with one: 400 with the path, before any read beyond site and caller', async () => {
    const site = await createSite({ votes: { isActive: true } });
    const member = await createUser(site.id);
    const { result, requests } = await countRequests(() =>
      invoke<VoteRecord[]>(castVotes, { method: 'POST', params: { siteId: site.id }, token: member.token, ...raw('[{"ideaId": 1}, {"ideaId": 2, "opinion": "yes", "__proto__": {"opinion": "no"}}]') }),
    );
    expect(result.status).toBe(400);
    expect(errorOf(result.body).details).toEqual([{ path: '[1].__proto__', message: expect.any(String) }]);
    expect(requests).toBe(1); // the site: the body is refused before the caller is even read
    const arg = await invoke<ArgumentRecordShape>(createArgument, {
      method: 'POST',
      params: { siteId: site.id, ideaId: 1 },
      token: member.token,
      ...raw('{"description": "An argument long enough to pass the rules", "constructor": 1}'),
    });
    expect(arg.body).toMatchObject({ status: 400, details: [{ path: 'constructor' }] });
  });

  it('names at most 20 reserved keys, whatever the body holds', async () => {
    const site = await createSite({ newslettersignup: { isActive: true } });
    const many = Array.from({ length: 500 }, (_, i) => `{"constructor": ${i}}`).join(',');
    const res = await invoke<SignupRecord>(signup, { method: 'POST', params: { siteId: site.id }, ...raw(`{"email": "a@example.org", "x": [${many}]}`) });
    expect(res.status).toBe(400);
    expect(errorOf(res.body).details).toHaveLength(20);
    expect(errorOf(res.body).details![19]!.path).toBe('x[19].constructor');
  });
});

describe('a user linked to an auth server: the reserved key never reaches it', () => {
  let auth: RunningAuthServer;
  beforeAll(async () => {
    auth = await startTestAuthServer();
  });
  afterAll(async () => {
    await auth.stop();
  });

  it('PUT extraData.constructor on a linked user: 400, no request to the auth server, the next login still works', async () => {
    const site = await createLoginSite(auth);
    const p = auth.control.addUser({ email: `reserved-${Date.now()}@example.org`, firstName: 'Pat', lastName: 'Person' });
    const { id, token } = await loginUser(site.id, p.email);
    auth.control.requests = [];
    const res = await invoke<UserRecord>(updateUser, { method: 'PUT', params: { siteId: site.id, userId: id }, token, ...raw('{"extraData": {"constructor": {"prototype": 1}}}') });
    expect(res.status).toBe(400);
    expect(errorOf(res.body).details).toEqual([{ path: 'extraData.constructor', message: expect.any(String) }]);
    expect(auth.control.requests).toEqual([]);
    expect((await loginUser(site.id, p.email)).id).toBe(id);
  });
});

describe('a JSON body of the wrong kind: 400, never 500', () => {
  it.each([['false'], ['0'], ['"x"'], ['null'], ['true'], ['[]'], ['-1.5']])('an idea body %s: 400', async (text) => {
    const site = await createSite();
    const moderator = await createUser(site.id, 'moderator');
    const res = await invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId: site.id }, token: moderator.token, ...raw(text) });
    expect(res.status).toBe(400);
    expect(errorOf(res.body).error).toMatch(/^(ValidationError|BadRequest)$/);
  });

  it.each([['false'], ['0'], ['"x"'], ['null']])('a vote round %s: 400 (an object or an array is a round)', async (text) => {
    const site = await createSite({ votes: { isActive: true } });
    const member = await createUser(site.id);
    const res = await invoke(castVotes, { method: 'POST', params: { siteId: site.id }, token: member.token, ...raw(text) });
    expect(res.status).toBe(400);
  });

  // serverless-offline hands a falsy JSON body over parsed (`false`, `0`) instead of as text; that
  // made Buffer.byteLength throw, a 500 locally.
  it('a body that arrives parsed (false, 0) is read as that JSON, not a crash', () => {
    expect(parseJsonBody(false as unknown as string, false, 'application/json')).toBe(false);
    expect(parseJsonBody(0 as unknown as string, false, 'application/json')).toBe(0);
    expect(() => parseJsonBody({} as unknown as string, false, 'application/json')).toThrow(/not valid JSON/);
  });

  it('own __proto__ keys are found (JSON.parse makes them own properties; `in` would not tell)', () => {
    const parsed = JSON.parse('{"a": {"__proto__": {"b": 1}}, "c": [{"d": 1}, {"prototype": 2}]}');
    expect(reservedKeyPaths(parsed).map((d) => d.path)).toEqual(['a.__proto__', 'c[1].prototype']);
    expect(reservedKeyPaths({ toString: 1, hasOwnProperty: 2, valueOf: 3 })).toEqual([]);
  });
});
