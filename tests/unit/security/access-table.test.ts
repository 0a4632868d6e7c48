/**
 * Every cell of the access table (lib/auth/access.ts, CONTRACT "Identity and roles") with the answer it
 * gives each kind of caller: nobody (401), too low a role or not the owner (403, with the message the
 * client sees), the right caller (allowed), and an ended project (403) where contributions close. The
 * mutation run showed which cells no unit test pinned down; this table pins all of them.
 */
import { describe, expect, it } from 'vitest';
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import type { Role } from '#lib/auth/roles';
import { withDefaults, type SiteConfig } from '#lib/sites/config-defaults';
import { PROJECT_ENDED_MESSAGE } from '#lib/sites/project';
import type { SiteConfigInput } from '#schemas/site-config';
import type { UserItem } from '#lib/store/users/users';

const SITE = 1;
const nobody: Caller = { kind: 'none', role: undefined, userId: undefined };
const service: Caller = { kind: 'service', role: 'admin', userId: undefined };
const user = (role: Role, userId = 10, siteId = SITE): Caller => ({ kind: 'user', role, userId, siteId, user: {} as UserItem });

const config = (input: SiteConfigInput = {}): SiteConfig => withDefaults(input);
const ended = config({ project: { projectHasEnded: true } } as SiteConfigInput);
/** The end date has passed but no job has set the flag yet: ended all the same. */
const pastEndDate = config({ project: { endDate: '2020-01-01T00:00:00Z' } } as SiteConfigInput);
const futureEndDate = config({ project: { endDate: '2999-01-01' } } as SiteConfigInput);

/** 'ok', or `<status> <message>` of what the rule threw. */
function answer(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (err) {
    const e = err as { status?: number; message: string };
    return `${e.status} ${e.message}`;
  }
}

describe('requireRole / requireOwnerOr', () => {
  it('401 without a token, 403 with the message (or the default one) below the role, else ok', () => {
    expect(answer(() => access.requireRole(nobody, 'member'))).toBe('401 Authentication required');
    expect(answer(() => access.requireRole(user('member'), 'moderator'))).toBe('403 Requires the moderator role');
    expect(answer(() => access.requireRole(user('member'), 'moderator', 'Custom'))).toBe('403 Custom');
    expect(answer(() => access.requireRole(user('moderator'), 'moderator'))).toBe('ok');
    expect(answer(() => access.requireRole(service, 'admin'))).toBe('ok');
  });

  it('the owner or the role', () => {
    expect(answer(() => access.requireOwnerOr(nobody, { userId: 10 }, 'moderator'))).toBe('401 Authentication required');
    expect(answer(() => access.requireOwnerOr(user('member', 10), { userId: 10 }, 'moderator'))).toBe('ok');
    expect(answer(() => access.requireOwnerOr(user('member', 11), { userId: 10 }, 'moderator'))).toBe('403 Only the owner or a moderator may do this');
    expect(answer(() => access.requireOwnerOr(user('moderator', 11), { userId: 10 }, 'moderator'))).toBe('ok');
  });

  it('isOwner: a user with the record\'s user id; never a record without one, never a service token', () => {
    expect(access.isOwner(user('member', 10), { userId: 10 })).toBe(true);
    expect(access.isOwner(user('member', 10), { userId: 11 })).toBe(false);
    expect(access.isOwner(user('member', 10), { userId: null })).toBe(false);
    expect(access.isOwner(user('member', 10), {})).toBe(false);
    expect(access.isOwner(service, { userId: 10 })).toBe(false);
    expect(access.isOwner(nobody, { userId: undefined })).toBe(false);
  });
});

describe('sites', () => {
  it('full config: a service token, or an editor of this very site', () => {
    expect(access.site.seesFullConfig(service, SITE)).toBe(true);
    expect(access.site.seesFullConfig(user('editor'), SITE)).toBe(true);
    expect(access.site.seesFullConfig(user('editor'), 2)).toBe(false);
    expect(access.site.seesFullConfig(user('moderator'), SITE)).toBe(false);
    expect(access.site.seesFullConfig(nobody, SITE)).toBe(false);
  });

  it('closed sites in the list: a service token, or an admin of that very site', () => {
    expect(access.site.seesClosed(service, SITE)).toBe(true);
    expect(access.site.seesClosed(user('admin'), SITE)).toBe(true);
    expect(access.site.seesClosed(user('admin'), 2)).toBe(false);
    expect(access.site.seesClosed(user('editor'), SITE)).toBe(false);
    expect(access.site.seesClosed(nobody, SITE)).toBe(false);
  });

  it('create: service tokens only; manage (and exports): a service token or an admin of this site', () => {
    expect(answer(() => access.site.create(nobody))).toBe('401 Authentication required');
    expect(answer(() => access.site.create(user('admin')))).toBe('403 Creating sites requires a service token');
    expect(answer(() => access.site.create(service))).toBe('ok');
    for (const manage of [access.site.manage, access.results.export]) {
      expect(answer(() => manage(nobody, SITE))).toBe('401 Authentication required');
      expect(answer(() => manage(service, SITE))).toBe('ok');
      expect(answer(() => manage(user('admin'), SITE))).toBe('ok');
      expect(answer(() => manage(user('admin'), 2))).toBe('403 Requires the admin role on this site');
      expect(answer(() => manage(user('editor'), SITE))).toBe('403 Requires the admin role on this site');
    }
  });
});

describe('ideas and articles', () => {
  it('idea create: members while canAddNewIdeas, moderators always, nobody once the project ended', () => {
    const closed = config({ ideas: { canAddNewIdeas: false } });
    expect(answer(() => access.idea.create(nobody, config()))).toBe('401 Authentication required');
    expect(answer(() => access.idea.create(user('anonymous'), config()))).toBe('403 Requires the member role');
    expect(answer(() => access.idea.create(user('member'), config()))).toBe('ok');
    expect(answer(() => access.idea.create(user('member'), closed))).toBe('403 New ideas cannot be added on this site');
    expect(answer(() => access.idea.create(user('moderator'), closed))).toBe('ok');
    expect(answer(() => access.idea.create(user('admin'), ended))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
  });

  it('idea modify: moderators always; the owner while OPEN and before the first vote or argument (unless allowed)', () => {
    const own = { userId: 10, status: 'OPEN' };
    const lax = config({ ideas: { canEditAfterFirstLikeOrArg: true } });
    expect(answer(() => access.idea.modify(nobody, own, config(), false))).toBe('401 Authentication required');
    expect(answer(() => access.idea.modify(user('moderator', 99), { ...own, status: 'DONE' }, config(), true))).toBe('ok');
    expect(answer(() => access.idea.modify(user('member', 11), own, config(), false))).toBe('403 Only the owner or a moderator may change this idea');
    expect(answer(() => access.idea.modify(user('member'), own, config(), false))).toBe('ok');
    expect(answer(() => access.idea.modify(user('member'), { userId: 10 }, config(), false))).toBe('ok');
    expect(answer(() => access.idea.modify(user('member'), { ...own, status: 'CLOSED' }, config(), false))).toBe('403 The idea is no longer open for changes');
    expect(answer(() => access.idea.modify(user('member'), own, config(), true))).toBe('403 The idea cannot be changed after its first vote or argument');
    expect(answer(() => access.idea.modify(user('member'), own, lax, true))).toBe('ok');
  });

  it('ideas and arguments are frozen for their authors once the project has ended (flag or end date); moderators still moderate', () => {
    const own = { userId: 10, status: 'OPEN' };
    for (const closed of [ended, pastEndDate]) {
      expect(answer(() => access.idea.modify(user('member'), own, closed, false))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
      expect(answer(() => access.argument.modify(user('member'), { userId: 10 }, closed))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
      expect(answer(() => access.idea.modify(user('moderator', 99), own, closed, true))).toBe('ok');
      expect(answer(() => access.argument.modify(user('moderator', 99), { userId: 10 }, closed))).toBe('ok');
      expect(answer(() => access.argument.modify(service, { userId: 10 }, closed))).toBe('ok');
      // Someone else's idea still gets the ownership answer first.
      expect(answer(() => access.idea.modify(user('member', 11), own, closed, false))).toBe('403 Only the owner or a moderator may change this idea');
    }
    expect(answer(() => access.idea.modify(user('member'), own, futureEndDate, false))).toBe('ok');
    expect(answer(() => access.argument.modify(user('member'), { userId: 10 }, futureEndDate))).toBe('ok');
  });

  it('from project.endDate on, every door the ended-project gate closes is closed, whatever the job has done', () => {
    expect(answer(() => access.idea.create(user('admin'), pastEndDate))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
    expect(answer(() => access.argument.create(user('moderator'), pastEndDate))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
    expect(answer(() => access.argument.vote(user('member'), pastEndDate))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
    expect(answer(() => access.vote.cast(user('member'), pastEndDate))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
    expect(answer(() => access.user.create(user('admin'), pastEndDate))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
    expect(answer(() => access.newsletter.create(config({ ...pastEndDate, newslettersignup: { isActive: true } } as SiteConfigInput)))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
    expect(answer(() => access.results.read(nobody, pastEndDate))).toBe('ok');
    for (const open of [config(), futureEndDate]) {
      expect(answer(() => access.idea.create(user('member'), open))).toBe('ok');
      expect(answer(() => access.vote.cast(user('member'), open))).toBe('ok');
      expect(answer(() => access.results.read(nobody, open))).toBe('401 Authentication required');
    }
  });

  it('articles: moderators while canAddNewArticles, editors always; modify: owner or moderator', () => {
    const closed = config({ articles: { canAddNewArticles: false } });
    expect(answer(() => access.article.create(user('member'), config()))).toBe('403 Requires the moderator role');
    expect(answer(() => access.article.create(user('moderator'), config()))).toBe('ok');
    expect(answer(() => access.article.create(user('moderator'), closed))).toBe('403 New articles cannot be added on this site');
    expect(answer(() => access.article.create(user('editor'), closed))).toBe('ok');
    expect(answer(() => access.article.modify(user('member', 10), { userId: 10 }))).toBe('ok');
    expect(answer(() => access.article.modify(user('member', 11), { userId: 10 }))).toBe('403 Only the owner or a moderator may do this');
  });
});

describe('arguments and votes', () => {
  it('argument create: members unless closed (the site\'s own text), moderators always; not after the end', () => {
    const closed = config({ arguments: { isClosed: true, closedText: 'Closed for now' } });
    expect(answer(() => access.argument.create(user('anonymous'), config()))).toBe('403 Requires the member role');
    expect(answer(() => access.argument.create(user('member'), config()))).toBe('ok');
    expect(answer(() => access.argument.create(user('member'), closed))).toBe('403 Closed for now');
    expect(answer(() => access.argument.create(user('moderator'), closed))).toBe('ok');
    expect(answer(() => access.argument.create(user('moderator'), ended))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
    expect(answer(() => access.argument.modify(user('member', 11), { userId: 10 }, config()))).toBe('403 Only the owner or a moderator may do this');
    expect(answer(() => access.argument.vote(user('member'), config()))).toBe('ok');
    expect(answer(() => access.argument.vote(user('anonymous'), config()))).toBe('403 Requires the member role');
    expect(answer(() => access.argument.vote(user('member'), ended))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
  });

  it('votes: read public when viewable, else moderators; counts and user ids likewise; cast by the required role while open', () => {
    const viewable = config({ votes: { isViewable: true } });
    expect(answer(() => access.vote.read(nobody, viewable))).toBe('ok');
    expect(answer(() => access.vote.read(nobody, config()))).toBe('401 Authentication required');
    expect(answer(() => access.vote.read(user('member'), config()))).toBe('403 Votes of this site are not public');
    expect(answer(() => access.vote.read(user('moderator'), config()))).toBe('ok');
    expect(access.vote.seesCounts(nobody, viewable)).toBe(true);
    expect(access.vote.seesCounts(user('member'), config())).toBe(false);
    expect(access.vote.seesCounts(user('moderator'), config())).toBe(true);
    expect(access.vote.seesUserIds(user('member'))).toBe(false);
    expect(access.vote.seesUserIds(user('moderator'))).toBe(true);
    expect(answer(() => access.vote.cast(user('member'), config()))).toBe('ok');
    expect(answer(() => access.vote.cast(user('anonymous'), config()))).toBe('403 Requires the member role');
    expect(answer(() => access.vote.cast(user('anonymous'), config({ votes: { requiredUserRole: 'anonymous' } })))).toBe('ok');
    expect(answer(() => access.vote.cast(user('admin'), ended))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
  });
});

describe('users', () => {
  const target = { id: 20, siteId: SITE, role: 'member' };

  it('list, fields, external ids, listability and details', () => {
    expect(answer(() => access.user.list(user('member')))).toBe('403 Requires the moderator role');
    expect(answer(() => access.user.list(user('moderator')))).toBe('ok');
    expect(access.user.seesAllFields(service, target)).toBe(true);
    expect(access.user.seesAllFields(user('member', 20), target)).toBe(true);
    expect(access.user.seesAllFields(user('member', 21), target)).toBe(false);
    expect(access.user.seesAllFields(user('moderator', 21), target)).toBe(true);
    expect(access.user.seesAllFields(user('moderator', 21, 2), target)).toBe(false);
    expect(access.user.seesExternalId(user('editor'))).toBe(false);
    expect(access.user.seesExternalId(user('admin'))).toBe(true);
    expect(access.user.listsUser(user('member', 21), { ...target, listableByRole: null })).toBe(true);
    expect(access.user.listsUser(user('member', 21), { ...target, listableByRole: 'moderator' })).toBe(false);
    expect(access.user.listsUser(user('member', 20), { ...target, listableByRole: 'admin' })).toBe(true);
    expect(access.user.listsUser(nobody, { ...target, listableByRole: 'all' })).toBe(true);
    expect(access.user.listsUser(user('editor', 21), { ...target, listableByRole: 'superuser' })).toBe(false);
    expect(access.user.listsUser(user('admin', 21), { ...target, listableByRole: 'superuser' })).toBe(true);
    expect(access.user.seesDetails(user('member'), { detailsViewableByRole: null })).toBe(false);
    expect(access.user.seesDetails(user('member'), { detailsViewableByRole: 'member' })).toBe(true);
    expect(access.user.seesDetails(user('member'), { detailsViewableByRole: 'moderator' })).toBe(false);
  });

  it('create: moderators while canCreateNewUsers, never after the end', () => {
    expect(answer(() => access.user.create(user('moderator'), config()))).toBe('ok');
    expect(answer(() => access.user.create(user('member'), config()))).toBe('403 Requires the moderator role');
    expect(answer(() => access.user.create(user('moderator'), config({ users: { canCreateNewUsers: false } })))).toBe('403 New users cannot be created on this site');
    expect(answer(() => access.user.create(user('admin'), ended))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
  });

  it('actOn: self and service tokens; staff of this site at or above the target\'s role; e-mail for admins; shared identity for the person', () => {
    expect(answer(() => access.user.actOn(nobody, target))).toBe('401 Authentication required');
    expect(answer(() => access.user.actOn(service, target, { everySite: true, email: true, sharedIdentity: true }))).toBe('ok');
    expect(answer(() => access.user.actOn(user('member', 20), target, { everySite: true, email: true, sharedIdentity: true }))).toBe('ok');
    expect(answer(() => access.user.actOn(user('admin', 21), target, { everySite: true }))).toBe(
      '403 Only the user themself or a service token may act on every site of a user; site staff use the per-site paths',
    );
    expect(answer(() => access.user.actOn(user('member', 21), target))).toBe('403 Only the user or a moderator may do this');
    expect(answer(() => access.user.actOn(user('admin', 21, 2), target))).toBe('403 Only the user or a moderator may do this');
    expect(answer(() => access.user.actOn(user('moderator', 21), target))).toBe('ok');
    expect(answer(() => access.user.actOn(user('moderator', 21), { id: 20, siteId: SITE }))).toBe('ok');
    expect(answer(() => access.user.actOn(user('moderator', 21), { ...target, role: 'editor' }))).toBe('403 Nobody may act on a user whose role is above their own');
    expect(answer(() => access.user.actOn(user('editor', 21), { ...target, role: 'unknown-role' }))).toBe('403 Nobody may act on a user whose role is above their own');
    expect(answer(() => access.user.actOn(user('moderator', 21), target, { email: true }))).toBe("403 Only an admin may change another user's e-mail");
    expect(answer(() => access.user.actOn(user('admin', 21), target, { email: true }))).toBe('ok');
    const shared = '403 This person is also a user of other sites: only they or a service token may change their e-mail, names or extraData that is not site-specific';
    expect(answer(() => access.user.actOn(user('admin', 21), target, { email: true, sharedIdentity: true }))).toBe(shared);
    expect(answer(() => access.user.actOn(user('admin', 21), target, { sharedFields: true, sharedIdentity: true }))).toBe(shared);
    expect(answer(() => access.user.actOn(user('admin', 21), target, { sharedFields: true }))).toBe('ok');
    expect(answer(() => access.user.actOn(user('admin', 21), target, { sharedIdentity: true }))).toBe('ok');
    expect(answer(() => access.user.actOn(user('moderator', 20), target, { role: 'admin' }))).toBe('403 You may not give the role admin');
    expect(answer(() => access.user.actOn(service, target, { role: 'admin' }))).toBe('ok');
  });

  it('own data: self, service tokens, moderators of this site', () => {
    expect(answer(() => access.ownData(nobody, target))).toBe('401 Authentication required');
    expect(answer(() => access.ownData(service, target))).toBe('ok');
    expect(answer(() => access.ownData(user('member', 20), target))).toBe('ok');
    expect(answer(() => access.ownData(user('moderator', 21), target))).toBe('ok');
    expect(answer(() => access.ownData(user('moderator', 21, 2), target))).toBe('403 Only the user or a moderator may do this');
    expect(answer(() => access.ownData(user('member', 21), target))).toBe('403 Only the user or a moderator may do this');
    expect(access.seesClosedSiteActivity(service)).toBe(true);
    expect(access.seesClosedSiteActivity(user('admin'))).toBe(false);
  });
});

describe('newsletter, results, moderator fields', () => {
  it('newsletter: list for moderators, signup while active and open, tokens for admins', () => {
    expect(answer(() => access.newsletter.list(user('member')))).toBe('403 Requires the moderator role');
    expect(answer(() => access.newsletter.create(config({ newslettersignup: { isActive: true } })))).toBe('ok');
    expect(answer(() => access.newsletter.create(config({ newslettersignup: { isActive: false } })))).toBe('403 Newsletter signup is not active on this site');
    expect(answer(() => access.newsletter.create(withDefaults({ newslettersignup: { isActive: true }, project: { projectHasEnded: true } } as SiteConfigInput)))).toBe(`403 ${PROJECT_ENDED_MESSAGE}`);
    expect(access.newsletter.seesTokens(user('editor'))).toBe(false);
    expect(access.newsletter.seesTokens(user('admin'))).toBe(true);
  });

  it('results: public when viewable or ended, else moderators; checkpoints for moderators; user exports', () => {
    expect(answer(() => access.results.read(nobody, config({ votes: { isViewable: true } })))).toBe('ok');
    expect(answer(() => access.results.read(nobody, ended))).toBe('ok');
    expect(answer(() => access.results.read(user('member'), config()))).toBe('403 The results of this site are not public yet');
    expect(answer(() => access.results.read(user('moderator'), config()))).toBe('ok');
    expect(answer(() => access.results.checkpoints(user('member')))).toBe('403 Requires the moderator role');
    expect(answer(() => access.results.checkpoints(user('moderator')))).toBe('ok');
    const target = { id: 20, siteId: SITE };
    expect(answer(() => access.results.userExport(nobody, target))).toBe('401 Authentication required');
    expect(answer(() => access.results.userExport(user('member', 20), target))).toBe('ok');
    expect(answer(() => access.results.userExport(user('admin', 21), target))).toBe('ok');
    expect(answer(() => access.results.userExport(user('admin', 21, 2), target))).toBe("403 Only the user themself or an admin may export a user's data");
    expect(answer(() => access.results.userExport(user('editor', 21), target))).toBe("403 Only the user themself or an admin may export a user's data");
    expect(access.results.userExportsEverySite(service, target)).toBe(true);
    expect(access.results.userExportsEverySite(user('member', 20), target)).toBe(true);
    expect(access.results.userExportsEverySite(user('admin', 21), target)).toBe(false);
  });

  it('only moderators set status, budget and userId; the 403 names what was sent', () => {
    const fields = ['status', 'budget', 'userId'] as const;
    expect(answer(() => access.assertModeratorFields(user('moderator'), { status: 'DONE' }, fields))).toBe('ok');
    expect(answer(() => access.assertModeratorFields(user('member'), { title: 'x' }, fields))).toBe('ok');
    expect(answer(() => access.assertModeratorFields(user('member'), { status: 'DONE', budget: 1, title: 'x' }, fields))).toBe('403 Only moderators may set status, budget');
  });
});
