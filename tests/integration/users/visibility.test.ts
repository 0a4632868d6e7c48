/**
 * `listableByRole` and `detailsViewableByRole` (CONTRACT "Decided details,
 * lifecycle", Users): a user whose `listableByRole` is above the caller's role is left out of user
 * lists (a page may then hold fewer records; the request count stays the same); callers with at least
 * the user's `detailsViewableByRole` also see `firstName`, `lastName` and `extraData`. The e-mail stays
 * for the owner and moderators and above, who always see everything.
 */
import { describe, expect, it } from 'vitest';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { handler as listUsers } from '../../../functions/users/list.ts';
import { handler as getUser } from '../../../functions/users/get.ts';
import type { ListEnvelope } from '#tests/support/bodies';
import type { UserRecord } from '#schemas/user';

const list = (siteId: number, token: string, query: Record<string, string> = {}) => invoke<ListEnvelope<UserRecord>>(listUsers, { params: { siteId }, query, token });
const get = (siteId: number, userId: number, token?: string) => invoke<UserRecord>(getUser, { params: { siteId, userId }, token });
const ids = (res: { body: { records: { id: number }[] } }) => res.body.records.map((r) => r.id);

/** Every page of the list, following `nextCursor`. */
async function allPages(siteId: number, token: string, pageSize: number) {
  const pages: number[][] = [];
  let cursor: string | null = null;
  do {
    const res = await list(siteId, token, { pageSize: String(pageSize), ...(cursor ? { cursor } : {}) });
    expect(res.status).toBe(200);
    pages.push(ids(res));
    cursor = res.body.metadata.nextCursor;
  } while (cursor);
  return pages;
}

describe('listableByRole', () => {
  it('leaves out users listable only by roles above the caller', async () => {
    const site = await createSite();
    const open = await createUser(site.id, 'member');
    const forAll = await createUser(site.id, 'member', { listableByRole: 'all' });
    const forMods = await createUser(site.id, 'member', { listableByRole: 'moderator' });
    const forEditors = await createUser(site.id, 'member', { listableByRole: 'editor' });
    const forAdmins = await createUser(site.id, 'member', { listableByRole: 'admin' });
    const odd = await createUser(site.id, 'member', { listableByRole: 'nonsense' });
    const mod = await createUser(site.id, 'moderator', { listableByRole: 'admin' });
    const editor = await createUser(site.id, 'editor');

    // The moderator sees their own record whatever it says.
    expect(ids(await list(site.id, mod.token))).toEqual([open.id, forAll.id, forMods.id, mod.id, editor.id]);
    expect(ids(await list(site.id, editor.token))).toEqual([open.id, forAll.id, forMods.id, forEditors.id, editor.id]);
    // A value that is not one of ours counts as admin.
    expect(ids(await list(site.id, SERVICE_TOKEN))).toEqual([open.id, forAll.id, forMods.id, forEditors.id, forAdmins.id, odd.id, mod.id, editor.id]);
  });

  it('pages may hold fewer records; following the cursors yields every listable user once', async () => {
    const site = await createSite();
    const visible: number[] = [];
    for (let i = 0; i < 6; i++) {
      const hidden = i % 2 === 1;
      const u = await createUser(site.id, 'member', hidden ? { listableByRole: 'admin' } : {});
      if (!hidden) visible.push(u.id);
    }
    const mod = await createUser(site.id, 'moderator');
    const pages = await allPages(site.id, mod.token, 2);
    expect(pages.flat()).toEqual([...visible, mod.id]);
    expect(pages.some((p) => p.length < 2 && p !== pages[pages.length - 1])).toBe(true);
  });

  it('costs the same requests whether users are hidden or not', async () => {
    const plain = await createSite();
    const hiding = await createSite();
    for (let i = 0; i < 3; i++) {
      await createUser(plain.id, 'member');
      await createUser(hiding.id, 'member', { listableByRole: 'admin' });
    }
    const modPlain = await createUser(plain.id, 'moderator');
    const modHiding = await createUser(hiding.id, 'moderator');
    const a = await countRequests(() => list(plain.id, modPlain.token));
    const b = await countRequests(() => list(hiding.id, modHiding.token));
    expect(ids(a.result)).toHaveLength(4);
    expect(ids(b.result)).toEqual([modHiding.id]);
    expect(b.requests).toBe(a.requests);
  });
});

describe('detailsViewableByRole', () => {
  const limitedKeys = ['displayName', 'id', 'nickName', 'role'];
  const detailedKeys = ['displayName', 'extraData', 'firstName', 'id', 'lastName', 'nickName', 'role'];

  it('adds names and extraData (never the e-mail) for callers who reach it', async () => {
    const site = await createSite();
    const shown = await createUser(site.id, 'member', { firstName: 'Dana', lastName: 'Details', extraData: { city: 'Utrecht' }, detailsViewableByRole: 'member' });
    const member = await createUser(site.id, 'member');

    const asMember = await get(site.id, shown.id, member.token);
    expect(Object.keys(asMember.body).sort()).toEqual(detailedKeys);
    expect(asMember.body).toMatchObject({ firstName: 'Dana', lastName: 'Details', extraData: { city: 'Utrecht' } });
    expect(asMember.body).not.toHaveProperty('email');

    // No token: no role, so not "at least member".
    expect(Object.keys((await get(site.id, shown.id)).body).sort()).toEqual(limitedKeys);
  });

  it('"all" lets everybody in; a role above the caller, or none set, keeps the limited view', async () => {
    const site = await createSite();
    const forAll = await createUser(site.id, 'member', { detailsViewableByRole: 'all' });
    const forEditors = await createUser(site.id, 'member', { detailsViewableByRole: 'editor' });
    const unset = await createUser(site.id, 'member');
    const member = await createUser(site.id, 'member');
    expect(Object.keys((await get(site.id, forAll.id)).body).sort()).toEqual(detailedKeys);
    expect(Object.keys((await get(site.id, forEditors.id, member.token)).body).sort()).toEqual(limitedKeys);
    expect(Object.keys((await get(site.id, unset.id, member.token)).body).sort()).toEqual(limitedKeys);
  });

  it('the owner and moderators always see everything, e-mail included', async () => {
    const site = await createSite();
    const hidden = await createUser(site.id, 'member', { detailsViewableByRole: 'admin', listableByRole: 'admin' });
    const mod = await createUser(site.id, 'moderator');
    for (const token of [hidden.token, mod.token]) {
      const res = await get(site.id, hidden.id, token);
      expect(res.body).toMatchObject({ id: hidden.id, email: `user${hidden.id}@example.org`, firstName: 'Test' });
    }
  });
});
