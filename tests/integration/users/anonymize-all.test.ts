/**
 * `will-anonymizeall` and `do-anonymizeall`: the same person on every site (found through the
 * auth-server link), each site by its own rules (votes only where voting is open), the auth-server
 * user deleted, nothing of anybody else touched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { allBallots, expectTalliesMatchBallots, storedTallies } from '#tests/support/vote-fixtures';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as getUser } from '../../../functions/users/get.ts';
import { handler as updateUser } from '../../../functions/users/update.ts';
import { handler as me } from '../../../functions/oauth/me.ts';
import { startTestAuthServer } from '../oauth/login-helpers.ts';
import { activitySite, anonymize, contribute, itemsOf, person, setVoting, sitePartition, vote, type Contribution } from './activity-helpers.ts';
import type { UserRecord } from '#schemas/user';

let auth: RunningAuthServer;

beforeAll(async () => {
  auth = await startTestAuthServer();
});
afterAll(async () => {
  await auth.stop();
});

interface World {
  sites: [number, number, number];
  authId: number;
  /** The person on each of the three sites. */
  mine: [Contribution, Contribution, Contribution];
  /** Another person on the first two sites. */
  theirs: [Contribution, Contribution];
  /** An unrelated site. */
  elsewhere: number;
}

/** A person on sites A, B, C with votes on each (voting then closed on C); another person on A and B. */
async function world(): Promise<World> {
  const a = await activitySite(auth);
  const b = await activitySite(auth);
  const c = await activitySite(auth);
  const elsewhere = await activitySite(auth);
  const p = person(auth);
  const q = person(auth, 'Quinn');
  const mine = (await Promise.all([a, b, c].map((s) => contribute(s.id, p.email)))) as World['mine'];
  const theirs = (await Promise.all([a, b].map((s) => contribute(s.id, q.email)))) as World['theirs'];
  await contribute(elsewhere.id, person(auth, 'Robin').email);
  for (const [i, m] of mine.entries()) {
    const round = [{ ideaId: m.ideaId, opinion: 'yes' }];
    if (i < 2) round.push({ ideaId: theirs[i]!.ideaId, opinion: 'yes' });
    await vote(m.user.siteId, m.user.token, round);
  }
  for (const t of theirs) await vote(t.user.siteId, t.user.token, [{ ideaId: mine[theirs.indexOf(t)]!.ideaId, opinion: 'no' }]);
  await setVoting(c.id, false);
  return { sites: [a.id, b.id, c.id], authId: p.id, mine, theirs, elsewhere: elsewhere.id };
}

const userOf = (siteId: number, userId: number) => invoke<UserRecord>(getUser, { params: { siteId, userId }, token: SERVICE_TOKEN });
const ids = (records: { id: number }[]) => records.map((r) => r.id);

describe('will-anonymizeall', () => {
  it('answers the person on every site and changes nothing', async () => {
    const w = await world();
    const before = await Promise.all(w.sites.map(sitePartition));
    const authBefore = structuredClone(auth.control.user(w.authId));
    const [onA, onB, onC] = w.mine;

    const res = await anonymize('will-anonymizeall', w.sites[1], onB.user.id, onB.user.token, 'GET');
    expect(res.status).toBe(200);
    expect(ids(res.body.users)).toEqual([onA.user.id, onB.user.id, onC.user.id]);
    expect(res.body.users.map((u) => u.email)).toEqual([onA, onB, onC].map(() => auth.control.user(w.authId)!.email));
    expect(ids(res.body.sites)).toEqual(w.sites);
    expect(ids(res.body.ideas)).toEqual([onA.ideaId, onB.ideaId, onC.ideaId]);
    expect(ids(res.body.articles)).toEqual([onA.articleId, onB.articleId, onC.articleId]);
    expect(ids(res.body.arguments)).toEqual([onA.argumentId, onB.argumentId, onC.argumentId]);
    // Voting is closed on C: its vote stays and is not listed.
    expect(res.body.votes.map((v: { siteId: number }) => v.siteId)).toEqual([w.sites[0], w.sites[0], w.sites[1], w.sites[1]]);

    expect((await anonymize('will-anonymizeall', w.sites[1], onB.user.id, onB.user.token, 'PUT')).body).toEqual(res.body);
    expect(await Promise.all(w.sites.map(sitePartition))).toEqual(before);
    expect(auth.control.user(w.authId)).toEqual(authBefore);
  });
});

describe('do-anonymizeall', () => {
  it('anonymizes every site user of the person, deletes the auth-server user, touches nobody else', async () => {
    const w = await world();
    const preview = await anonymize('will-anonymizeall', w.sites[0], w.mine[0].user.id, w.mine[0].user.token);
    const theirsBefore = await Promise.all(w.theirs.map((t) => itemsOf(t.user.siteId, t.user.id)));
    const elsewhereBefore = await sitePartition(w.elsewhere);
    const requests = auth.control.requests.length;

    const res = await anonymize('do-anonymizeall', w.sites[0], w.mine[0].user.id, w.mine[0].user.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(preview.body);

    for (const m of w.mine) {
      expect((await userOf(m.user.siteId, m.user.id)).body).toMatchObject({
        email: null,
        firstName: 'Gebruiker',
        lastName: 'is geanonimiseerd',
        externalUserId: null,
        extraData: {},
      });
      expect((await invoke(me, { params: { siteId: m.user.siteId }, token: m.user.token })).status).toBe(401);
      await expectTalliesMatchBallots(m.user.siteId);
    }
    // Votes removed where voting is open; on C (closed) the vote stays.
    const [a, b, c] = w.sites;
    expect(await storedTallies(a)).toEqual({ [w.mine[0].ideaId]: { no: 1 } });
    expect(await storedTallies(b)).toEqual({ [w.mine[1].ideaId]: { no: 1 } });
    expect(await storedTallies(c)).toEqual({ [w.mine[2].ideaId]: { yes: 1 } });
    expect((await allBallots(c)).find((x) => x.userId === w.mine[2].user.id)!.votes).not.toEqual({});

    // The auth-server user is deleted, once.
    const adminCalls = auth.control.requests.slice(requests).filter((r) => r.path.startsWith('/api/admin'));
    expect(adminCalls).toEqual([{ method: 'DELETE', path: `/api/admin/user/${w.authId}` }]);
    expect(auth.control.user(w.authId)).toBeUndefined();

    // The other person's items and the unrelated site are exactly as before.
    expect(await Promise.all(w.theirs.map((t) => itemsOf(t.user.siteId, t.user.id)))).toEqual(theirsBefore);
    expect(await sitePartition(w.elsewhere)).toEqual(elsewhereBefore);
    for (const t of w.theirs) expect((await invoke(me, { params: { siteId: t.user.siteId }, token: t.user.token })).status).toBe(200);
  });

  it('only this site for a user without an auth server', async () => {
    const site = await createSite({ votes: { isActive: true } });
    const user = await createUser(site.id, 'member');
    const res = await anonymize('do-anonymizeall', site.id, user.id, user.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ users: [expect.objectContaining({ id: user.id })], sites: [expect.objectContaining({ id: site.id })] });
    expect((await userOf(site.id, user.id)).body).toMatchObject({ firstName: 'Gebruiker', email: null });
  });

  it('a moderator may not anonymize someone who is an editor on another site', async () => {
    const w = await world();
    const [onA, onB] = w.mine;
    await invoke(updateUser, {
      method: 'PUT',
      params: { siteId: onB.user.siteId, userId: onB.user.id },
      token: SERVICE_TOKEN,
      body: { role: 'editor' },
    });
    const moderator = await createUser(onA.user.siteId, 'moderator');
    const res = await anonymize('do-anonymizeall', onA.user.siteId, onA.user.id, moderator.token);
    expect(res.status).toBe(403);
    expect(auth.control.user(w.authId)).toBeDefined();
    expect((await userOf(onA.user.siteId, onA.user.id)).body.email).not.toBeNull();
    // The person themselves may.
    expect((await anonymize('do-anonymizeall', onA.user.siteId, onA.user.id, onA.user.token)).status).toBe(200);
    expect((await userOf(onB.user.siteId, onB.user.id)).body).toMatchObject({ email: null, role: 'editor' });
  });

  it('costs a constant number of requests per site', async () => {
    const w = await world();
    const [onA] = w.mine;
    // The preview: site + caller (one BatchGet); the person's sites + 3 owned-items Queries; the other sites' BatchGet.
    const preview = await countRequests(() => anonymize('will-anonymizeall', onA.user.siteId, onA.user.id, onA.user.token));
    expect(preview.commands).toEqual({ QueryCommand: 4, BatchGetItemCommand: 2 });
    const { result, commands } = await countRequests(() => anonymize('do-anonymizeall', onA.user.siteId, onA.user.id, onA.user.token));
    expect(result.status).toBe(200);
    // BatchGet: site + caller, the other sites. GetItem: ballots of A and B (open; C is closed). Query:
    // person's sites + 3 owned. Transactions: A and B ballots, 3 signups, 3 users. UpdateItem: the
    // vote-checkpoints marker of A and B (their emptied ballots' log entries).
    expect(commands).toEqual({ GetItemCommand: 2, QueryCommand: 4, BatchGetItemCommand: 2, TransactWriteItemsCommand: 8, UpdateItemCommand: 2 });
  });
});
