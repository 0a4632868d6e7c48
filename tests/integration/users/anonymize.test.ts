/**
 * `will-anonymize` and `do-anonymize` (this site): the preview changes nothing; the execution strips
 * the site user, removes their votes while voting is open (tallies stay exact), deletes their signups,
 * keeps ideas, articles and arguments (now shown with the anonymized name), unlinks them from the auth
 * server, and deletes the auth-server user only when no other site still has them. Who may call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { allBallots, expectTalliesMatchBallots, storedTallies } from '#tests/support/vote-fixtures';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as getUser } from '../../../functions/users/get.ts';
import { handler as getIdea } from '../../../functions/ideas/get.ts';
import { handler as listSignups } from '../../../functions/newsletter/list.ts';
import { handler as me } from '../../../functions/oauth/me.ts';
import { loginUser, startTestAuthServer } from '../oauth/login-helpers.ts';
import {
  activity,
  activitySite,
  anonymize,
  contribute,
  itemsOf,
  person,
  setVoting,
  sitePartition,
  vote,
  type Contribution,
} from './activity-helpers.ts';
import type { SiteConfigInput } from '#schemas/site-config';
import type { UserRecord } from '#schemas/user';
import type { ListEnvelope } from '#tests/support/bodies';
import type { SignupRecord } from '#schemas/newsletter';
import type { IdeaRecord } from '#schemas/idea';

let auth: RunningAuthServer;

beforeAll(async () => {
  auth = await startTestAuthServer();
});
afterAll(async () => {
  await auth.stop();
});

interface World {
  siteA: number;
  siteB: number;
  authId: number;
  email: string;
  onA: Contribution;
  onB: Contribution;
  other: Contribution;
}

/** A person on sites A and B, another person on A; votes on both of their ideas on A. */
async function world(config: SiteConfigInput = {}): Promise<World> {
  // One after the other: answers list sites in id order.
  const siteA = await activitySite(auth, config);
  const siteB = await activitySite(auth, config);
  const p = person(auth);
  const q = person(auth, 'Quinn');
  const [onA, onB, other] = await Promise.all([contribute(siteA.id, p.email), contribute(siteB.id, p.email), contribute(siteA.id, q.email)]);
  await vote(siteA.id, onA.user.token, [
    { ideaId: onA.ideaId, opinion: 'yes' },
    { ideaId: other.ideaId, opinion: 'no' },
  ]);
  await vote(siteA.id, other.user.token, [{ ideaId: onA.ideaId, opinion: 'yes' }]);
  await vote(siteB.id, onB.user.token, [{ ideaId: onB.ideaId, opinion: 'yes' }]);
  return { siteA: siteA.id, siteB: siteB.id, authId: p.id, email: p.email, onA, onB, other };
}

const userOf = (siteId: number, userId: number) => invoke<UserRecord>(getUser, { params: { siteId, userId }, token: SERVICE_TOKEN });
const authCalls = (from: number) => auth.control.requests.slice(from).filter((r) => r.path.startsWith('/api/admin'));

describe('will-anonymize', () => {
  it('answers what would be affected on this site (GET and PUT alike) and changes nothing', async () => {
    const w = await world();
    const before = await Promise.all([sitePartition(w.siteA), sitePartition(w.siteB)]);
    const authBefore = structuredClone(auth.control.user(w.authId));
    const requests = auth.control.requests.length;

    const res = await anonymize('will-anonymize', w.siteA, w.onA.user.id, w.onA.user.token, 'GET');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['ideas', 'articles', 'arguments', 'votes', 'users', 'sites']);
    expect(res.body.ideas.map((i: { id: number }) => i.id)).toEqual([w.onA.ideaId]);
    expect(res.body.articles.map((a: { id: number }) => a.id)).toEqual([w.onA.articleId]);
    expect(res.body.arguments.map((a: { id: number }) => a.id)).toEqual([w.onA.argumentId]);
    // In idea id order, as the vote list shows a ballot.
    expect(res.body.votes.map((v: { ideaId: number; opinion: string }) => [v.ideaId, v.opinion])).toEqual(
      [
        [w.onA.ideaId, 'yes'],
        [w.other.ideaId, 'no'],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    expect(res.body.users).toEqual([(await userOf(w.siteA, w.onA.user.id)).body].map(({ externalUserId: _x, ...r }) => r));
    expect(res.body.users[0]).toMatchObject({ id: w.onA.user.id, email: w.email, firstName: 'Pat' });
    expect(res.body.sites).toEqual([{ id: w.siteA, name: 'Test site', title: 'Test site' }]);

    const put = await anonymize('will-anonymize', w.siteA, w.onA.user.id, w.onA.user.token, 'PUT');
    expect(put.status).toBe(200);
    expect(put.body).toEqual(res.body);

    expect(await Promise.all([sitePartition(w.siteA), sitePartition(w.siteB)])).toEqual(before);
    expect(auth.control.user(w.authId)).toEqual(authBefore);
    expect(authCalls(requests)).toEqual([]);
    expect((await invoke(me, { params: { siteId: w.siteA }, token: w.onA.user.token })).status).toBe(200);
  });

  it('lists no votes while voting is closed (they will stay)', async () => {
    const w = await world();
    await setVoting(w.siteA, false);
    const res = await anonymize('will-anonymize', w.siteA, w.onA.user.id, w.onA.user.token);
    expect(res.body.votes).toEqual([]);
    expect(res.body.ideas).toHaveLength(1);
  });
});

describe('do-anonymize', () => {
  it('anonymizes this site only and keeps the auth-server user while another site has them', async () => {
    const w = await world();
    const preview = await anonymize('will-anonymize', w.siteA, w.onA.user.id, w.onA.user.token);
    const otherBefore = await itemsOf(w.siteA, w.other.user.id);
    const siteBBefore = await sitePartition(w.siteB);
    const requests = auth.control.requests.length;

    const res = await anonymize('do-anonymize', w.siteA, w.onA.user.id, w.onA.user.token);
    expect(res.status).toBe(200);
    // The state from before.
    expect(res.body).toEqual(preview.body);

    // The record: names from config.users.anonymize (defaults here), personal data gone, id and role kept.
    const record = (await userOf(w.siteA, w.onA.user.id)).body;
    expect(record).toMatchObject({
      id: w.onA.user.id,
      siteId: w.siteA,
      role: 'member',
      email: null,
      firstName: 'Gebruiker',
      lastName: 'is geanonimiseerd',
      nickName: null,
      displayName: 'Gebruiker is geanonimiseerd',
      extraData: {},
      gender: null,
      signedUpForNewsletter: null,
      externalUserId: null,
    });
    // Their token is refused from now on.
    expect((await invoke(me, { params: { siteId: w.siteA }, token: w.onA.user.token })).status).toBe(401);
    expect((await activity(w.siteA, w.onA.user.id, w.onA.user.token)).status).toBe(401);

    // Votes removed with exact tallies; the other person's vote stays.
    const tallies = await expectTalliesMatchBallots(w.siteA);
    expect(tallies).toEqual({ [w.onA.ideaId]: { yes: 1 } });
    expect(await storedTallies(w.siteA)).toEqual({ [w.onA.ideaId]: { yes: 1 } });
    const ballots = await allBallots(w.siteA);
    expect(ballots.find((b) => b.userId === w.onA.user.id)!.votes).toEqual({});

    // Signups gone; ideas, articles and arguments stay and show the anonymized name.
    const signups = await invoke<ListEnvelope<SignupRecord>>(listSignups, { params: { siteId: w.siteA }, token: SERVICE_TOKEN });
    expect(signups.body.records.map((s: { id: number }) => s.id)).toEqual([w.other.signupId]);
    const idea = await invoke<IdeaRecord>(getIdea, { params: { siteId: w.siteA, ideaId: w.onA.ideaId }, query: { includeUser: '1', includeArguments: '1' } });
    expect(idea.status).toBe(200);
    expect(idea.body.user).toEqual({ id: w.onA.user.id, role: 'member', displayName: 'Gebruiker is geanonimiseerd', nickName: null });
    expect(idea.body.argumentsFor!.map((a: { id: number }) => a.id)).toEqual([w.onA.argumentId]);
    expect((await activity(w.siteA, w.onA.user.id)).body.articles.map((a: { id: number }) => a.id)).toEqual([w.onA.articleId]);

    // Nothing of the other person changed; site B is untouched.
    expect(await itemsOf(w.siteA, w.other.user.id)).toEqual(otherBefore);
    expect(await sitePartition(w.siteB)).toEqual(siteBBefore);
    expect((await invoke(me, { params: { siteId: w.siteB }, token: w.onB.user.token })).status).toBe(200);

    // The auth-server user stays (site B has them): no call to the auth server at all.
    expect(authCalls(requests)).toEqual([]);
    expect(auth.control.user(w.authId)).toBeDefined();
    // Unlinked: the person's next login on A makes a fresh user; B no longer finds A's user.
    const fresh = await loginUser(w.siteA, w.email);
    expect(fresh.id).not.toBe(w.onA.user.id);
    const fromB = await anonymize('will-anonymizeall', w.siteB, w.onB.user.id);
    expect(fromB.body.users.map((u: { id: number }) => u.id).sort()).toEqual([fresh.id, w.onB.user.id].sort());
  });

  it('deletes the auth-server user when the last site anonymizes them', async () => {
    const w = await world();
    expect((await anonymize('do-anonymize', w.siteA, w.onA.user.id, w.onA.user.token)).status).toBe(200);
    const requests = auth.control.requests.length;
    const res = await anonymize('do-anonymize', w.siteB, w.onB.user.id, w.onB.user.token);
    expect(res.status).toBe(200);
    expect(authCalls(requests)).toEqual([{ method: 'DELETE', path: `/api/admin/user/${w.authId}` }]);
    expect(auth.control.user(w.authId)).toBeUndefined();
    expect((await userOf(w.siteB, w.onB.user.id)).body).toMatchObject({ email: null, firstName: 'Gebruiker', externalUserId: null });
    await expectTalliesMatchBallots(w.siteB);
    expect(await storedTallies(w.siteB)).toEqual({});
  });

  it('uses the site config names, and keeps the votes while voting is closed', async () => {
    const w = await world({ users: { anonymize: { firstName: 'Former', lastName: 'Participant' } } });
    await setVoting(w.siteA, false);
    const talliesBefore = await storedTallies(w.siteA);
    const res = await anonymize('do-anonymize', w.siteA, w.onA.user.id, SERVICE_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body.votes).toEqual([]);
    expect((await userOf(w.siteA, w.onA.user.id)).body).toMatchObject({ firstName: 'Former', lastName: 'Participant', displayName: 'Former Participant' });
    expect(await storedTallies(w.siteA)).toEqual(talliesBefore);
    expect(Object.keys((await allBallots(w.siteA)).find((b) => b.userId === w.onA.user.id)!.votes)).toHaveLength(2);
    await expectTalliesMatchBallots(w.siteA);
  });

  it('is idempotent: again on an anonymized user writes nothing and answers what is left', async () => {
    const w = await world();
    expect((await anonymize('do-anonymize', w.siteA, w.onA.user.id)).status).toBe(200);
    const after = await sitePartition(w.siteA);
    const again = await anonymize('do-anonymize', w.siteA, w.onA.user.id);
    expect(again.status).toBe(200);
    expect(again.body.votes).toEqual([]);
    expect(again.body.users).toEqual([expect.objectContaining({ id: w.onA.user.id, firstName: 'Gebruiker', email: null })]);
    expect(await sitePartition(w.siteA)).toEqual(after);
  });

  it('costs a constant number of requests per site user', async () => {
    const w = await world();
    // The preview: site + caller (one BatchGet); the person's sites and the owned items (GSI1).
    const preview = await countRequests(() => anonymize('will-anonymize', w.siteA, w.onA.user.id, w.onA.user.token));
    expect(preview.commands).toEqual({ BatchGetItemCommand: 1, QueryCommand: 2 });
    const { result, requests, commands } = await countRequests(() => anonymize('do-anonymize', w.siteA, w.onA.user.id, w.onA.user.token));
    expect(result.status).toBe(200);
    // site + caller (one BatchGet); person's sites (GSI1); owned items (GSI1) + ballot (consistent) in
    // parallel; ballot + tallies (1 transaction); the vote-checkpoints marker (the emptied ballot's log
    // entry); the signup (1 transaction); user + link (1 transaction).
    expect(commands).toEqual({ BatchGetItemCommand: 1, GetItemCommand: 1, QueryCommand: 2, TransactWriteItemsCommand: 3, UpdateItemCommand: 1 });
    expect(requests).toBe(8);
  });
});

describe('who may anonymize', () => {
  it('not another member (403) nor anybody without a token (401), on any of the four paths', async () => {
    const w = await world();
    const before = await sitePartition(w.siteA);
    for (const path of ['will-anonymize', 'will-anonymizeall', 'do-anonymize', 'do-anonymizeall'] as const) {
      const res = await anonymize(path, w.siteA, w.onA.user.id, w.other.user.token);
      expect(res.status, path).toBe(403);
      expect(res.body).toMatchObject({ status: 403, error: 'Forbidden' });
      expect((await anonymize(path, w.siteA, w.onA.user.id, null)).status, path).toBe(401);
      // Another site's token of the same person is no token here.
      expect((await anonymize(path, w.siteA, w.onA.user.id, w.onB.user.token)).status, path).toBe(401);
    }
    expect(await sitePartition(w.siteA)).toEqual(before);
  });

  it('a moderator may, but not on a user whose role is above their own', async () => {
    const w = await world();
    const moderator = await createUser(w.siteA, 'moderator');
    const editor = await createUser(w.siteA, 'editor');
    // The preview is acting on the user too (it lists their votes and record): refused alike.
    expect((await anonymize('will-anonymize', w.siteA, editor.id, moderator.token)).status).toBe(403);
    const refused = await anonymize('do-anonymize', w.siteA, editor.id, moderator.token);
    expect(refused.status).toBe(403);
    expect((await userOf(w.siteA, editor.id)).body.firstName).toBe('Test');
    // An editor may anonymize themselves.
    expect((await anonymize('do-anonymize', w.siteA, editor.id, editor.token)).status).toBe(200);
    expect((await anonymize('do-anonymize', w.siteA, w.onA.user.id, moderator.token)).status).toBe(200);
    expect((await userOf(w.siteA, w.onA.user.id)).body.email).toBeNull();
  });

  it('404 for an unknown user; a member learns nothing about other ids (403)', async () => {
    const w = await world();
    expect((await anonymize('do-anonymize', w.siteA, 999_999_999)).status).toBe(404);
    expect((await anonymize('will-anonymize', w.siteA, 999_999_999, w.other.user.token)).status).toBe(403);
    expect((await anonymize('will-anonymize', w.siteA, w.onB.user.id)).status).toBe(404);
  });
});
