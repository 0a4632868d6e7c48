/**
 * User endpoints on sites without an auth server (the cache is all there is): access, visibility,
 * roles, nicknames, extraData. tests/integration/users/auth-server.test.ts covers linked users.
 */
import { describe, expect, it } from 'vitest';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { countRequests } from '#tests/support/request-counter';
import { handler as listUsers } from '../../../functions/users/list.ts';
import { handler as createUserHandler } from '../../../functions/users/create.ts';
import { handler as getUser } from '../../../functions/users/get.ts';
import { handler as updateUser } from '../../../functions/users/update.ts';
import { handler as deleteUser } from '../../../functions/users/delete.ts';
import { handler as me } from '../../../functions/oauth/me.ts';
import type { UserRecord } from '#schemas/user';
import { errorOf, type Deleted, type ListEnvelope } from '#tests/support/bodies';

const FULL_FIELDS = [
  'id',
  'siteId',
  'role',
  'email',
  'firstName',
  'lastName',
  'nickName',
  'displayName',
  'extraData',
  'listableByRole',
  'detailsViewableByRole',
  'createdAt',
  'updatedAt',
];

const get = (siteId: number, userId: number, token?: string) => invoke<UserRecord>(getUser, { params: { siteId, userId }, token });
const put = (siteId: number, userId: number, body: unknown, token?: string) =>
  invoke<UserRecord>(updateUser, { method: 'PUT', params: { siteId, userId }, body, token });
const post = (siteId: number, body: unknown, token?: string) => invoke<UserRecord>(createUserHandler, { method: 'POST', params: { siteId }, body, token });

describe('list users', () => {
  it('is for moderators and above, in the list envelope with full records', async () => {
    const site = await createSite();
    const member = await createUser(site.id, 'member');
    const mod = await createUser(site.id, 'moderator');
    expect((await invoke(listUsers, { params: { siteId: site.id } })).status).toBe(401);
    expect((await invoke(listUsers, { params: { siteId: site.id }, token: member.token })).status).toBe(403);
    const res = await invoke<ListEnvelope<UserRecord>>(listUsers, { params: { siteId: site.id }, token: mod.token });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({ pageSize: 100, nextCursor: null });
    expect(res.body.records.map((r: { id: number }) => r.id)).toEqual([member.id, mod.id]);
    for (const field of FULL_FIELDS) expect(res.body.records[0]).toHaveProperty(field);
    expect(res.body.records[0]).not.toHaveProperty('externalUserId');
    const asAdmin = await invoke<ListEnvelope<UserRecord>>(listUsers, { params: { siteId: site.id }, token: SERVICE_TOKEN });
    expect(asAdmin.body.records[0]).toHaveProperty('externalUserId', null);
  });

  it('pages with an opaque cursor that only continues its own site', async () => {
    const site = await createSite();
    const other = await createSite();
    for (let i = 0; i < 3; i++) await createUser(site.id);
    const first = await invoke<ListEnvelope<UserRecord>>(listUsers, { params: { siteId: site.id }, query: { pageSize: '2' }, token: SERVICE_TOKEN });
    expect(first.body.records).toHaveLength(2);
    const cursor = first.body.metadata.nextCursor!;
    expect(cursor).toEqual(expect.any(String));
    const second = await invoke<ListEnvelope<UserRecord>>(listUsers, { params: { siteId: site.id }, query: { pageSize: '2', cursor }, token: SERVICE_TOKEN });
    expect(second.body.records).toHaveLength(1);
    expect(second.body.records[0]!.id).toBeGreaterThan(first.body.records[1]!.id);
    expect((await invoke(listUsers, { params: { siteId: other.id }, query: { cursor }, token: SERVICE_TOKEN })).status).toBe(400);
  });

  // Regression (hostile suite): extra attributes in a cursor reached DynamoDB's ExclusiveStartKey (a
  // 500). Cursors are sealed now (tests/unit/foundation/cursor.test.ts checks the opened key's
  // attributes); here: a cursor in the old readable form, or a real one lengthened, is a 400.
  it('rejects a readable or lengthened cursor with 400', async () => {
    const site = await createSite();
    for (let i = 0; i < 2; i++) await createUser(site.id);
    const first = await invoke<ListEnvelope<UserRecord>>(listUsers, { params: { siteId: site.id }, query: { pageSize: '1' }, token: SERVICE_TOKEN });
    const real = first.body.metadata.nextCursor as string;
    const readable = (text: string) => Buffer.from(text).toString('base64url');
    for (const cursor of [`${real}A`, `${real}AAAA`, readable('{"PK":"x"}'), readable(`{"PK":"SITE#${site.id}","SK":"USER#0000000001"}`)]) {
      const res = await invoke<ListEnvelope<UserRecord>>(listUsers, { params: { siteId: site.id }, query: { cursor }, token: SERVICE_TOKEN });
      expect(res.status, cursor).toBe(400);
      expect(res.body).toEqual({ status: 400, error: 'BadRequest', message: 'Invalid cursor' });
    }
  });

  it('costs one Query whatever the page size (site + caller in one BatchGet, + 1)', async () => {
    const site = await createSite();
    const mod = await createUser(site.id, 'moderator');
    for (let i = 0; i < 5; i++) await createUser(site.id);
    const counted = await countRequests(() => invoke<ListEnvelope<UserRecord>>(listUsers, { params: { siteId: site.id }, token: mod.token }));
    expect(counted.result.body.records).toHaveLength(6);
    expect(counted.requests).toBe(2);
  });
});

describe('view one user', () => {
  it('shows all fields to the user and to moderators, the limited view to everybody else', async () => {
    const site = await createSite();
    const owner = await createUser(site.id, 'member', { firstName: 'Olga', lastName: 'Owner', extraData: { bio: 'hi' } });
    const other = await createUser(site.id, 'member');
    const mod = await createUser(site.id, 'moderator');
    const own = await get(site.id, owner.id, owner.token);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: owner.id, siteId: site.id, email: `user${owner.id}@example.org`, displayName: 'Olga Owner', extraData: { bio: 'hi' } });
    expect((await get(site.id, owner.id, mod.token)).body.email).toBe(`user${owner.id}@example.org`);
    const limited = { id: owner.id, role: 'member', displayName: 'Olga Owner', nickName: null };
    expect((await get(site.id, owner.id, other.token)).body).toEqual(limited);
    expect((await get(site.id, owner.id)).body).toEqual(limited);
    expect((await get(site.id, owner.id, mod.token)).body).not.toHaveProperty('externalUserId');
    expect((await get(site.id, owner.id, SERVICE_TOKEN)).body).toHaveProperty('externalUserId', null);
  });

  it('answers 404 for an unknown user or one of another site, 400 for a bad id', async () => {
    const site = await createSite();
    const other = await createSite();
    const elsewhere = await createUser(other.id);
    expect((await get(site.id, 999_999_999)).status).toBe(404);
    expect((await get(site.id, elsewhere.id, SERVICE_TOKEN)).status).toBe(404);
    for (const userId of ['abc', '0', '012', '1e3']) {
      expect((await invoke(getUser, { params: { siteId: site.id, userId } })).status).toBe(400);
    }
  });

  it('costs one read after the site + caller BatchGet (none when reading oneself: the caller lookup is reused)', async () => {
    const site = await createSite();
    const user = await createUser(site.id);
    const other = await createUser(site.id);
    expect((await countRequests(() => get(site.id, other.id, user.token))).requests).toBe(2);
    expect((await countRequests(() => get(site.id, user.id, user.token))).requests).toBe(1);
  });
});

describe('create a user', () => {
  it('lets moderators create users, member by default', async () => {
    const site = await createSite();
    const mod = await createUser(site.id, 'moderator');
    const res = await post(site.id, { email: 'new@example.org', firstName: 'New', lastName: 'Person', extraData: { bio: 'x', city: 'Utrecht' } }, mod.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ siteId: site.id, role: 'member', email: 'new@example.org', displayName: 'New Person', extraData: { bio: 'x', city: 'Utrecht' } });
    expect(res.body.createdAt).toEqual(res.body.updatedAt);
    expect((await get(site.id, res.body.id, mod.token)).body).toEqual(res.body);
  });

  it('is 401 without a token, 403 for members and for roles above the creator', async () => {
    const site = await createSite();
    const member = await createUser(site.id);
    const mod = await createUser(site.id, 'moderator');
    expect((await post(site.id, { email: 'a@example.org' })).status).toBe(401);
    expect((await post(site.id, { email: 'a@example.org' }, member.token)).status).toBe(403);
    const above = await post(site.id, { email: 'a@example.org', role: 'editor' }, mod.token);
    expect(above.status).toBe(403);
    expect((await post(site.id, { email: 'a@example.org', role: 'moderator' }, mod.token)).status).toBe(201);
    expect((await post(site.id, { email: 'b@example.org', role: 'admin' }, SERVICE_TOKEN)).status).toBe(201);
  });

  it('is 403 for everybody when users.canCreateNewUsers is false', async () => {
    const site = await createSite({ users: { canCreateNewUsers: false } });
    const admin = await createUser(site.id, 'admin');
    expect((await post(site.id, { email: 'a@example.org' }, admin.token)).status).toBe(403);
    expect((await post(site.id, { email: 'a@example.org' }, SERVICE_TOKEN)).status).toBe(403);
  });

  it('validates the body with details per field', async () => {
    const site = await createSite();
    const res = await post(site.id, { email: 'not-an-email', role: 'king', firstName: 7, extraData: [] }, SERVICE_TOKEN);
    expect(res.status).toBe(400);
    expect(errorOf(res.body).error).toBe('ValidationError');
    expect(errorOf(res.body).details!.map((d: { path: string }) => d.path).sort()).toEqual(['email', 'firstName', 'role']);
    const extra = await post(site.id, { email: 'a@example.org', extraData: [] }, SERVICE_TOKEN);
    expect(errorOf(extra.body).details).toEqual([{ path: 'extraData', message: 'must be an object' }]);
    expect(errorOf((await post(site.id, {}, SERVICE_TOKEN)).body).details![0]!.path).toBe('email');
  });
});

describe('update a user', () => {
  it('lets the user change their own record, partially', async () => {
    const site = await createSite();
    const user = await createUser(site.id, 'member', { extraData: { city: 'Delft', age: 30 } });
    const res = await put(site.id, user.id, { firstName: 'Fresh', extraData: { city: 'Leiden', age: null } }, user.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Fresh', lastName: `User ${user.id}`, extraData: { city: 'Leiden' } });
    expect(res.body.extraData).not.toHaveProperty('age');
    expect(res.body.updatedAt >= res.body.createdAt).toBe(true);
  });

  it('is 403 for another member, 401 without token, 404 for an unknown user', async () => {
    const site = await createSite();
    const user = await createUser(site.id);
    const other = await createUser(site.id);
    expect((await put(site.id, user.id, { firstName: 'X' }, other.token)).status).toBe(403);
    expect((await put(site.id, user.id, { firstName: 'X' })).status).toBe(401);
    expect((await put(site.id, 999_999_998, { firstName: 'X' }, SERVICE_TOKEN)).status).toBe(404);
    expect((await get(site.id, user.id, user.token)).body.firstName).toBe('Test');
  });

  it('refuses a member sending a role above their own with 403 and stores nothing', async () => {
    const site = await createSite();
    const user = await createUser(site.id);
    const res = await put(site.id, user.id, { role: 'moderator', firstName: 'Sneaky' }, user.token);
    expect(res.status).toBe(403);
    expect((await get(site.id, user.id, user.token)).body).toMatchObject({ role: 'member', firstName: 'Test' });
    expect((await put(site.id, user.id, { role: 'member' }, user.token)).status).toBe(200);
  });

  it('lets nobody give a role above their own, nor change the role of someone above them', async () => {
    const site = await createSite();
    const mod = await createUser(site.id, 'moderator');
    const member = await createUser(site.id);
    const admin = await createUser(site.id, 'admin');
    expect((await put(site.id, member.id, { role: 'editor' }, mod.token)).status).toBe(403);
    expect((await put(site.id, admin.id, { role: 'member' }, mod.token)).status).toBe(403);
    expect((await get(site.id, admin.id, SERVICE_TOKEN)).body.role).toBe('admin');
    const promoted = await put(site.id, member.id, { role: 'moderator' }, mod.token);
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('moderator');
    // The role is read on every request: the promoted user may list at once, with the same token.
    expect((await invoke(listUsers, { params: { siteId: site.id }, token: member.token })).status).toBe(200);
    expect((await put(site.id, member.id, { role: 'editor' }, admin.token)).body.role).toBe('editor');
  });

  it('keeps nickName only when the site allows nicknames', async () => {
    const closed = await createSite();
    const user = await createUser(closed.id);
    const res = await put(closed.id, user.id, { nickName: 'Zorro' }, user.token);
    expect(res.status).toBe(200);
    expect(res.body.nickName).toBeNull();
    expect((await get(closed.id, user.id, SERVICE_TOKEN)).body.nickName).toBeNull();

    const open = await createSite({ users: { allowUseOfNicknames: true } });
    const nick = await createUser(open.id);
    const set = await put(open.id, nick.id, { nickName: 'Zorro' }, nick.token);
    expect(set.body).toMatchObject({ nickName: 'Zorro', displayName: 'Zorro' });
    expect((await get(open.id, nick.id)).body).toEqual({ id: nick.id, role: 'member', displayName: 'Zorro', nickName: 'Zorro' });
  });

  it('validates extraData against users.extraData, enforced with extraDataMustBeDefined', async () => {
    const site = await createSite({
      users: {
        extraDataMustBeDefined: true,
        extraData: { age: { type: 'int' }, colour: { type: 'enum', values: ['red', 'blue'] }, motto: { sitespecific: true } },
      },
    });
    const user = await createUser(site.id);
    const bad = await put(site.id, user.id, { extraData: { age: 'old', colour: 'green', shoeSize: 44, nickName: 'x' } }, user.token);
    expect(bad.status).toBe(400);
    expect(errorOf(bad.body).details!.map((d: { path: string }) => d.path).sort()).toEqual(
      ['extraData.age', 'extraData.colour', 'extraData.nickName', 'extraData.shoeSize'].sort(),
    );
    // A field listed only to make it site-specific is defined, with any value.
    const good = await put(site.id, user.id, { extraData: { age: 40, colour: 'red', motto: { any: 'thing' } } }, user.token);
    expect(good.status).toBe(200);
    expect(good.body.extraData).toEqual({ age: 40, colour: 'red', motto: { any: 'thing' } });

    const loose = await createSite({ users: { extraData: { age: { type: 'int' } } } });
    const looseUser = await createUser(loose.id);
    expect((await put(loose.id, looseUser.id, { extraData: { age: 'x' } }, looseUser.token)).status).toBe(400);
    expect((await put(loose.id, looseUser.id, { extraData: { anything: [1, 2] } }, looseUser.token)).status).toBe(200);
  });

  // Regression (hostile suite): unchecked values (also of fields defined only as site-specific)
  // reached DynamoDB as they came and failed there with a 500.
  it('refuses extraData values the table cannot store with 400, typed or not', async () => {
    const site = await createSite({ users: { extraData: { motto: { sitespecific: true } } } });
    const user = await createUser(site.id);
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = [deep];
    for (const [extraData, path] of [
      [{ big: 1e200 }, 'extraData.big'],
      [{ motto: { n: 1e-200 } }, 'extraData.motto.n'],
      [{ motto: deep }, `extraData.motto${'[0]'.repeat(20)}`],
      [{ bio: { '': 1 } }, 'extraData.bio'],
    ] as const) {
      const res = await put(site.id, user.id, { extraData }, user.token);
      expect(res.status, path).toBe(400);
      expect(errorOf(res.body).details!.map((d: { path: string }) => d.path)).toEqual([path]);
    }
    expect((await invoke<UserRecord>(getUser, { params: { siteId: site.id, userId: user.id }, token: user.token })).body.extraData).toEqual({});
  });

  // Regression (hostile suite): extraData merges key by key, so two updates grew the user item past
  // DynamoDB's 400 KB and the second was a 500.
  it('refuses with 400 an update that would grow the user past what one record holds, and keeps it as it was', async () => {
    const site = await createSite();
    const user = await createUser(site.id);
    expect((await put(site.id, user.id, { extraData: { a: 'x'.repeat(200_000) } }, user.token)).status).toBe(200);
    const grown = await put(site.id, user.id, { extraData: { b: 'y'.repeat(220_000) } }, user.token);
    expect(grown.status).toBe(400);
    expect(grown.body).toMatchObject({ status: 400, error: 'BadRequest', message: expect.stringContaining('400 KB') });
    expect(Object.keys((await get(site.id, user.id, user.token)).body.extraData)).toEqual(['a']);
  });

  it('refuses {value, siteId} entries written by clients', async () => {
    const site = await createSite();
    const user = await createUser(site.id);
    const res = await put(site.id, user.id, { extraData: { bio: [{ value: 'evil', siteId: 1 }] } }, user.token);
    expect(res.status).toBe(400);
    expect(errorOf(res.body).details![0]!.path).toBe('extraData.bio');
  });
});

describe('request counts of writes', () => {
  it('updates and deletes with one read and one write after the caller lookup', async () => {
    const site = await createSite();
    const mod = await createUser(site.id, 'moderator');
    const user = await createUser(site.id);
    const updated = await countRequests(() => put(site.id, user.id, { firstName: 'Counted', extraData: { a: 1 } }, mod.token));
    expect(updated.result.status).toBe(200);
    expect(updated.requests).toBe(3);
    const self = await countRequests(() => put(site.id, user.id, { lastName: 'Self' }, user.token));
    expect(self.requests).toBe(2);
    const removed = await countRequests(() =>
      invoke<Deleted>(deleteUser, { method: 'DELETE', params: { siteId: site.id, userId: user.id }, token: mod.token }),
    );
    expect(removed.result.status).toBe(200);
    expect(removed.requests).toBe(3);
  });
});

describe('delete a user', () => {
  it('lets the user or a moderator delete; the token stops working', async () => {
    const site = await createSite();
    const user = await createUser(site.id);
    const other = await createUser(site.id);
    const mod = await createUser(site.id, 'moderator');
    expect((await invoke(deleteUser, { method: 'DELETE', params: { siteId: site.id, userId: user.id }, token: other.token })).status).toBe(403);
    expect((await invoke(deleteUser, { method: 'DELETE', params: { siteId: site.id, userId: user.id } })).status).toBe(401);
    const res = await invoke<Deleted>(deleteUser, { method: 'DELETE', params: { siteId: site.id, userId: user.id }, token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: user.id, deleted: true });
    expect((await get(site.id, user.id, SERVICE_TOKEN)).status).toBe(404);
    expect((await invoke(me, { params: { siteId: site.id }, token: user.token })).status).toBe(401);
    expect((await invoke(deleteUser, { method: 'DELETE', params: { siteId: site.id, userId: other.id }, token: mod.token })).status).toBe(200);
    expect((await invoke(deleteUser, { method: 'DELETE', params: { siteId: site.id, userId: other.id }, token: mod.token })).status).toBe(404);
  });

  it('does not let a moderator delete an admin', async () => {
    const site = await createSite();
    const mod = await createUser(site.id, 'moderator');
    const admin = await createUser(site.id, 'admin');
    expect((await invoke(deleteUser, { method: 'DELETE', params: { siteId: site.id, userId: admin.id }, token: mod.token })).status).toBe(403);
    expect((await get(site.id, admin.id, SERVICE_TOKEN)).status).toBe(200);
  });
});
