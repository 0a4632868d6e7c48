/**
 * Attack: the argument routes' planned reads (lib/arguments/read-plans.ts). POST plans the idea and a
 * reply's parent from the RAW body; GET/PUT/DELETE plan the idea and the argument from the raw path.
 * Those items come from the request's first BatchGet (eventually consistent, before Basic Auth, the
 * caller and the body are checked) and are served take-once to getIdeaRef / getArgument.
 *
 * What must hold: nothing of one site, idea or thread is read or written through another's path; a
 * planned item never stands in for the state a write depends on (the writes' own conditions decide);
 * a tombstoned idea takes no argument; a refused request reads a small constant number of keys;
 * no client input yields a 5xx.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import { argumentKeys } from '#lib/store/arguments/keys';
import { contentKeys } from '#lib/store/content/keys';
import { userKeys } from '#lib/store/users/keys';
import { DELETING } from '#lib/store/content/content-items';
import { issueToken } from '#lib/auth/jwt';
import type { ArgumentRecordShape } from '#schemas/argument';
import { createSite, createUser, type TestUser } from '#tests/support/fixtures';
import { createIdea } from '#tests/support/ideas-fixture';
import { invoke, type InvokeResult } from '#tests/support/invoke';
import { no5xx } from '#tests/support/no-5xx';
import { onceBefore, type Sent } from '#tests/support/intercept';
import { keysRead } from '#tests/support/keys-read';
import { countRequests } from '#tests/support/request-counter';
import type { SiteConfigInput } from '#schemas/site-config';
import { handler as createHandler } from '../../../functions/arguments/create.ts';
import { handler as getHandler } from '../../../functions/arguments/get.ts';
import { handler as updateHandler } from '../../../functions/arguments/update.ts';
import { handler as deleteHandler } from '../../../functions/arguments/delete.ts';

const LONG = 'This argument is long enough to pass the default minimum length.';

type Path = { siteId: number | string; ideaId: number | string };
type ArgPath = Path & { argumentId: number | string };

const post = (path: Path, token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  invoke<ArgumentRecordShape>(createHandler, { method: 'POST', params: path, body, headers, ...(token ? { token } : {}) });
const get = (path: ArgPath, token?: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  invoke<ArgumentRecordShape>(getHandler, { method: 'GET', params: path, query, headers, ...(token ? { token } : {}) });
const put = (path: ArgPath, token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
  invoke<ArgumentRecordShape>(updateHandler, { method: 'PUT', params: path, body, headers, ...(token ? { token } : {}) });
const del = (path: ArgPath, token?: string, headers: Record<string, string> = {}) =>
  invoke(deleteHandler, { method: 'DELETE', params: path, headers, ...(token ? { token } : {}) });

/** The stored argument item, read strongly consistently straight from the table (undefined: gone). */
async function stored(siteId: number, ideaId: number, argumentId: number) {
  return (await doc.send(new GetCommand({ TableName: TABLE, Key: argumentKeys.argument(siteId, ideaId, argumentId), ConsistentRead: true }))).Item;
}

/** Every argument item of an idea, straight from the table. */
async function argumentsOf(siteId: number, ideaId: number) {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': argumentKeys.argumentsOfIdeaPrefix(ideaId) },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

async function newArgument(siteId: number, ideaId: number, token: string, body: Record<string, unknown> = {}): Promise<number> {
  const res = await post({ siteId, ideaId }, token, { description: LONG, ...body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

interface World {
  siteId: number;
  ideaId: number;
  owner: TestUser;
  other: TestUser;
  moderator: TestUser;
  admin: TestUser;
}

async function world(config: SiteConfigInput = {}): Promise<World> {
  const site = await createSite(config);
  const [owner, other, moderator, admin] = await Promise.all([
    createUser(site.id, 'member'),
    createUser(site.id, 'member'),
    createUser(site.id, 'moderator'),
    createUser(site.id, 'admin'),
  ]);
  const idea = await createIdea(site.id, owner.id);
  return { siteId: site.id, ideaId: idea.id, owner, other, moderator, admin };
}

/** Sets the idea's delete tombstone, as an idea delete does before its cascade (which is not run here). */
async function tombstone(siteId: number, ideaId: number) {
  await doc.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: contentKeys.idea(siteId, ideaId),
      UpdateExpression: 'SET #d = :at',
      ExpressionAttributeNames: { '#d': DELETING },
      ExpressionAttributeValues: { ':at': new Date().toISOString() },
    }),
  );
}

// ---------------------------------------------------------------------------------------------------

describe("another site's admin, moderator or member on these routes", () => {
  let a: World;
  let b: World;
  let argB: number;
  let replyB: number;
  beforeAll(async () => {
    [a, b] = await Promise.all([world(), world()]);
    argB = await newArgument(b.siteId, b.ideaId, b.owner.token);
    replyB = await newArgument(b.siteId, b.ideaId, b.other.token, { parentId: argB });
    // Site B holds a user with the very id of A's admin (an admin there too): if A's token spoke for B,
    // the prefetch would read and act as this twin.
    const now = new Date().toISOString();
    await doc.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...userKeys.user(b.siteId, a.admin.id), id: a.admin.id, siteId: b.siteId, role: 'admin', email: 'twin@example.org', firstName: 'T', lastName: 'T', nickName: null, extraData: {}, createdAt: now, updatedAt: now },
      }),
    );
  });

  it("A's tokens (admin, moderator, member) on B's paths: POST/PUT/DELETE are 401 and B's thread is untouched", async () => {
    const before = await argumentsOf(b.siteId, b.ideaId);
    for (const caller of [a.admin, a.moderator, a.owner]) {
      const path = { siteId: b.siteId, ideaId: b.ideaId };
      expect((await post(path, caller.token, { description: LONG })).status).toBe(401);
      expect((await post(path, caller.token, { description: LONG, parentId: argB })).status).toBe(401);
      expect((await put({ ...path, argumentId: argB }, caller.token, { description: `${LONG} (hijacked)` })).status).toBe(401);
      expect((await del({ ...path, argumentId: argB }, caller.token)).status).toBe(401);
      expect((await del({ ...path, argumentId: replyB }, caller.token)).status).toBe(401);
    }
    expect(await argumentsOf(b.siteId, b.ideaId)).toEqual(before);
  });

  it("A's admin on A's path naming B's idea and argument ids: 404, nothing of B is read out or changed", async () => {
    const before = await argumentsOf(b.siteId, b.ideaId);
    const crossed = { siteId: a.siteId, ideaId: b.ideaId, argumentId: argB };
    for (const res of [
      await get(crossed, a.admin.token),
      await put(crossed, a.admin.token, { description: `${LONG} (hijacked)` }),
      await del(crossed, a.admin.token),
      await post({ siteId: a.siteId, ideaId: b.ideaId }, a.admin.token, { description: LONG, parentId: argB }),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain(LONG);
    }
    expect(await argumentsOf(b.siteId, b.ideaId)).toEqual(before);
    expect(await argumentsOf(a.siteId, b.ideaId)).toEqual([]);
  });

  it("a reply on A naming as parent an argument that exists under the same idea id on B only: 400, nothing written", async () => {
    // Ids are unique across sites, so craft the collision: an argument on B under A's idea id.
    const forged = 999_000_000 + a.ideaId;
    const now = new Date().toISOString();
    await doc.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...argumentKeys.argument(b.siteId, a.ideaId, forged), id: forged, siteId: b.siteId, ideaId: a.ideaId, userId: null, parentId: null, sentiment: 'for', description: LONG, createdAt: now, updatedAt: now, yes: 0 },
      }),
    );
    const before = await argumentsOf(a.siteId, a.ideaId);
    const res = await post({ siteId: a.siteId, ideaId: a.ideaId }, a.owner.token, { description: LONG, parentId: forged });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ details: [{ path: 'parentId' }] });
    expect(await argumentsOf(a.siteId, a.ideaId)).toEqual(before);
    // Nor is the forged item reachable from A's paths.
    expect((await get({ siteId: a.siteId, ideaId: a.ideaId, argumentId: forged })).status).toBe(404);
  });
});

describe('ids of one idea on the path of another (same site)', () => {
  let w: World;
  let otherIdea: number;
  let arg: number;
  let reply: number;
  beforeAll(async () => {
    w = await world();
    otherIdea = (await createIdea(w.siteId, w.owner.id)).id;
    arg = await newArgument(w.siteId, w.ideaId, w.owner.token);
    reply = await newArgument(w.siteId, w.ideaId, w.other.token, { parentId: arg });
  });

  it("an argument's id under another idea's path is 404 for GET, a moderator's PUT and DELETE; nothing changes", async () => {
    const before = await argumentsOf(w.siteId, w.ideaId);
    const crossed = { siteId: w.siteId, ideaId: otherIdea, argumentId: arg };
    expect((await get(crossed)).status).toBe(404);
    expect((await put(crossed, w.moderator.token, { description: `${LONG} (moved)` })).status).toBe(404);
    expect((await del(crossed, w.moderator.token)).status).toBe(404);
    expect(await argumentsOf(w.siteId, w.ideaId)).toEqual(before);
    expect(await argumentsOf(w.siteId, otherIdea)).toEqual([]);
  });

  it('a reply whose parent belongs to another idea, or is itself a reply, is a 400 and writes nothing', async () => {
    for (const [ideaId, parentId] of [
      [otherIdea, arg],
      [w.ideaId, reply],
    ] as const) {
      const before = await argumentsOf(w.siteId, ideaId);
      const res = await post({ siteId: w.siteId, ideaId }, w.moderator.token, { description: LONG, parentId });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ details: [{ path: 'parentId' }] });
      expect(await argumentsOf(w.siteId, ideaId)).toEqual(before);
    }
  });
});

describe('path ids and parentIds that are not ids', () => {
  let w: World;
  let arg: number;
  beforeAll(async () => {
    w = await world();
    arg = await newArgument(w.siteId, w.ideaId, w.owner.token);
  });

  const badPathIds = ['0', '-1', '01', '1.0', '1e3', '0x10', ' 1', '1 ', 'abc', '١٢', '9'.repeat(16), '9007199254740993', '', '%31', '1#2', 'IDEA#1'];

  it.each(badPathIds)('path id %j is a 400 on every route (never 5xx), nothing written', async (bad) => {
    const before = await argumentsOf(w.siteId, w.ideaId);
    const routes = [
      () => get({ siteId: w.siteId, ideaId: bad, argumentId: arg }),
      () => get({ siteId: w.siteId, ideaId: w.ideaId, argumentId: bad }),
      () => put({ siteId: w.siteId, ideaId: w.ideaId, argumentId: bad }, w.moderator.token, { description: LONG }),
      () => put({ siteId: w.siteId, ideaId: bad, argumentId: arg }, w.moderator.token, { description: LONG }),
      () => del({ siteId: w.siteId, ideaId: w.ideaId, argumentId: bad }, w.moderator.token),
      () => del({ siteId: w.siteId, ideaId: bad, argumentId: arg }, w.moderator.token),
      () => post({ siteId: w.siteId, ideaId: bad }, w.owner.token, { description: LONG, parentId: arg }),
    ];
    for (const route of routes) {
      const res = await route();
      expect(res.status, JSON.stringify(res.body)).toBe(400);
    }
    expect(await argumentsOf(w.siteId, w.ideaId)).toEqual(before);
  });

  it('valid but huge path ids (15 digits, past the 10 keys pad to) are a 404, never 5xx', async () => {
    for (const huge of ['999999999999999', '10000000000', String(Number.MAX_SAFE_INTEGER).slice(0, 15)]) {
      expect((await get({ siteId: w.siteId, ideaId: huge, argumentId: arg })).status).toBe(404);
      expect((await get({ siteId: w.siteId, ideaId: w.ideaId, argumentId: huge })).status).toBe(404);
      expect((await put({ siteId: w.siteId, ideaId: w.ideaId, argumentId: huge }, w.moderator.token, { description: LONG })).status).toBe(404);
      expect((await del({ siteId: w.siteId, ideaId: huge, argumentId: arg }, w.moderator.token)).status).toBe(404);
      expect((await post({ siteId: w.siteId, ideaId: huge }, w.owner.token, { description: LONG })).status).toBe(404);
    }
  });

  it.each([
    ['0', 0],
    ['negative', -1],
    ['a float', 1.5],
    ['a numeric string', String(1)],
    ['past MAX_SAFE_INTEGER', 2 ** 53 + 2],
    ['1e300', 1e300],
    ['an object', { S: '1' }],
    ['an array', [1]],
    ['true', true],
  ])('a parentId that is %s is a 400 (never 5xx), nothing written', async (_label, parentId) => {
    const before = await argumentsOf(w.siteId, w.ideaId);
    const res = await post({ siteId: w.siteId, ideaId: w.ideaId }, w.owner.token, { description: LONG, parentId });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(await argumentsOf(w.siteId, w.ideaId)).toEqual(before);
  });

  it('a parentId of 10 to 16 digits that names nothing is a 400 (absent parent), never 5xx', async () => {
    for (const parentId of [9_999_999_999, 10_000_000_000, 999_999_999_999_999, Number.MAX_SAFE_INTEGER]) {
      const res = await post({ siteId: w.siteId, ideaId: w.ideaId }, w.owner.token, { description: LONG, parentId });
      expect(res.status, `${parentId}: ${JSON.stringify(res.body)}`).toBe(400);
    }
  });

  it('any JSON body (arbitrary values for parentId, description, userId) on create and update never yields a 5xx', async () => {
    const value = fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null), fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }), fc.constant(arg));
    await fc.assert(
      fc.asyncProperty(
        fc.record({ parentId: value, description: fc.oneof(fc.constant(LONG), value), userId: value }, { requiredKeys: [] }),
        fc.constantFrom(w.owner, w.moderator, w.other),
        async (body, caller) => {
          no5xx(await post({ siteId: w.siteId, ideaId: w.ideaId }, caller.token, body), `POST ${JSON.stringify(body)}`);
          no5xx(await put({ siteId: w.siteId, ideaId: w.ideaId, argumentId: arg }, caller.token, body), `PUT ${JSON.stringify(body)}`);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('raw bodies that do not parse or are not objects never yield a 5xx and never write', async () => {
    const before = await argumentsOf(w.siteId, w.ideaId);
    for (const raw of ['{', '[]', `[{"description":"${LONG}","parentId":${arg}}]`, 'null', '0', '"x"', `{"description":"${LONG}","parentId":${arg},"__proto__":{"parentId":1}}`]) {
      no5xx(await post({ siteId: w.siteId, ideaId: w.ideaId }, w.owner.token, raw), `POST ${raw}`);
      no5xx(await put({ siteId: w.siteId, ideaId: w.ideaId, argumentId: arg }, w.owner.token, raw), `PUT ${raw}`);
    }
    const after = await argumentsOf(w.siteId, w.ideaId);
    // A valid-looking body with __proto__ may have been refused or stored; it never nests a reply under a reply.
    for (const item of after) if (item['parentId'] != null) expect(item['parentId']).toBe(arg);
    expect(after.length - before.length).toBeLessThanOrEqual(1);
  });
});

// ---------------------------------------------------------------------------------------------------

describe('a planned item that went stale before the write it plans', () => {
  const isArgumentWrite = (command: string, sk: string) => (sent: Sent) =>
    sent.commandName === command && JSON.stringify(sent.input).includes(`"${sk}"`);
  /** The transaction that deletes the argument and counts it off its idea (lib/store/arguments.ts deleteArgument). */
  const isArgumentDelete = (sk: string) => (sent: Sent) =>
    sent.commandName === 'TransactWriteItemsCommand' &&
    ((sent.input as { TransactItems?: Array<{ Delete?: unknown }> }).TransactItems ?? []).some((item) => item.Delete !== undefined && JSON.stringify(item.Delete).includes(`"${sk}"`));
  const isNewArgumentTransaction = (siteId: number) => (sent: Sent) =>
    sent.commandName === 'TransactWriteItemsCommand' && JSON.stringify(sent.input).includes(`"${sitePk(siteId)}"`) && JSON.stringify(sent.input).includes('"ARG#');

  it("a reply's parent deleted (by a moderator, replies swept) between the first read and the write: 400, no orphan reply", async () => {
    const w = await world();
    const parent = await newArgument(w.siteId, w.ideaId, w.owner.token);
    const fired = onceBefore(isNewArgumentTransaction(w.siteId), async () => {
      expect((await del({ siteId: w.siteId, ideaId: w.ideaId, argumentId: parent }, w.moderator.token)).status).toBe(200);
    });
    const res = await post({ siteId: w.siteId, ideaId: w.ideaId }, w.other.token, { description: LONG, parentId: parent });
    expect(fired()).toBe(true);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(await argumentsOf(w.siteId, w.ideaId)).toEqual([]);
  });

  it.each([
    ['a top-level argument', false],
    ['a reply', true],
  ])('the idea tombstoned between the first read and the write of %s: 404, nothing written', async (_label, withParent) => {
    const w = await world();
    const parent = withParent ? await newArgument(w.siteId, w.ideaId, w.owner.token) : undefined;
    const before = await argumentsOf(w.siteId, w.ideaId);
    const fired = onceBefore(isNewArgumentTransaction(w.siteId), () => tombstone(w.siteId, w.ideaId));
    const res = await post({ siteId: w.siteId, ideaId: w.ideaId }, w.other.token, { description: LONG, ...(parent ? { parentId: parent } : {}) });
    expect(fired()).toBe(true);
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(await argumentsOf(w.siteId, w.ideaId)).toEqual(before);
  });

  it('a tombstoned idea (delete under way): create, reply, read, edit and delete of its arguments are all 404', async () => {
    const w = await world();
    const arg = await newArgument(w.siteId, w.ideaId, w.owner.token);
    await tombstone(w.siteId, w.ideaId);
    const before = await argumentsOf(w.siteId, w.ideaId);
    const path = { siteId: w.siteId, ideaId: w.ideaId, argumentId: arg };
    for (const res of [
      await post(path, w.other.token, { description: LONG }),
      await post(path, w.moderator.token, { description: LONG, parentId: arg }),
      await get(path),
      await put(path, w.owner.token, { description: `${LONG} (edited)` }),
      await del(path, w.owner.token),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(404);
    }
    expect(await argumentsOf(w.siteId, w.ideaId)).toEqual(before);
  });

  it("the owner's PUT, the argument moved to another user (moderator) just before the write: 403, unchanged", async () => {
    const w = await world();
    const arg = await newArgument(w.siteId, w.ideaId, w.owner.token);
    const path = { siteId: w.siteId, ideaId: w.ideaId, argumentId: arg };
    const fired = onceBefore(isArgumentWrite('UpdateItemCommand', argumentKeys.argument(w.siteId, w.ideaId, arg).SK), async () => {
      expect((await put(path, w.moderator.token, { userId: w.other.id })).status).toBe(200);
    });
    const res = await put(path, w.owner.token, { description: `${LONG} (by the former owner)` });
    expect(fired()).toBe(true);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(await stored(w.siteId, w.ideaId, arg)).toMatchObject({ userId: w.other.id, description: LONG });
  });

  it("the owner's DELETE, the argument moved to another user just before the write: 403, it and its replies stay", async () => {
    const w = await world();
    const arg = await newArgument(w.siteId, w.ideaId, w.owner.token);
    const reply = await newArgument(w.siteId, w.ideaId, w.other.token, { parentId: arg });
    const path = { siteId: w.siteId, ideaId: w.ideaId, argumentId: arg };
    const fired = onceBefore(isArgumentDelete(argumentKeys.argument(w.siteId, w.ideaId, arg).SK), async () => {
      expect((await put(path, w.moderator.token, { userId: w.other.id })).status).toBe(200);
    });
    const res = await del(path, w.owner.token);
    expect(fired()).toBe(true);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(await stored(w.siteId, w.ideaId, arg)).toMatchObject({ userId: w.other.id });
    expect(await stored(w.siteId, w.ideaId, reply)).toBeDefined();
  });

  it("the owner's PUT, the argument deleted just before the write: 404 and it is not brought back", async () => {
    const w = await world();
    const arg = await newArgument(w.siteId, w.ideaId, w.owner.token);
    const path = { siteId: w.siteId, ideaId: w.ideaId, argumentId: arg };
    const fired = onceBefore(isArgumentWrite('UpdateItemCommand', argumentKeys.argument(w.siteId, w.ideaId, arg).SK), async () => {
      expect((await del(path, w.moderator.token)).status).toBe(200);
    });
    const res = await put(path, w.owner.token, { description: `${LONG} (edited)` });
    expect(fired()).toBe(true);
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(await stored(w.siteId, w.ideaId, arg)).toBeUndefined();
  });

  it('two DELETEs of one argument racing (the second planned before the first wrote): one 200, one 404', async () => {
    const w = await world();
    const arg = await newArgument(w.siteId, w.ideaId, w.owner.token);
    const path = { siteId: w.siteId, ideaId: w.ideaId, argumentId: arg };
    let inner: number | undefined;
    const fired = onceBefore(isArgumentDelete(argumentKeys.argument(w.siteId, w.ideaId, arg).SK), async () => {
      inner = (await del(path, w.moderator.token)).status;
    });
    const outer = await del(path, w.owner.token);
    expect(fired()).toBe(true);
    expect([inner, outer.status]).toEqual([200, 404]);
  });

  it('a reply written while its top-level parent is being deleted (just before its delete transaction): swept, no orphan', async () => {
    const w = await world();
    const arg = await newArgument(w.siteId, w.ideaId, w.owner.token);
    const fired = onceBefore(isArgumentDelete(argumentKeys.argument(w.siteId, w.ideaId, arg).SK), async () => {
      expect((await post({ siteId: w.siteId, ideaId: w.ideaId }, w.other.token, { description: LONG, parentId: arg })).status).toBe(201);
    });
    expect((await del({ siteId: w.siteId, ideaId: w.ideaId, argumentId: arg }, w.owner.token)).status).toBe(200);
    expect(fired()).toBe(true);
    expect(await argumentsOf(w.siteId, w.ideaId)).toEqual([]);
  });

  it("PUT and DELETE by a member who is not the owner: 403, unchanged (the planned item's owner decides nothing alone)", async () => {
    const w = await world();
    const arg = await newArgument(w.siteId, w.ideaId, w.owner.token);
    const path = { siteId: w.siteId, ideaId: w.ideaId, argumentId: arg };
    expect((await put(path, w.other.token, { description: `${LONG} (not mine)` })).status).toBe(403);
    expect((await put(path, w.other.token, { userId: w.other.id })).status).toBe(403);
    expect((await del(path, w.other.token)).status).toBe(403);
    expect(await stored(w.siteId, w.ideaId, arg)).toMatchObject({ userId: w.owner.id, description: LONG });
  });

  it('a member who stops being the owner between two requests (transfer) cannot edit with a token issued before', async () => {
    const w = await world();
    const arg = await newArgument(w.siteId, w.ideaId, w.owner.token);
    const path = { siteId: w.siteId, ideaId: w.ideaId, argumentId: arg };
    const oldToken = await issueToken({ userId: w.owner.id, siteId: w.siteId });
    expect((await put(path, w.moderator.token, { userId: w.other.id })).status).toBe(200);
    expect((await put(path, oldToken, { description: `${LONG} (stale owner)` })).status).toBe(403);
    expect((await del(path, oldToken)).status).toBe(403);
    expect(await stored(w.siteId, w.ideaId, arg)).toMatchObject({ userId: w.other.id, description: LONG });
  });
});

describe('bodies naming another place, and requests that run at once', () => {
  it("a body's siteId, ideaId, id, parentId, yes or voterIds never moves or forges an argument (create and update)", async () => {
    const [w, other] = await Promise.all([world(), world()]);
    const arg = await newArgument(w.siteId, w.ideaId, w.owner.token);
    const top = await newArgument(w.siteId, w.ideaId, w.other.token);
    const smuggled = { siteId: other.siteId, ideaId: other.ideaId, id: 1, yes: 1000, voterIds: [w.owner.id], parentId: top };
    const path = { siteId: w.siteId, ideaId: w.ideaId, argumentId: arg };
    no5xx(await put(path, w.moderator.token, { description: `${LONG} (moderated)`, ...smuggled }), 'PUT');
    expect(await stored(w.siteId, w.ideaId, arg)).toMatchObject({ id: arg, siteId: w.siteId, ideaId: w.ideaId, parentId: null, yes: 0 });
    const made = await post({ siteId: w.siteId, ideaId: w.ideaId }, w.owner.token, { description: LONG, ...smuggled, parentId: undefined });
    no5xx(made, 'POST');
    if (made.status === 201) expect(await stored(w.siteId, w.ideaId, made.body.id)).toMatchObject({ siteId: w.siteId, ideaId: w.ideaId, parentId: null, yes: 0 });
    expect(await argumentsOf(other.siteId, other.ideaId)).toEqual([]);
  });

  it("a moderator's transfer to a user of another site (the same id absent here) is a 400; the owner stays", async () => {
    const [w, other] = await Promise.all([world(), world()]);
    const arg = await newArgument(w.siteId, w.ideaId, w.owner.token);
    const res = await put({ siteId: w.siteId, ideaId: w.ideaId, argumentId: arg }, w.moderator.token, { userId: other.owner.id });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(await stored(w.siteId, w.ideaId, arg)).toMatchObject({ userId: w.owner.id });
  });

  it("forty reads and edits on two sites at once: each answer is its own path's argument (no request is served another's planned item)", async () => {
    const [w, v] = await Promise.all([world(), world()]);
    const ids = await Promise.all([
      newArgument(w.siteId, w.ideaId, w.owner.token, { description: `${LONG} on W` }),
      newArgument(v.siteId, v.ideaId, v.owner.token, { description: `${LONG} on V` }),
    ]);
    const calls = Array.from({ length: 40 }, (_, i) => {
      const [site, id] = i % 2 === 0 ? ([w, ids[0]] as const) : ([v, ids[1]] as const);
      const path = { siteId: site.siteId, ideaId: site.ideaId, argumentId: id };
      const run = i % 4 < 2 ? get(path, site.owner.token, { withUserVote: '1' }) : put(path, site.owner.token, { sentiment: i % 8 < 4 ? 'for' : 'against' });
      return run.then((res) => ({ res, site, id }));
    });
    for (const { res, site, id } of await Promise.all(calls)) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ id, siteId: site.siteId, ideaId: site.ideaId, userId: site.owner.id });
      expect(res.body.description).toBe(`${LONG} on ${site === w ? 'W' : 'V'}`);
    }
  });
});

// ---------------------------------------------------------------------------------------------------

describe('what a refused request reads', () => {
  // The site, the caller, the idea and the argument (or a reply's parent): the planned reads are a
  // constant, in the request's one read, whatever the request is refused for.
  const REFUSAL_KEYS = 4;
  const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

  async function measure(label: string, run: () => Promise<InvokeResult<unknown>>, status: number, requests = 1) {
    const { result: counted, keys: read, consistent } = await keysRead(() => countRequests(run));
    expect(counted.result.status, `${label}: ${JSON.stringify(counted.result.body)}`).toBe(status);
    expect(read, `${label}: ${read} keys read (${consistent} consistent), ${counted.requests} requests`).toBeLessThanOrEqual(REFUSAL_KEYS);
    expect(counted.requests, `${label}: ${JSON.stringify(counted.commands)}`).toBe(requests);
    return { keys: read, requests: counted.requests, commands: counted.commands };
  }

  // A refused create sends its first read and nothing else (a new id is made, not fetched: lib/store/db/ids.ts).
  const FIRST_READ_ONLY = { BatchGetItemCommand: 1 };

  it('anonymous, wrong-site and closed-arguments refusals read at most the site, caller, idea and parent', async () => {
    const w = await world({ arguments: { isClosed: true } });
    const other = await world();
    const arg = await newArgument(w.siteId, w.ideaId, w.moderator.token);
    const path = { siteId: w.siteId, ideaId: w.ideaId, argumentId: arg };
    const measured = {
      anonymousPost: await measure('anonymous POST', () => post(path, undefined, { description: LONG, parentId: arg }), 401),
      wrongSitePost: await measure('wrong-site POST', () => post(path, other.admin.token, { description: LONG, parentId: arg }), 401),
      closedPost: await measure('closed POST', () => post(path, w.owner.token, { description: LONG, parentId: arg }), 403, 1),
      malformedPost: await measure('POST of a body that is a 400', () => post(path, w.owner.token, { description: 7 }), 400),
      // Anonymous PUT/DELETE plan nothing; the service reads the idea and the argument (side by side,
      // after the site) before its access check, as it did before the plans. A wrong-site token is
      // refused before the service.
      anonymousPut: await measure('anonymous PUT', () => put(path, undefined, { description: LONG }), 401, 3),
      anonymousDelete: await measure('anonymous DELETE', () => del(path), 401, 3),
      wrongSiteDelete: await measure('wrong-site DELETE', () => del(path, other.admin.token), 401),
    };
    // Anonymous and wrong-site creates plan nothing: the site alone, and no id.
    expect(measured.anonymousPost.keys).toBe(1);
    expect(measured.wrongSitePost.keys).toBe(1);
    expect(measured.closedPost.commands).toEqual(FIRST_READ_ONLY);
  });

  it('the error order is unchanged by the planned reads: 401 and 403 come before an absent idea or parent is noticed', async () => {
    const w = await world({ arguments: { isClosed: true } });
    const absent = { siteId: w.siteId, ideaId: w.ideaId + 1_000_000 };
    expect((await post(absent, undefined, { description: LONG, parentId: 1 })).status).toBe(401);
    expect((await post(absent, w.owner.token, { description: LONG, parentId: 1 })).status).toBe(403);
    expect((await post({ siteId: w.siteId, ideaId: w.ideaId }, w.owner.token, { description: LONG, parentId: 1 })).status).toBe(403);
    // A moderator may write on a closed site: now the absent idea, then the absent parent, are seen.
    expect((await post(absent, w.moderator.token, { description: LONG, parentId: 1 })).status).toBe(404);
    expect((await post({ siteId: w.siteId, ideaId: w.ideaId }, w.moderator.token, { description: LONG, parentId: 1 })).status).toBe(400);
  });

  it("a Basic-Auth-closed site without its credentials: 401 on every route, a constant read, the argument untouched", async () => {
    const w = await world({ basicAuth: { active: true, user: 'u', password: 'p' } });
    const creds = basic('u', 'p');
    const made = await post({ siteId: w.siteId, ideaId: w.ideaId }, w.owner.token, { description: LONG }, creds);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const path = { siteId: w.siteId, ideaId: w.ideaId, argumentId: made.body.id };
    const wrong = basic('u', 'wrong');
    // Anonymous: the site alone, so whether the idea or argument exists cannot change the 401's cost
    // or timing (an earlier version read them ahead for everybody).
    expect((await measure('GET', () => get(path), 401)).keys).toBe(1);
    expect((await measure('GET, wrong password', () => get(path, undefined, {}, wrong), 401)).keys).toBe(1);
    expect((await measure('GET of an absent argument', () => get({ ...path, argumentId: made.body.id + 1_000_000 }), 401)).keys).toBe(1);
    expect((await measure('POST reply by a member', () => post(path, w.owner.token, { description: LONG, parentId: made.body.id }), 401, 1)).commands).toEqual(FIRST_READ_ONLY);
    expect((await measure('POST reply, anonymous', () => post(path, undefined, { description: LONG, parentId: made.body.id }), 401)).keys).toBe(1);
    await measure('PUT by the owner', () => put(path, w.owner.token, { description: `${LONG} (edited)` }), 401);
    await measure('DELETE by an admin', () => del(path, w.admin.token, wrong), 401);
    expect(await stored(w.siteId, w.ideaId, made.body.id)).toMatchObject({ description: LONG });
    // With the credentials: anonymous reads the site, then the idea and the argument side by side; a
    // verified user has them read ahead, in one request.
    const anonymous = await countRequests(() => get(path, undefined, {}, creds));
    expect(anonymous.result.status).toBe(200);
    expect(anonymous.requests).toBe(3);
    const member = await countRequests(() => get(path, w.owner.token, {}, creds));
    expect(member.result.status).toBe(200);
    expect(member.requests).toBe(1);
  });
});
