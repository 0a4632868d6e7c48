/**
 * User ids are drawn at random (lib/store/db/ids.ts): a first login or an admin's create sends no
 * request for its id and writes no item that other creates write (the retired `user` counter stays
 * as it was). A user id must be unique across sites, not only on its site (it names the user's GSI1
 * partition), so the user's write also claims the id; the claim's condition, not luck, keeps two
 * users on two sites from sharing an id.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { doc, dynamo, TABLE } from '#lib/store/db/client';
import { counterKey } from '#lib/store/db/counters';
import { FIRST_DRAWN_USER_ID, userIdSource } from '#lib/store/db/ids';
import { getItem } from '#lib/store/db/read';
import { userKeys } from '#lib/store/users/keys';
import { getUser } from '#lib/store/users/users';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import type { UserRecord } from '#schemas/user';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as createUserHandler } from '../../../functions/users/create.ts';
import { createLoginSite, login, loginUser, startTestAuthServer } from '../oauth/login-helpers.ts';

const TRACE = 'testWrittenPartitions';

/** The partition key of every item the requests from now on write (Put, Update, each transaction item). */
function writtenPartitions(): string[] {
  const written: string[] = [];
  dynamo.middlewareStack.add(
    (next) => async (args) => {
      const input = (args as { input?: Record<string, unknown> }).input ?? {};
      const pkOf = (op: unknown) => {
        const o = op as { Item?: { PK?: unknown }; Key?: { PK?: unknown } } | undefined;
        return o?.Item?.PK ?? o?.Key?.PK;
      };
      const ops = Array.isArray(input.TransactItems)
        ? (input.TransactItems as Record<string, unknown>[]).map((t) => t.Put ?? t.Update ?? t.Delete ?? t.ConditionCheck)
        : input.Item || input.UpdateExpression
          ? [input]
          : [];
      for (const op of ops) if (pkOf(op) !== undefined) written.push(String(pkOf(op)));
      return next(args);
    },
    { step: 'initialize', name: TRACE, priority: 'high' },
  );
  return written;
}

const realDraw = userIdSource.draw;
afterEach(() => {
  dynamo.middlewareStack.remove(TRACE);
  userIdSource.draw = realDraw;
});

let auth: RunningAuthServer;
beforeAll(async () => {
  auth = await startTestAuthServer();
});
afterAll(async () => {
  await auth.stop();
});

let seq = 0;
const person = () => auth.control.addUser({ email: `id-person${++seq}-${Date.now()}@example.org`, firstName: 'Ida', lastName: `Person ${seq}` });
const post = (siteId: number, body: unknown) => invoke<UserRecord>(createUserHandler, { method: 'POST', params: { siteId }, body, token: SERVICE_TOKEN });
const claimOf = (userId: number) => getItem(userKeys.userIdClaim(userId), { consistent: true });
/** Stages the next user id drawn as `id` (as another process could have drawn it first); then real draws. */
function stageNextUserId(id: number) {
  let calls = 0;
  userIdSource.draw = () => (calls++ === 0 ? id - FIRST_DRAWN_USER_ID : realDraw());
}
/** A drawn user id no test has used. */
const unusedDrawnId = () => FIRST_DRAWN_USER_ID + realDraw();

describe('user ids without a counter', () => {
  it('an admin create on a site without an auth server: the site read and one write (user + id claim); no counter', async () => {
    const site = await createSite();
    const written = writtenPartitions();
    const counted = await countRequests(() => post(site.id, { email: 'made@example.org', firstName: 'Made' }));
    expect(counted.result.status, JSON.stringify(counted.result.body)).toBe(201);
    // The site (a service token has no user to read), then the one write. Before: the site, the counter's
    // UpdateItem, the user's Put.
    expect(counted.commands).toEqual({ GetItemCommand: 1, TransactWriteItemsCommand: 1 });
    const id = counted.result.body.id;
    expect(String(id)).toHaveLength(12);
    expect(written.sort()).toEqual([`SITE#${site.id}`, userKeys.userIdClaim(id).PK].sort());
    expect(await claimOf(id)).toBeDefined();
  });

  it('many first logins at once on several sites: distinct 12-digit ids, each claimed once, no shared item written', async () => {
    const counterBefore = await getItem(counterKey('user'), { consistent: true });
    const sites = await Promise.all([0, 1, 2].map(() => createLoginSite(auth)));
    const people = sites.flatMap((site) => Array.from({ length: 6 }, () => ({ site, email: person().email })));
    const written = writtenPartitions();
    const users = await Promise.all(people.map(({ site, email }) => loginUser(site.id, email)));
    const ids = users.map((u) => u.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toBeGreaterThanOrEqual(FIRST_DRAWN_USER_ID);
    for (const [i, id] of ids.entries()) {
      expect(await claimOf(id)).toBeDefined();
      expect(await getUser(people[i]!.site.id, id)).toMatchObject({ email: people[i]!.email });
    }
    // What the logins wrote: their sites' partitions, the brute-force counters, one claim per user.
    expect(written).not.toContain('COUNTER');
    const claims = written.filter((pk) => pk.startsWith('USERID#'));
    expect(claims.sort()).toEqual(ids.map((id) => userKeys.userIdClaim(id).PK).sort());
    const shared = written.filter((pk) => !pk.startsWith('USERID#') && !pk.startsWith('RATE#') && !sites.some((s) => pk === `SITE#${s.id}`));
    expect(shared).toEqual([]);
    expect(await getItem(counterKey('user'), { consistent: true })).toEqual(counterBefore);
  });

  it('an id another site took (drawn twice): the claim refuses it, the create takes another, the other user untouched', async () => {
    const [here, there] = await Promise.all([createSite(), createSite()]);
    const taken = unusedDrawnId();
    const other = await createUser(there.id, 'member', { id: taken, email: 'there@example.org' });
    await userIdClaim(taken);
    stageNextUserId(taken);
    const counted = await countRequests(() => post(here.id, { email: 'here@example.org' }));
    expect(counted.result.status, JSON.stringify(counted.result.body)).toBe(201);
    expect(counted.result.body.id).not.toBe(taken);
    expect(counted.result.body.id).toBeGreaterThanOrEqual(FIRST_DRAWN_USER_ID);
    // The refused transaction (nothing of it written) and the one that committed.
    expect(counted.commands['TransactWriteItemsCommand']).toBe(2);
    expect(await getUser(here.id, taken)).toBeUndefined();
    expect(await getUser(there.id, other.id)).toMatchObject({ email: 'there@example.org' });
    expect(await claimOf(taken)).toEqual(userKeys.userIdClaim(taken));
  });

  it('a first login whose id was taken: the login runs again with another id and succeeds', async () => {
    const [site, there] = await Promise.all([createLoginSite(auth), createSite()]);
    const taken = unusedDrawnId();
    await createUser(there.id, 'member', { id: taken });
    await userIdClaim(taken);
    stageNextUserId(taken);
    const p = person();
    const user = await loginUser(site.id, p.email);
    expect(user.id).not.toBe(taken);
    expect(await getUser(site.id, user.id)).toMatchObject({ email: p.email });
    expect(await getUser(site.id, taken)).toBeUndefined();
    expect(await claimOf(taken)).toEqual(userKeys.userIdClaim(taken));
  });

  it('every draw taken (a broken source of randomness): an admin create and a first login answer 503 with Retry-After, and write no user', async () => {
    const [site, there] = await Promise.all([createLoginSite(auth), createSite()]);
    const taken = unusedDrawnId();
    await createUser(there.id, 'member', { id: taken });
    await userIdClaim(taken);
    userIdSource.draw = () => taken - FIRST_DRAWN_USER_ID;

    const created = await post(site.id, { email: 'stuck@example.org' });
    expect(created.status, JSON.stringify(created.body)).toBe(503);
    expect(created.headers['retry-after']).toBe('1');

    const p = person();
    const { done } = await login(site.id, p.email);
    expect(done.status, JSON.stringify(done.body)).toBe(503);
    expect(done.headers['retry-after']).toBe('1');
    expect(await getUser(site.id, taken)).toBeUndefined();
  });
});

/** The claim of an id a fixture wrote with `fields.id` (fixtures claim only the ids they make). */
async function userIdClaim(userId: number): Promise<void> {
  await doc.send(new PutCommand({ TableName: TABLE, Item: userKeys.userIdClaim(userId) }));
}
