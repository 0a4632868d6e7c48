import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc, dynamo, TABLE } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import { deleteSignupsOfUser, findSignupsOfUser } from '#tests/support/newsletter-of-user';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { countRequests } from '#tests/support/request-counter';
import { handler as createHandler } from '../../../functions/newsletter/create.ts';
import { handler as listHandler } from '../../../functions/newsletter/list.ts';
import { handler as confirmHandler } from '../../../functions/newsletter/confirm.ts';
import { handler as deleteSiteHandler } from '../../../functions/sites/delete.ts';
import type { SignupRecord } from '#schemas/newsletter';
import { errorOf, type ListEnvelope } from '#tests/support/bodies';

const active = { newslettersignup: { isActive: true } };

const signUp = (siteId: number, body: unknown, token?: string) =>
  invoke<SignupRecord>(createHandler, { method: 'POST', params: { siteId }, body, token });
const listSignups = (siteId: number, token?: string, query?: Record<string, string>) =>
  invoke<ListEnvelope<SignupRecord>>(listHandler, { params: { siteId }, token, query });
const confirm = (siteId: number, confirmToken: unknown) =>
  invoke<SignupRecord>(confirmHandler, { method: 'POST', params: { siteId }, body: { confirmToken } });

/** Every item stored under the site partition (besides the site itself). */
async function partitionItems(siteId: number): Promise<Record<string, unknown>[]> {
  const out = await doc.send(
    new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': sitePk(siteId) } }),
  );
  return (out.Items ?? []).filter((i) => i.SK !== 'SITE');
}
const skKinds = (items: Record<string, unknown>[]) => items.map((i) => String(i.SK).split('#')[0] ?? '').sort();

/** The pending token of a signup, as an admin (the external mailer) reads it. */
async function tokenOf(siteId: number, signupId: number): Promise<string> {
  const res = await listSignups(siteId, SERVICE_TOKEN, { pageSize: '500' });
  const record = res.body.records.find((r: { id: number }) => r.id === signupId);
  expect(record?.confirmToken).toEqual(expect.any(String));
  return record!.confirmToken!;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('POST /api/site/:siteId/newslettersignup', () => {
  it('is 403 while the feature is not active (the default)', async () => {
    for (const config of [{}, { newslettersignup: { isActive: false, autoConfirm: true } }]) {
      const site = await createSite(config);
      const res = await signUp(site.id, { email: 'ann@example.org' });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ status: 403, error: 'Forbidden' });
      expect(await partitionItems(site.id)).toEqual([]);
    }
  });

  it('404s on an unknown site', async () => {
    const res = await signUp(999_999_999, { email: 'ann@example.org' });
    expect(res.status).toBe(404);
  });

  it('creates an unconfirmed signup: 201, the record, no token in the answer', async () => {
    const site = await createSite(active);
    const res = await signUp(site.id, { email: '  Ann.Smith@Example.org ', firstName: 'Ann', lastName: 'Smith' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      siteId: site.id,
      email: 'Ann.Smith@Example.org',
      firstName: 'Ann',
      lastName: 'Smith',
      confirmed: false,
      createdAt: expect.any(String),
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    expect(skKinds(await partitionItems(site.id))).toEqual(['SIGNUP', 'SIGNUPEMAIL', 'SIGNUPTOKEN']);
  });

  it('stores names as null when absent or null', async () => {
    const site = await createSite(active);
    const res = await signUp(site.id, { email: 'bob@example.org', firstName: null });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ firstName: null, lastName: null });
  });

  it.each([
    [{}, 'email'],
    [{ email: 'not-an-email' }, 'email'],
    [{ email: 'a@b' }, 'email'],
    [{ email: 42 }, 'email'],
    [{ email: `${'a'.repeat(245)}@example.org` }, 'email'],
    [{ email: 'ann@example.org', firstName: 'x'.repeat(256) }, 'firstName'],
    [{ email: 'ann@example.org', lastName: 7 }, 'lastName'],
  ])('rejects %j with 400 naming %s', async (body, path) => {
    const site = await createSite(active);
    const res = await signUp(site.id, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400, error: 'ValidationError' });
    expect(errorOf(res.body).details!.map((d: { path: string }) => d.path)).toEqual([path]);
    expect(await partitionItems(site.id)).toEqual([]);
  });

  it('accepts names of 255 characters and an e-mail of 254', async () => {
    const site = await createSite(active);
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.org`;
    expect(email).toHaveLength(254);
    const res = await signUp(site.id, { email, firstName: 'x'.repeat(255) });
    expect(res.status).toBe(201);
  });

  it('rejects the same e-mail twice on a site with 409, also when it differs only in case or spaces', async () => {
    const site = await createSite(active);
    expect((await signUp(site.id, { email: 'ann@example.org' })).status).toBe(201);
    for (const email of ['ann@example.org', 'ANN@Example.ORG', ' ann@example.org ']) {
      const res = await signUp(site.id, { email });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ status: 409, error: 'Conflict' });
    }
    const list = await listSignups(site.id, SERVICE_TOKEN);
    expect(list.body.records).toHaveLength(1);
    // Another site is another list.
    const other = await createSite(active);
    expect((await signUp(other.id, { email: 'ann@example.org' })).status).toBe(201);
  });

  it('lets exactly one of 20 concurrent signups with the same e-mail win', async () => {
    const site = await createSite(active);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => signUp(site.id, { email: i % 2 ? 'race@example.org' : 'RACE@example.org' })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(skKinds(await partitionItems(site.id))).toEqual(['SIGNUP', 'SIGNUPEMAIL', 'SIGNUPTOKEN']);
  });

  it('retries a transaction that DynamoDB cancelled for a conflict (the conditions decide, not the race)', async () => {
    // DynamoDB Local serialises transactions, so it never answers TransactionConflict; real DynamoDB
    // does under contention, and may cancel both sides. Simulate one such cancel.
    const site = await createSite(active);
    let conflicts = 0;
    // Below the store's retry policy (lib/store/db/retry.ts), where the service's answers arrive.
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if ((context as { commandName?: string }).commandName === 'TransactWriteItemsCommand' && conflicts === 0) {
          conflicts++;
          throw Object.assign(new Error('Transaction cancelled'), {
            name: 'TransactionCanceledException',
            CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }, { Code: 'None' }],
          });
        }
        return next(args);
      },
      { step: 'initialize', name: 'testNewsletterConflict', priority: 'low' },
    );
    onTestFinished(() => {
      dynamo.middlewareStack.remove('testNewsletterConflict');
    });
    const res = await signUp(site.id, { email: 'conflict@example.org' });
    expect(conflicts).toBe(1);
    expect(res.status).toBe(201);
    expect(skKinds(await partitionItems(site.id))).toEqual(['SIGNUP', 'SIGNUPEMAIL', 'SIGNUPTOKEN']);
  });

  it('costs a constant number of DynamoDB requests', async () => {
    const site = await createSite(active);
    const anonymous = await countRequests(() => signUp(site.id, { email: 'count@example.org' }));
    expect(anonymous.result.status).toBe(201);
    // site GetItem + the brute-force counter's UpdateItem + one transaction (the id is made, not fetched).
    expect(anonymous.commands).toEqual({ GetItemCommand: 1, UpdateItemCommand: 1, TransactWriteItemsCommand: 1 });
    const user = await createUser(site.id, 'member');
    const loggedIn = await countRequests(() => signUp(site.id, { email: 'count2@example.org' }, user.token));
    // The caller's user is read with the site (one BatchGet).
    expect(loggedIn.requests).toBe(3);
  });

  it('confirms at once when the site auto-confirms (and keeps no token)', async () => {
    const site = await createSite({ newslettersignup: { isActive: true, autoConfirm: true } });
    const res = await signUp(site.id, { email: 'auto@example.org' });
    expect(res.status).toBe(201);
    expect(res.body.confirmed).toBe(true);
    expect(skKinds(await partitionItems(site.id))).toEqual(['SIGNUP', 'SIGNUPEMAIL']);
    const list = await listSignups(site.id, SERVICE_TOKEN);
    expect(list.body.records[0]).not.toHaveProperty('confirmToken');
  });

  it("keeps a logged-in user's signup pending, their own e-mail included (double opt-in holds)", async () => {
    const site = await createSite(active);
    const user = await createUser(site.id, 'member', { email: 'Carla@Example.org' });
    // An e-mail on the user record proves nothing (a member sets it to anything): only the token confirms.
    const own = await signUp(site.id, { email: 'carla@example.ORG' }, user.token);
    expect(own.status).toBe(201);
    expect(own.body.confirmed).toBe(false);

    const other = await signUp(site.id, { email: 'dave@example.org' }, user.token);
    expect(other.body.confirmed).toBe(false);
    const byService = await signUp(site.id, { email: 'Carla2@Example.org' }, SERVICE_TOKEN);
    expect(byService.body.confirmed).toBe(false);

    // Both signups of the logged-in user are linked to the user for anonymization.
    const owned = await findSignupsOfUser(user.id);
    expect(owned.map((s) => s.id).sort()).toEqual([own.body.id, other.body.id].sort());
  });

  it('401s on an invalid token', async () => {
    const site = await createSite(active);
    const res = await signUp(site.id, { email: 'x@example.org' }, 'not-a-valid-token');
    expect(res.status).toBe(401);
  });
});

describe('GET /api/site/:siteId/newslettersignup', () => {
  async function siteWithSignups() {
    const site = await createSite(active);
    const pending = (await signUp(site.id, { email: 'pending@example.org' })).body;
    const done = (await signUp(site.id, { email: 'done@example.org' })).body;
    await confirm(site.id, await tokenOf(site.id, done.id));
    return { site, pending, done };
  }

  it('is for moderators and above: 401 without a token, 403 for a member', async () => {
    const { site } = await siteWithSignups();
    const none = await listSignups(site.id);
    expect(none.status).toBe(401);
    expect(errorOf(none.body).error).toBe('Unauthorized');
    const member = await createUser(site.id, 'member');
    const res = await listSignups(site.id, member.token);
    expect(res.status).toBe(403);
    expect(errorOf(res.body).error).toBe('Forbidden');
  });

  it('lists in the envelope; moderators and editors see no tokens', async () => {
    const { site, pending, done } = await siteWithSignups();
    for (const role of ['moderator', 'editor'] as const) {
      const user = await createUser(site.id, role);
      const res = await listSignups(site.id, user.token);
      expect(res.status).toBe(200);
      expect(res.body.metadata).toEqual({ pageSize: 100, nextCursor: null });
      expect(res.body.records.map((r: { id: number }) => r.id)).toEqual([pending.id, done.id]);
      for (const record of res.body.records) expect(record).not.toHaveProperty('confirmToken');
      expect(res.body.records[0]).toEqual({ ...pending, confirmed: false });
      expect(res.body.records[1]).toEqual({ ...done, confirmed: true });
    }
  });

  it('shows admins the token of unconfirmed signups only', async () => {
    const { site, pending, done } = await siteWithSignups();
    const admin = await createUser(site.id, 'admin');
    for (const token of [admin.token, SERVICE_TOKEN]) {
      const res = await listSignups(site.id, token);
      const [p, d] = res.body.records;
      expect(p!.id).toBe(pending.id);
      expect(p!.confirmToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(d!.id).toBe(done.id);
      expect(d).not.toHaveProperty('confirmToken');
    }
  });

  it('filters on confirmed: 1/true, 0/false, absent = all; anything else 400', async () => {
    const { site, pending, done } = await siteWithSignups();
    const ids = async (confirmed?: string) =>
      (await listSignups(site.id, SERVICE_TOKEN, confirmed === undefined ? {} : { confirmed })).body.records.map(
        (r: { id: number }) => r.id,
      );
    expect(await ids('1')).toEqual([done.id]);
    expect(await ids('true')).toEqual([done.id]);
    expect(await ids('0')).toEqual([pending.id]);
    expect(await ids('false')).toEqual([pending.id]);
    expect(await ids()).toEqual([pending.id, done.id]);
    const bad = await listSignups(site.id, SERVICE_TOKEN, { confirmed: 'yes' });
    expect(bad.status).toBe(400);
    expect(errorOf(bad.body).details).toEqual([{ path: 'confirmed', message: expect.any(String) }]);
  });

  it('pages with a cursor that only continues its own site', async () => {
    const site = await createSite(active);
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await signUp(site.id, { email: `p${i}@example.org` })).body.id);
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const res = await listSignups(site.id, SERVICE_TOKEN, { pageSize: '2', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.metadata.pageSize).toBe(2);
      seen.push(...res.body.records.map((r: { id: number }) => r.id));
      cursor = res.body.metadata.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(made);

    const first = await listSignups(site.id, SERVICE_TOKEN, { pageSize: '1' });
    const other = await createSite(active);
    const replay = await listSignups(other.id, SERVICE_TOKEN, { cursor: first.body.metadata.nextCursor! });
    expect(replay.status).toBe(400);
    expect((await listSignups(site.id, SERVICE_TOKEN, { pageSize: '501' })).status).toBe(400);
  });

  it('costs a constant number of DynamoDB requests whatever the number of signups', async () => {
    const small = await createSite(active);
    const large = await createSite(active);
    await signUp(small.id, { email: 'one@example.org' });
    await Promise.all(Array.from({ length: 40 }, (_, i) => signUp(large.id, { email: `m${i}@example.org` })));
    const moderator = await createUser(large.id, 'moderator');
    const smallModerator = await createUser(small.id, 'moderator');

    const a = await countRequests(() => listSignups(small.id, smallModerator.token, { confirmed: '0' }));
    const b = await countRequests(() => listSignups(large.id, moderator.token, { confirmed: '0' }));
    expect(a.result.body.records).toHaveLength(1);
    expect(b.result.body.records).toHaveLength(40);
    // site + caller's user (one BatchGet) + one Query page.
    expect(b.requests).toBe(2);
    expect(b.commands).toEqual({ BatchGetItemCommand: 1, QueryCommand: 1 });
    expect(a.requests).toBe(b.requests);
    // An admin's tokens are recomputed, not read: still one Query.
    const service = await countRequests(() => listSignups(large.id, SERVICE_TOKEN));
    expect(service.requests).toBe(2);
  });
});

describe('POST /api/site/:siteId/confirm', () => {
  it('confirms with the token: 200 the signup with confirmed true; the token is then gone', async () => {
    const site = await createSite(active);
    const made = (await signUp(site.id, { email: 'eve@example.org', firstName: 'Eve' })).body;
    const token = await tokenOf(site.id, made.id);
    const res = await confirm(site.id, token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...made, confirmed: true });
    expect(skKinds(await partitionItems(site.id))).toEqual(['SIGNUP', 'SIGNUPEMAIL']);
    const list = await listSignups(site.id, SERVICE_TOKEN);
    expect(list.body.records[0]).toMatchObject({ id: made.id, confirmed: true });
    expect(list.body.records[0]).not.toHaveProperty('confirmToken');
  });

  it('stores the token only as a hash', async () => {
    const site = await createSite(active);
    const made = (await signUp(site.id, { email: 'hash@example.org' })).body;
    const token = await tokenOf(site.id, made.id);
    const stored = JSON.stringify(await partitionItems(site.id));
    expect(stored).not.toContain(token);
  });

  it('404s on an unknown token, a reused token and a token of another site', async () => {
    const site = await createSite(active);
    const made = (await signUp(site.id, { email: 'fay@example.org' })).body;
    const token = await tokenOf(site.id, made.id);

    for (const unknown of ['nope', token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), 'x'.repeat(512)]) {
      const res = await confirm(site.id, unknown);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ status: 404, error: 'NotFound' });
    }
    const other = await createSite(active);
    expect((await confirm(other.id, token)).status).toBe(404);

    expect((await confirm(site.id, token)).status).toBe(200);
    const again = await confirm(site.id, token);
    expect(again.status).toBe(404);
    expect(errorOf(again.body).error).toBe('NotFound');
  });

  it('400s on a body without a token', async () => {
    const site = await createSite(active);
    for (const body of [{}, { confirmToken: 5 }, { confirmToken: '' }]) {
      const res = await invoke<SignupRecord>(confirmHandler, { method: 'POST', params: { siteId: site.id }, body });
      expect(res.status).toBe(400);
      expect(errorOf(res.body).details![0]!.path).toBe('confirmToken');
    }
  });

  it('lets exactly one of 10 concurrent confirms with the same token succeed', async () => {
    const site = await createSite(active);
    const made = (await signUp(site.id, { email: 'gus@example.org' })).body;
    const token = await tokenOf(site.id, made.id);
    const results = await Promise.all(Array.from({ length: 10 }, () => confirm(site.id, token)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(9);
  });

  it('costs a constant number of DynamoDB requests', async () => {
    const site = await createSite(active);
    const made = (await signUp(site.id, { email: 'cost@example.org' })).body;
    const token = await tokenOf(site.id, made.id);
    const { requests, commands } = await countRequests(() => confirm(site.id, token));
    // site + token item + signup reads, the brute-force counter, one transaction.
    expect(requests).toBe(5);
    expect(commands).toEqual({ GetItemCommand: 3, UpdateItemCommand: 1, TransactWriteItemsCommand: 1 });
  });
});

describe('signups go with their site and their user', () => {
  it('deleting the site removes signups, e-mail guards and token items', async () => {
    const site = await createSite(active);
    await signUp(site.id, { email: 'one@example.org' });
    await signUp(site.id, { email: 'two@example.org' });
    const user = await createUser(site.id, 'member', { email: 'three@example.org' });
    await signUp(site.id, { email: 'three@example.org' }, user.token);
    const kinds = skKinds(await partitionItems(site.id));
    expect(kinds.filter((k) => k.startsWith('SIGNUP'))).toEqual([
      'SIGNUP', 'SIGNUP', 'SIGNUP', 'SIGNUPEMAIL', 'SIGNUPEMAIL', 'SIGNUPEMAIL', 'SIGNUPTOKEN', 'SIGNUPTOKEN', 'SIGNUPTOKEN',
    ]);

    const res = await invoke(deleteSiteHandler, { method: 'DELETE', params: { siteId: site.id }, token: SERVICE_TOKEN });
    expect(res.status).toBe(200);
    expect(await partitionItems(site.id)).toEqual([]);
    expect(await findSignupsOfUser(user.id)).toEqual([]);
  });

  it("deleting a user's signups (anonymization) removes their guard and token items and frees the e-mail", async () => {
    const site = await createSite(active);
    const user = await createUser(site.id, 'member', { email: 'own@example.org' });
    const kept = (await signUp(site.id, { email: 'someone@example.org' })).body;
    const own = (await signUp(site.id, { email: 'own@example.org' }, user.token)).body;
    // One of the user's signups confirmed (its token item consumed), one pending.
    expect((await confirm(site.id, await tokenOf(site.id, own.id))).status).toBe(200);
    const pending = (await signUp(site.id, { email: 'pending@example.org' }, user.token)).body;

    const removed = await deleteSignupsOfUser(user.id);
    expect(removed.map((s) => s.id).sort()).toEqual([own.id, pending.id].sort());
    expect(removed.find((s) => s.id === own.id)).toMatchObject({ email: 'own@example.org', confirmed: true, userId: user.id });

    const left = await partitionItems(site.id);
    expect(skKinds(left).filter((k) => k.startsWith('SIGNUP'))).toEqual(['SIGNUP', 'SIGNUPEMAIL', 'SIGNUPTOKEN']);
    expect(left.find((i) => String(i.SK).startsWith('SIGNUP#'))).toMatchObject({ id: kept.id });
    expect(await findSignupsOfUser(user.id)).toEqual([]);
    // Deleting again finds nothing and is no error.
    expect(await deleteSignupsOfUser(user.id)).toEqual([]);

    // The e-mail may sign up again.
    expect((await signUp(site.id, { email: 'Own@example.org' })).status).toBe(201);
  });
});
