/**
 * An ended project is closed (CONTRACT "Decided details, lifecycle"): while `project.projectHasEnded`
 * is true, every way to add participation is 403 "the project has ended" whatever the other switches
 * say, for every caller; reads, moderation and anonymization go on; switching it back reopens.
 * And a site that has not ended cannot be deleted while it still has users who are not anonymized.
 */
import { describe, expect, it } from 'vitest';
import type { AuthServerConfig } from '#lib/auth-server/config';
import { runJob } from '#lib/jobs/index';
import { PROJECT_ENDED_MESSAGE } from '#lib/sites/project';
import { loadSite } from '#lib/sites/site';
import { userForLogin } from '#lib/users/login';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import type { AuthServerUser } from '#schemas/oauth';
import type { SiteConfigInput } from '#schemas/site-config';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import { handler as updateIdea } from '../../../functions/ideas/update.ts';
import { handler as deleteIdea } from '../../../functions/ideas/delete.ts';
import { handler as getIdea } from '../../../functions/ideas/get.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as createArgument } from '../../../functions/arguments/create.ts';
import { handler as updateArgument } from '../../../functions/arguments/update.ts';
import { handler as deleteArgument } from '../../../functions/arguments/delete.ts';
import { handler as getResults } from '../../../functions/results/get.ts';
import { handler as voteArgument } from '../../../functions/arguments/vote.ts';
import { handler as castVote } from '../../../functions/votes/cast.ts';
import { handler as createUserHandler } from '../../../functions/users/create.ts';
import { handler as doAnonymize } from '../../../functions/users/do-anonymize.ts';
import { handler as signUp } from '../../../functions/newsletter/create.ts';
import { handler as deleteSite } from '../../../functions/sites/delete.ts';
import { handler as updateSite } from '../../../functions/sites/update.ts';
import { updateSite as storeSiteUpdate } from '#lib/store/sites/sites';
import { putUser } from './helpers.ts';
import type { IdeaRecord } from '#schemas/idea';
import type { ArgumentRecordShape } from '#schemas/argument';
import type { VoteRecord } from '#schemas/votes';
import type { UserRecord } from '#schemas/user';
import type { SignupRecord } from '#schemas/newsletter';
import { errorOf, type Deleted } from '#tests/support/bodies';

/** Every other switch wide open: only the end of the project can close the site. */
const open: SiteConfigInput = {
  votes: { isActive: true, requiredUserRole: 'anonymous', withExisting: 'replace' },
  ideas: { canAddNewIdeas: true },
  arguments: { isClosed: false },
  users: { canCreateNewUsers: true },
  newslettersignup: { isActive: true, autoConfirm: true },
};
const ended: SiteConfigInput = { ...open, project: { projectHasEnded: true } };

const IDEA = { title: 'A park by the river', summary: 'Green space for everyone nearby', description: 'A long description. '.repeat(10) };
const ARGUMENT = { description: 'This argument is long enough to pass the minimum length.', sentiment: 'for' };

/** The participation doors, each called by `token` on site `siteId` with idea `ideaId` and argument `argumentId`. */
function doors(siteId: number, ideaId: number, argumentId: number) {
  return {
    'new idea': (token: string) => invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId }, body: IDEA, token }),
    'new argument': (token: string) => invoke<ArgumentRecordShape>(createArgument, { method: 'POST', params: { siteId, ideaId }, body: ARGUMENT, token }),
    'argument vote': (token: string) => invoke<ArgumentRecordShape>(voteArgument, { method: 'POST', params: { siteId, ideaId, argumentId }, token }),
    vote: (token: string) => invoke<VoteRecord[]>(castVote, { method: 'POST', params: { siteId }, body: [{ ideaId, opinion: 'yes' }], token }),
    'new user': (token: string) => invoke<UserRecord>(createUserHandler, { method: 'POST', params: { siteId }, body: { email: `new-${Date.now()}-${Math.random()}@example.org` }, token }),
    'newsletter signup': (_token: string) => invoke<SignupRecord>(signUp, { method: 'POST', params: { siteId }, body: { email: `reader-${Date.now()}-${Math.random()}@example.org` } }),
  };
}

/** A site with a member's idea and argument, made while open, then given `config`. */
async function world(config: SiteConfigInput) {
  const site = await createSite(open);
  const member = await createUser(site.id, 'member');
  const moderator = await createUser(site.id, 'moderator');
  const admin = await createUser(site.id, 'admin');
  const idea = (await invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId: site.id }, body: IDEA, token: member.token })).body;
  const argument = await invoke<ArgumentRecordShape>(createArgument, { method: 'POST', params: { siteId: site.id, ideaId: idea.id }, body: ARGUMENT, token: member.token });
  expect(argument.status).toBe(201);
  await storeSiteUpdate(site.id, { config, updatedAt: new Date().toISOString() });
  return { site, member, moderator, admin, ideaId: idea.id, argumentId: argument.body.id as number };
}

describe('an ended project', () => {
  it('answers 403 "the project has ended" to every way of adding participation, for every caller', async () => {
    const w = await world(ended);
    for (const [door, call] of Object.entries(doors(w.site.id, w.ideaId, w.argumentId))) {
      // The moderator may add ideas, arguments and users whatever the switches say; not after the end.
      for (const caller of [w.member, w.moderator, w.admin]) {
        if (door === 'new user' && caller === w.member) continue; // members never create users (403 anyway)
        const res = await call(caller.token);
        expect(res.status, `${door} by ${caller.role}`).toBe(403);
        expect(res.body, door).toMatchObject({ status: 403, error: 'Forbidden', message: PROJECT_ENDED_MESSAGE });
      }
    }
    // A service token too (it may create users and ideas on any open site).
    for (const door of ['new idea', 'new user'] as const) {
      const res = await doors(w.site.id, w.ideaId, w.argumentId)[door](SERVICE_TOKEN);
      expect(res.status, door).toBe(403);
      expect(errorOf(res.body).message).toBe(PROJECT_ENDED_MESSAGE);
    }
  });

  it('lets the same callers in on a site that has not ended (the doors above work)', async () => {
    const w = await world(open);
    const d = doors(w.site.id, w.ideaId, w.argumentId);
    expect((await d['new idea'](w.member.token)).status).toBe(201);
    expect((await d['new argument'](w.member.token)).status).toBe(201);
    expect((await d['argument vote'](w.moderator.token)).status).toBe(200);
    expect((await d.vote(w.member.token)).status).toBe(200);
    expect((await d['new user'](w.moderator.token)).status).toBe(201);
    expect((await d['newsletter signup']('')).status).toBe(201);
  });

  it('still serves reads, moderation and anonymization', async () => {
    const w = await world(ended);
    const siteId = w.site.id;
    expect((await invoke(listIdeas, { params: { siteId } })).status).toBe(200);
    expect((await invoke(getIdea, { params: { siteId, ideaId: w.ideaId } })).status).toBe(200);
    const moderated = await invoke<IdeaRecord>(updateIdea, { method: 'PUT', params: { siteId, ideaId: w.ideaId }, body: { status: 'ACCEPTED' }, token: w.moderator.token });
    expect(moderated.status).toBe(200);
    expect(moderated.body.status).toBe('ACCEPTED');
    const anonymized = await invoke(doAnonymize, { method: 'PUT', params: { siteId, userId: w.member.id }, token: w.member.token });
    expect(anonymized.status).toBe(200);
    expect((await invoke(deleteIdea, { method: 'DELETE', params: { siteId, ideaId: w.ideaId }, token: w.moderator.token })).status).toBe(200);
  });

  it('reopens when the switch goes back: the other switches decide again', async () => {
    const w = await world(ended);
    const d = doors(w.site.id, w.ideaId, w.argumentId);
    expect((await d['new idea'](w.member.token)).status).toBe(403);
    const reopen = await invoke(updateSite, { method: 'PUT', params: { siteId: w.site.id }, body: { config: { ...open, project: { projectHasEnded: false } } }, token: SERVICE_TOKEN });
    expect(reopen.status).toBe(200);
    expect((await d['new idea'](w.member.token)).status).toBe(201);
    // ... and a switch that is off still closes its door, with its own message.
    const closed = await invoke(updateSite, { method: 'PUT', params: { siteId: w.site.id }, body: { config: { ...open, ideas: { canAddNewIdeas: false } } }, token: SERVICE_TOKEN });
    expect(closed.status).toBe(200);
    const refused = await d['new idea'](w.member.token);
    expect(refused.status).toBe(403);
    expect(errorOf(refused.body).message).not.toBe(PROJECT_ENDED_MESSAGE);
  });

  it('creates no user at a first login, but lets known users log in', async () => {
    const site = await createSite(ended);
    const known = await putUser(site.id);
    const server = { url: 'https://auth.example.org', name: 'default' } as unknown as AuthServerConfig;
    const loaded = await loadSite(site.id);
    const stranger = { id: `ext-${site.id}`, email: 'stranger@example.org' } as unknown as AuthServerUser;
    await expect(userForLogin(loaded, server, stranger)).rejects.toMatchObject({ status: 403, message: PROJECT_ENDED_MESSAGE });
    expect(known.id).toBeGreaterThan(0);
  });
});

describe('the end date is the end, whatever the end-projects job has done yet', () => {
  // The end date passed a moment ago; the flag is still false (the job runs hourly).
  const endedByDate = (): SiteConfigInput => ({ ...open, project: { projectHasEnded: false, endDate: new Date(Date.now() - 1000).toISOString() } });

  it('every participation door answers 403 "the project has ended" for every caller', async () => {
    const w = await world(endedByDate());
    for (const [door, call] of Object.entries(doors(w.site.id, w.ideaId, w.argumentId))) {
      for (const caller of [w.member, w.moderator, w.admin]) {
        if (door === 'new user' && caller === w.member) continue;
        const res = await call(caller.token);
        expect(res.status, `${door} by ${caller.role}`).toBe(403);
        expect(errorOf(res.body).message, door).toBe(PROJECT_ENDED_MESSAGE);
      }
    }
    expect((await doors(w.site.id, w.ideaId, w.argumentId)['new idea'](SERVICE_TOKEN)).status).toBe(403);
  });

  it('authors can no longer change or delete their ideas and arguments; moderators still can; results become public', async () => {
    const w = await world(endedByDate());
    const siteId = w.site.id;
    const { ideaId, argumentId } = w;
    const edits = {
      'idea update': (token: string) => invoke(updateIdea, { method: 'PUT', params: { siteId, ideaId }, body: { title: 'A rewritten title after the vote' }, token }),
      'argument update': (token: string) => invoke(updateArgument, { method: 'PUT', params: { siteId, ideaId, argumentId }, body: { description: 'A rewritten argument, long enough to pass.' }, token }),
      'argument delete': (token: string) => invoke(deleteArgument, { method: 'DELETE', params: { siteId, ideaId, argumentId }, token }),
      'idea delete': (token: string) => invoke(deleteIdea, { method: 'DELETE', params: { siteId, ideaId }, token }),
    };
    for (const [edit, call] of Object.entries(edits)) {
      const res = await call(w.member.token);
      expect(res.status, `${edit} by its author`).toBe(403);
      expect(errorOf(res.body).message, edit).toBe(PROJECT_ENDED_MESSAGE);
    }
    // Public now: an anonymous reader is answered (202 until the results job has stored a snapshot), never 403.
    const anonymous = await invoke(getResults, { params: { siteId } });
    expect(anonymous.status).toBe(202);
    await runJob('results', { now: new Date(), siteId });
    expect((await invoke(getResults, { params: { siteId } })).status).toBe(200);
    expect((await edits['idea update'](w.moderator.token)).status).toBe(200);
    expect((await edits['argument update'](w.moderator.token)).status).toBe(200);
    expect((await edits['argument delete'](w.moderator.token)).status).toBe(200);
    expect((await edits['idea delete'](w.moderator.token)).status).toBe(200);
  });

  it('an end date still ahead keeps the site open, and authors may edit', async () => {
    const w = await world({ ...open, ideas: { canAddNewIdeas: true, canEditAfterFirstLikeOrArg: true }, project: { endDate: new Date(Date.now() + 3_600_000).toISOString() } });
    const d = doors(w.site.id, w.ideaId, w.argumentId);
    const edit = await invoke(updateIdea, { method: 'PUT', params: { siteId: w.site.id, ideaId: w.ideaId }, body: { title: 'A better title for the park' }, token: w.member.token });
    expect(edit.status).toBe(200);
    expect((await d.vote(w.member.token)).status).toBe(200);
    expect((await d['new idea'](w.member.token)).status).toBe(201);
  });
});

describe('DELETE /api/site/:id of a site that has not ended', () => {
  const del = (siteId: number, token: string, query?: Record<string, string>) => invoke<Deleted>(deleteSite, { method: 'DELETE', params: { siteId }, token, query });

  it('is 409 with the reason while users are not anonymized; force=1 with a service token deletes', async () => {
    const site = await createSite(open);
    const admin = await putUser(site.id, { role: 'admin' });
    const refused = await del(site.id, admin.token);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ status: 409, error: 'Conflict' });
    expect(errorOf(refused.body).message).toMatch(/not anonymized/);
    // An admin cannot force it; the service token can.
    expect((await del(site.id, admin.token, { force: '1' })).status).toBe(409);
    expect((await del(site.id, SERVICE_TOKEN)).status).toBe(409);
    expect((await del(site.id, SERVICE_TOKEN, { force: 'yes' })).status).toBe(400);
    const forced = await del(site.id, SERVICE_TOKEN, { force: '1' });
    expect(forced.status).toBe(200);
    expect(forced.body).toEqual({ id: site.id, deleted: true });
  });

  it('deletes an ended site, and a site whose users are all anonymized', async () => {
    const endedSite = await createSite(ended);
    await putUser(endedSite.id);
    expect((await del(endedSite.id, SERVICE_TOKEN)).status).toBe(200);

    const site = await createSite(open);
    const user = await putUser(site.id);
    expect((await del(site.id, SERVICE_TOKEN)).status).toBe(409);
    const anonymized = await invoke(doAnonymize, { method: 'PUT', params: { siteId: site.id, userId: user.id }, token: SERVICE_TOKEN });
    expect(anonymized.status).toBe(200);
    expect((await del(site.id, SERVICE_TOKEN)).status).toBe(200);
  });

  it('checks with one Query, however many users the site has', async () => {
    for (const users of [1, 30]) {
      const site = await createSite(open);
      await Promise.all(Array.from({ length: users }, () => putUser(site.id)));
      const { result, commands } = await countRequests(() => del(site.id, SERVICE_TOKEN));
      expect(result.status).toBe(409);
      // site GetItem + 1 Query (Limit 1) on the activity index
      expect(commands).toEqual({ GetItemCommand: 1, QueryCommand: 1 });
    }
  });
});
