/**
 * What a site user owns is read through GSI1 by user id (lib/store/users/owned-items.ts). User ids are
 * unique across sites, but an import or a writer with table access can put a second site user under an
 * id that is taken on another site. Activity, the personal data export and anonymization of the one
 * must then never show, nor change, what the other owns: the read keeps the site's own items only.
 * Each test is the reused id, then what must come out.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createSite, createUser, SERVICE_TOKEN, type TestUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { castVotes, createIdea } from '#tests/support/vote-fixtures';
import type { SignupRecord } from '#schemas/newsletter';
import type { UserExportResponse } from '#schemas/results';
import { handler as createSignup } from '../../../functions/newsletter/create.ts';
import { handler as exportUser } from '../../../functions/users/export.ts';
import { activity, anonymize, itemsOf } from './activity-helpers.ts';

const config = { votes: { isActive: true, isViewable: true }, newslettersignup: { isActive: true } };

describe('a user id taken on two sites', () => {
  let siteA: number;
  let siteB: number;
  let user: TestUser;
  /** The other site's user under the same id, with an idea, a vote and a newsletter signup there. */
  let twin: TestUser;
  let ideaA: number;
  let ideaB: number;

  beforeAll(async () => {
    [siteA, siteB] = (await Promise.all([createSite(config), createSite(config)])).map((site) => site.id) as [number, number];
    user = await createUser(siteA);
    twin = await createUser(siteB, 'member', { id: user.id });
    ({ id: ideaA } = await createIdea(siteA, { userId: user.id }));
    ({ id: ideaB } = await createIdea(siteB, { userId: twin.id }));
    expect((await castVotes(siteB, twin.token, [{ ideaId: ideaB }])).status).toBe(200);
    const signup = await invoke<SignupRecord>(createSignup, { method: 'POST', params: { siteId: siteB }, token: twin.token, body: { email: `twin-${twin.id}@example.org` } });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
  });

  it("activity and the preview of anonymization show this site's items only", async () => {
    const shown = await activity(siteA, user.id);
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body.ideas.map((idea) => idea.id)).toEqual([ideaA]);
    expect(shown.body.votes).toEqual([]);

    const preview = await anonymize('will-anonymize', siteA, user.id);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.ideas.map((idea) => idea.id)).toEqual([ideaA]);
    expect(preview.body.votes).toEqual([]);
  });

  it("the personal data export holds this site's items only", async () => {
    const res = await invoke<UserExportResponse>(exportUser, { params: { siteId: siteA, userId: user.id }, token: SERVICE_TOKEN });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ideas.map((idea) => idea['id'])).toEqual([ideaA]);
    expect(res.body.votes).toEqual([]);
    expect(res.body.newsletterSignups).toEqual([]);
  });

  it("anonymizing the user leaves the other site's signup and vote where they were", async () => {
    const before = await itemsOf(siteB, twin.id);
    const res = await anonymize('do-anonymize', siteA, user.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await itemsOf(siteB, twin.id)).toEqual(before);
  });
});
