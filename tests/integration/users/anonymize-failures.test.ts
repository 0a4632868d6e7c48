/**
 * Anonymization when something fails: the auth server first (502, nothing changed here), a DynamoDB
 * failure halfway (an injected error on one write; a retry finishes the job, tallies stay exact).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dynamo } from '#lib/store/db/client';
import { pad } from '#lib/store/db/keys';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { expectTalliesMatchBallots, storedTallies } from '#tests/support/vote-fixtures';
import type { RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { handler as getUser } from '../../../functions/users/get.ts';
import { handler as me } from '../../../functions/oauth/me.ts';
import { startTestAuthServer } from '../oauth/login-helpers.ts';
import { activitySite, anonymize, contribute, person, sitePartition, vote, type Contribution } from './activity-helpers.ts';
import type { UserRecord } from '#schemas/user';

let auth: RunningAuthServer;

beforeAll(async () => {
  auth = await startTestAuthServer();
});
afterAll(async () => {
  await auth.stop();
});

let removeInjection: (() => void) | undefined;
afterEach(() => {
  auth.control.failures = {};
  removeInjection?.();
  removeInjection = undefined;
});

/**
 * Makes the next DynamoDB request whose command and input match fail once, as a network error or a
 * crash between two writes would. Returns how often it fired.
 */
function failOnce(command: string, ...fragments: string[]): { fired: () => number } {
  let fired = 0;
  const name = `inject-${Math.random().toString(36).slice(2)}`;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = JSON.stringify((args as { input?: unknown }).input);
      if (fired === 0 && (context as { commandName?: string }).commandName === command && fragments.every((f) => input.includes(f))) {
        fired += 1;
        throw Object.assign(new Error('injected failure'), { name: 'InjectedFailure' });
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  removeInjection = () => dynamo.middlewareStack.remove(name);
  return { fired: () => fired };
}

interface World {
  sites: number[];
  authId: number;
  mine: Contribution[];
  theirs: Contribution;
}

/** A person on `n` sites with a vote on each; another person on the first site who voted on theirs. */
async function world(n: number): Promise<World> {
  const sites: number[] = [];
  for (let i = 0; i < n; i++) sites.push((await activitySite(auth)).id);
  const p = person(auth);
  const mine = await Promise.all(sites.map((s) => contribute(s, p.email)));
  const theirs = await contribute(sites[0]!, person(auth, 'Quinn').email);
  for (const m of mine) await vote(m.user.siteId, m.user.token, [{ ideaId: m.ideaId, opinion: 'yes' }]);
  await vote(theirs.user.siteId, theirs.user.token, [{ ideaId: mine[0]!.ideaId, opinion: 'yes' }]);
  return { sites, authId: p.id, mine, theirs };
}

const userOf = (siteId: number, userId: number) => invoke<UserRecord>(getUser, { params: { siteId, userId }, token: SERVICE_TOKEN });
const tokenWorks = async (c: Contribution) => (await invoke(me, { params: { siteId: c.user.siteId }, token: c.user.token })).status === 200;

async function expectAnonymized(c: Contribution) {
  expect((await userOf(c.user.siteId, c.user.id)).body).toMatchObject({ email: null, firstName: 'Gebruiker', externalUserId: null });
  expect(await tokenWorks(c)).toBe(false);
}

describe('the auth server fails', () => {
  it.each([['do-anonymize' as const], ['do-anonymizeall' as const]])('%s answers 502 and has changed nothing here; a retry finishes', async (path) => {
    const w = await world(path === 'do-anonymize' ? 1 : 2);
    const [first] = w.mine as [Contribution];
    const before = await Promise.all(w.sites.map(sitePartition));
    auth.control.failures.adminDelete = 500;

    const res = await anonymize(path, first.user.siteId, first.user.id, first.user.token);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ status: 502, error: 'BadGateway', message: expect.stringContaining('deleting the user') });
    expect(await Promise.all(w.sites.map(sitePartition))).toEqual(before);
    expect(auth.control.user(w.authId)).toBeDefined();
    expect(await tokenWorks(first)).toBe(true);

    auth.control.failures = {};
    expect((await anonymize(path, first.user.siteId, first.user.id, first.user.token)).status).toBe(200);
    for (const m of w.mine) await expectAnonymized(m);
    expect(auth.control.user(w.authId)).toBeUndefined();
    for (const site of w.sites) await expectTalliesMatchBallots(site);
  });
});

describe('a failure halfway, then a retry', () => {
  it('do-anonymizeall: other sites done, this site failed at its last write; the retry finishes', async () => {
    const w = await world(3);
    const [first, second, third] = w.mine as [Contribution, Contribution, Contribution];
    const injected = failOnce('TransactWriteItemsCommand', `USER#${pad(first.user.id)}`, 'anonymizedAt');

    const failed = await anonymize('do-anonymizeall', first.user.siteId, first.user.id, first.user.token);
    expect(failed.status).toBe(500);
    expect(injected.fired()).toBe(1);
    // The auth server went first, the other sites are done, this site is not yet anonymized (still linked).
    expect(auth.control.user(w.authId)).toBeUndefined();
    await expectAnonymized(second);
    await expectAnonymized(third);
    expect((await userOf(first.user.siteId, first.user.id)).body.externalUserId).not.toBeNull();
    expect(await tokenWorks(first)).toBe(true);

    const retry = await anonymize('do-anonymizeall', first.user.siteId, first.user.id, first.user.token);
    expect(retry.status).toBe(200);
    // What was left: this site's user (the others are no longer linked to the person).
    expect(retry.body.users.map((u: { id: number }) => u.id)).toEqual([first.user.id]);
    for (const m of w.mine) await expectAnonymized(m);
    for (const site of w.sites) await expectTalliesMatchBallots(site);
    expect(await storedTallies(first.user.siteId)).toEqual({ [first.ideaId]: { yes: 1 } });
    expect(await tokenWorks(w.theirs)).toBe(true);
  });

  it('do-anonymizeall: removing the votes on another site failed; the retry from this site finds it still', async () => {
    const w = await world(3);
    const [first, second, third] = w.mine as [Contribution, Contribution, Contribution];
    failOnce('TransactWriteItemsCommand', `BALLOT#${pad(second.user.id)}`, '#TALLY');

    expect((await anonymize('do-anonymizeall', first.user.siteId, first.user.id)).status).toBe(500);
    // The failing site is untouched but linked; this site waited for the others and is untouched too.
    expect((await userOf(second.user.siteId, second.user.id)).body.email).not.toBeNull();
    expect((await userOf(first.user.siteId, first.user.id)).body.email).not.toBeNull();
    await expectAnonymized(third);
    for (const site of w.sites) await expectTalliesMatchBallots(site);

    const retry = await anonymize('do-anonymizeall', first.user.siteId, first.user.id);
    expect(retry.status).toBe(200);
    expect(retry.body.users.map((u: { id: number }) => u.id).sort()).toEqual([first.user.id, second.user.id].sort());
    for (const m of w.mine) await expectAnonymized(m);
    for (const site of w.sites) await expectTalliesMatchBallots(site);
    expect(await storedTallies(second.user.siteId)).toEqual({});
  });

  it('do-anonymize: the signups were deleted, the user write failed; the retry finishes', async () => {
    const w = await world(1);
    const [first] = w.mine as [Contribution];
    failOnce('TransactWriteItemsCommand', `USER#${pad(first.user.id)}`, 'anonymizedAt');
    expect((await anonymize('do-anonymize', first.user.siteId, first.user.id, first.user.token)).status).toBe(500);
    expect(await tokenWorks(first)).toBe(true);
    const partition = await sitePartition(first.user.siteId);
    expect(partition.some((i) => i.userId === first.user.id && String(i.SK).startsWith('SIGNUP#'))).toBe(false);

    expect((await anonymize('do-anonymize', first.user.siteId, first.user.id, first.user.token)).status).toBe(200);
    await expectAnonymized(first);
    await expectTalliesMatchBallots(first.user.siteId);
  });
});
