/**
 * What a site user owns is read by `itemsOwnedBy(siteId, userId, kinds)` (GSI1 `USER#<u>`, filtered to
 * `PK = SITE#<s>`):
 *  - another site's moderator cannot file an idea or an argument on their own site under a user id of
 *    this site, so that it shows in (or is anonymized with) this site's user;
 *  - another site's admin cannot read this site's user's activity or export through their own site's path;
 *  - a malformed item under a voter's ballot key does not take down the voter's activity, personal
 *    data export or anonymization: it shows nowhere, as it counts nowhere (`wellFormedBallots`), and
 *    do-anonymize leaves it in place for the operator (lib/privacy/anonymize.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { doc, TABLE } from '#lib/store/db/client';
import { createSite, createUser, type TestUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { castVotes, createIdea } from '#tests/support/vote-fixtures';
import { overwriteAttributes } from '#tests/support/ballot-tampering';
import { ballotKeys } from '#lib/store/ballots/keys';
import type { UserExportResponse } from '#schemas/results';
import { handler as createIdeaHandler } from '../../../functions/ideas/create.ts';
import { handler as createArgument } from '../../../functions/arguments/create.ts';
import { handler as exportUser } from '../../../functions/users/export.ts';
import { activity, anonymize } from './activity-helpers.ts';

const config = { votes: { isActive: true, isViewable: true }, newslettersignup: { isActive: true } };
const LONG = 'This argument is long enough to pass the default minimum length.';

describe("another site's staff and this site's user", () => {
  let siteA: number;
  let siteB: number;
  let victim: TestUser;
  let moderatorB: TestUser;
  let adminB: TestUser;
  let ideaA: number;
  let ideaB: number;

  beforeAll(async () => {
    [siteA, siteB] = (await Promise.all([createSite(config), createSite(config)])).map((s) => s.id) as [number, number];
    victim = await createUser(siteA);
    moderatorB = await createUser(siteB, 'moderator');
    adminB = await createUser(siteB, 'admin');
    ({ id: ideaA } = await createIdea(siteA, { userId: victim.id }));
    ({ id: ideaB } = await createIdea(siteB, { userId: moderatorB.id }));
  });

  it("a moderator of B cannot file an idea on B under A's user id (400, nothing in A's user's activity)", async () => {
    const res = await invoke<{ id: number }>(createIdeaHandler, {
      method: 'POST',
      params: { siteId: siteB },
      token: moderatorB.token,
      body: {
        title: 'An idea filed under someone else',
        summary: 'A summary that is long enough to pass',
        description: 'A description. '.repeat(12),
        userId: victim.id,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    const shown = await activity(siteA, victim.id);
    expect(shown.status).toBe(200);
    expect(shown.body.ideas.map((i) => i.id)).toEqual([ideaA]);
  });

  it("a moderator of B cannot file an argument on B under A's user id (400)", async () => {
    const res = await invoke(createArgument, { method: 'POST', params: { siteId: siteB, ideaId: ideaB }, token: moderatorB.token, body: { description: LONG, userId: victim.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    const shown = await activity(siteA, victim.id);
    expect(shown.body.arguments).toEqual([]);
  });

  it("B's admin and moderator reading A's user through B's paths: 404 / 403, never A's items", async () => {
    const act = await activity(siteB, victim.id, moderatorB.token);
    expect([403, 404]).toContain(act.status);
    const exp = await invoke<UserExportResponse>(exportUser, { params: { siteId: siteB, userId: victim.id }, token: adminB.token });
    expect([403, 404]).toContain(exp.status);
    // A's path with B's token: the token is of another site.
    const cross = await activity(siteA, victim.id, adminB.token);
    expect(cross.status).toBe(401);
    const anon = await anonymize('do-anonymize', siteB, victim.id, adminB.token);
    expect([403, 404]).toContain(anon.status);
    // A's idea is still A's user's.
    const still = await activity(siteA, victim.id);
    expect(still.body.ideas.map((i) => i.id)).toEqual([ideaA]);
  });
});

describe("a malformed item under a voter's ballot key (its GSI1 entry kept), and the voter's own-data reads", () => {
  let site: number;
  let voter: TestUser;
  let moderator: TestUser;
  let idea: number;

  beforeAll(async () => {
    site = (await createSite(config)).id;
    voter = await createUser(site);
    moderator = await createUser(site, 'moderator');
    ({ id: idea } = await createIdea(site, { userId: voter.id }));
    expect((await castVotes(site, voter.token, [{ ideaId: idea }])).status).toBe(200);
    // A writer with table access breaks one attribute in place: the item keeps its keys, GSI1 too.
    await overwriteAttributes(ballotKeys.ballot(site, voter.id), { votes: 'yes' });
  });

  it('activity (the voter, a moderator): 200, no 500', async () => {
    const own = await activity(site, voter.id, voter.token);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.ideas.map((i) => i.id)).toEqual([idea]);
    const mod = await activity(site, voter.id, moderator.token);
    expect(mod.status, JSON.stringify(mod.body)).toBe(200);
  });

  it('the personal data export: 200, no 500', async () => {
    const res = await invoke<UserExportResponse>(exportUser, { params: { siteId: site, userId: voter.id }, token: voter.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('the anonymization preview: 200, no 500, no vote listed', async () => {
    const res = await anonymize('will-anonymize', site, voter.id, voter.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.votes).toEqual([]);
  });

  it('do-anonymize: 200, the user anonymized; the malformed item stays where it is, for the operator to remove after verify-votes names it', async () => {
    const res = await anonymize('do-anonymize', site, voter.id, voter.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const still = await doc.send(new GetCommand({ TableName: TABLE, Key: ballotKeys.ballot(site, voter.id), ConsistentRead: true }));
    expect(still.Item?.['votes']).toBe('yes');
    const after = await activity(site, voter.id, moderator.token);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.votes).toEqual([]);
  });
});
