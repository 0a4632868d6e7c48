import { describe, expect, it } from 'vitest';
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import type { Role } from '#lib/auth/roles';
import { withDefaults } from '#lib/sites/config-defaults';

const nobody: Caller = { kind: 'none', role: undefined, userId: undefined };
const service: Caller = { kind: 'service', role: 'admin', userId: undefined };
const user = (role: Role, userId = 10, siteId = 1): Caller => ({ kind: 'user', role, userId, siteId, user: { id: userId, siteId, role, createdAt: '', updatedAt: '' } });
const status = (fn: () => void): number => {
  try {
    fn();
    return 200;
  } catch (err) {
    return (err as { status: number }).status;
  }
};
const config = withDefaults({});

describe('the CONTRACT access table', () => {
  it('sites: create with service tokens only; manage by service tokens or the site admin', () => {
    expect(status(() => access.site.create(nobody))).toBe(401);
    expect(status(() => access.site.create(user('admin')))).toBe(403);
    expect(status(() => access.site.create(service))).toBe(200);
    expect(status(() => access.site.manage(user('admin', 1, 1), 1))).toBe(200);
    expect(status(() => access.site.manage(user('editor', 1, 1), 1))).toBe(403);
    expect(status(() => access.site.manage(user('admin', 1, 2), 1))).toBe(403);
    expect(access.site.seesFullConfig(user('editor'), 1)).toBe(true);
    expect(access.site.seesFullConfig(user('moderator'), 1)).toBe(false);
    expect(access.site.seesFullConfig(user('admin', 1, 2), 1)).toBe(false);
  });

  it('ideas: members create while canAddNewIdeas, moderators always', () => {
    const closed = withDefaults({ ideas: { canAddNewIdeas: false } });
    expect(status(() => access.idea.create(nobody, config))).toBe(401);
    expect(status(() => access.idea.create(user('anonymous'), config))).toBe(403);
    expect(status(() => access.idea.create(user('member'), config))).toBe(200);
    expect(status(() => access.idea.create(user('member'), closed))).toBe(403);
    expect(status(() => access.idea.create(user('moderator'), closed))).toBe(200);
  });

  it('ideas: owners edit while OPEN and before the first vote or argument, unless allowed after', () => {
    const owner = user('member', 10);
    const mine = { userId: 10, status: 'OPEN' };
    expect(status(() => access.idea.modify(owner, mine, config, false))).toBe(200);
    expect(status(() => access.idea.modify(owner, mine, config, true))).toBe(403);
    expect(status(() => access.idea.modify(owner, mine, withDefaults({ ideas: { canEditAfterFirstLikeOrArg: true } }), true))).toBe(200);
    expect(status(() => access.idea.modify(owner, { userId: 10, status: 'CLOSED' }, config, false))).toBe(403);
    expect(status(() => access.idea.modify(user('member', 11), mine, config, false))).toBe(403);
    expect(status(() => access.idea.modify(user('moderator', 11), { userId: 10, status: 'DONE' }, config, true))).toBe(200);
    expect(status(() => access.idea.modify(nobody, mine, config, false))).toBe(401);
  });

  it('articles: moderators create while canAddNewArticles, editors always', () => {
    const closed = withDefaults({ articles: { canAddNewArticles: false } });
    expect(status(() => access.article.create(user('member'), config))).toBe(403);
    expect(status(() => access.article.create(user('moderator'), config))).toBe(200);
    expect(status(() => access.article.create(user('moderator'), closed))).toBe(403);
    expect(status(() => access.article.create(user('editor'), closed))).toBe(200);
  });

  it('arguments: members unless closed, with closedText as the message', () => {
    const closed = withDefaults({ arguments: { isClosed: true, closedText: 'Closed for now' } });
    expect(status(() => access.argument.create(user('member'), config))).toBe(200);
    expect(() => access.argument.create(user('member'), closed)).toThrow('Closed for now');
    expect(status(() => access.argument.create(user('moderator'), closed))).toBe(200);
  });

  it('votes: the configured role or above; reads public only when viewable', () => {
    const anonymousVoting = withDefaults({ votes: { requiredUserRole: 'anonymous' } });
    expect(status(() => access.vote.cast(user('anonymous'), config))).toBe(403);
    expect(status(() => access.vote.cast(user('anonymous'), anonymousVoting))).toBe(200);
    expect(status(() => access.vote.cast(nobody, anonymousVoting))).toBe(401);
    expect(status(() => access.vote.read(nobody, config))).toBe(401);
    expect(status(() => access.vote.read(user('member'), config))).toBe(403);
    expect(status(() => access.vote.read(nobody, withDefaults({ votes: { isViewable: true } })))).toBe(200);
    expect(access.vote.seesUserIds(user('member'))).toBe(false);
    expect(access.vote.seesUserIds(user('moderator'))).toBe(true);
  });

  it('votes: ordering by votes for those who see the counts; reviews by moderators only', () => {
    const viewable = withDefaults({ votes: { isViewable: true } });
    expect(status(() => access.vote.sortByCounts(nobody, config))).toBe(403);
    expect(() => access.vote.sortByCounts(user('member'), config)).toThrow('ideas cannot be ordered by votes');
    expect(status(() => access.vote.sortByCounts(user('moderator'), config))).toBe(200);
    expect(status(() => access.vote.sortByCounts(nobody, viewable))).toBe(200);
    expect(status(() => access.vote.review(nobody))).toBe(401);
    expect(() => access.vote.review(user('member'))).toThrow('Only moderators may reject or reinstate a vote');
    expect(status(() => access.vote.review(user('moderator')))).toBe(200);
    expect(status(() => access.vote.review(service))).toBe(200);
  });

  it('results and the vote record: public when votes are viewable or the project has ended, else moderators', () => {
    const viewable = withDefaults({ votes: { isViewable: true } });
    const ended = withDefaults({ project: { projectHasEnded: true } });
    for (const rule of [access.results.read, access.results.record]) {
      expect(status(() => rule(nobody, config))).toBe(401);
      expect(status(() => rule(user('member'), config))).toBe(403);
      expect(status(() => rule(user('moderator'), config))).toBe(200);
      expect(status(() => rule(nobody, viewable))).toBe(200);
      expect(status(() => rule(nobody, ended))).toBe(200);
    }
    expect(() => access.results.record(user('member'), config)).toThrow('The vote record of this site is not public while its vote counts are hidden');
    // The ballot count a receipt's checkpoint carries: the same rule, as a yes or no.
    expect(access.results.seesBallotCount(nobody, config)).toBe(false);
    expect(access.results.seesBallotCount(user('member'), config)).toBe(false);
    expect(access.results.seesBallotCount(user('moderator'), config)).toBe(true);
    expect(access.results.seesBallotCount(service, config)).toBe(true);
    expect(access.results.seesBallotCount(nobody, viewable)).toBe(true);
    expect(access.results.seesBallotCount(nobody, ended)).toBe(true);
    expect(() => access.results.compute(user('member'))).toThrow('Only moderators may ask for the results to be computed');
  });

  it("a person's data export: themself, a service token, or an admin of their site; every site only for the first two", () => {
    const target = { id: 50, siteId: 1 };
    expect(status(() => access.results.userExport(nobody, target))).toBe(401);
    expect(status(() => access.results.userExport(service, target))).toBe(200);
    expect(status(() => access.results.userExport(user('member', 50, 1), target))).toBe(200);
    expect(status(() => access.results.userExport(user('member', 50, 2), target))).toBe(403);
    expect(status(() => access.results.userExport(user('admin', 9, 1), target))).toBe(200);
    expect(status(() => access.results.userExport(user('admin', 9, 2), target))).toBe(403);
    expect(() => access.results.userExport(user('editor', 9, 1), target)).toThrow("Only the user themself or an admin may export a user's data");
    expect(access.results.userExportsEverySite(service, target)).toBe(true);
    expect(access.results.userExportsEverySite(user('member', 50, 1), target)).toBe(true);
    expect(access.results.userExportsEverySite(user('admin', 9, 1), target)).toBe(false);
  });

  it('users: nobody grants a role above their own', () => {
    expect(status(() => access.user.grant(user('moderator'), 'moderator'))).toBe(200);
    expect(status(() => access.user.grant(user('moderator'), 'editor'))).toBe(403);
    expect(status(() => access.user.grant(user('member'), 'admin'))).toBe(403);
    expect(status(() => access.user.create(user('moderator'), withDefaults({ users: { canCreateNewUsers: false } })))).toBe(403);
  });

  describe('users: the one rule for acting on a user (actOn)', () => {
    const target = (role: Role, id = 50, siteId = 1) => ({ id, siteId, role });
    const act = (caller: Caller, t: { id: number; siteId: number; role?: string }, action: access.UserAction = {}) =>
      status(() => access.user.actOn(caller, t, action));

    it('the user themself and service tokens may; nobody without a token', () => {
      expect(act(user('member', 5), target('member', 5))).toBe(200);
      expect(act(user('member', 5), target('member', 5), { email: true, sharedIdentity: true, everySite: true })).toBe(200);
      expect(act(service, target('admin'), { email: true, sharedIdentity: true, everySite: true })).toBe(200);
      expect(act(nobody, target('member'))).toBe(401);
      // The same user id on another site is somebody else.
      expect(act(user('member', 5, 2), target('member', 5, 1))).toBe(403);
    });

    it('others: a moderator+ of this site whose role is at least the target\'s', () => {
      expect(act(user('member', 5), target('member', 6))).toBe(403);
      expect(act(user('moderator'), target('member'))).toBe(200);
      expect(act(user('moderator'), target('moderator'))).toBe(200);
      expect(act(user('moderator'), target('editor'))).toBe(403);
      expect(act(user('moderator'), target('admin'))).toBe(403);
      expect(act(user('editor'), target('admin'))).toBe(403);
      expect(act(user('admin'), target('admin'))).toBe(200);
      // A role that is not one of ours counts as admin.
      expect(act(user('editor'), target('superuser' as Role))).toBe(403);
      expect(act(user('admin', 10, 2), target('member', 50, 1))).toBe(403);
    });

    it('before the record is read, only what the id decides', () => {
      expect(act(user('moderator'), { id: 50, siteId: 1 })).toBe(200);
      expect(act(user('member'), { id: 50, siteId: 1 })).toBe(403);
    });

    it("another user's e-mail needs admin, and a service token when the login is shared with other sites", () => {
      expect(act(user('moderator'), target('member'), { email: true })).toBe(403);
      expect(act(user('editor'), target('member'), { email: true })).toBe(403);
      expect(act(user('admin'), target('member'), { email: true })).toBe(200);
      expect(act(user('admin'), target('member'), { email: true, sharedIdentity: true })).toBe(403);
      expect(act(service, target('member'), { email: true, sharedIdentity: true })).toBe(200);
    });

    it('fields of the shared auth-server user (names, shared extraData) of a person on other sites: themself or a service token', () => {
      expect(act(user('moderator'), target('member'), { sharedFields: true })).toBe(200);
      expect(act(user('moderator'), target('member'), { sharedFields: true, sharedIdentity: true })).toBe(403);
      expect(act(user('admin'), target('member'), { sharedFields: true, sharedIdentity: true })).toBe(403);
      expect(act(user('member', 5), target('member', 5), { sharedFields: true, sharedIdentity: true })).toBe(200);
      expect(act(service, target('member'), { sharedFields: true, sharedIdentity: true })).toBe(200);
    });

    it('every site of a person: themself or a service token only', () => {
      expect(act(user('admin'), target('member'), { everySite: true })).toBe(403);
      expect(act(user('moderator'), { id: 50, siteId: 1 }, { everySite: true })).toBe(403);
    });

    it('nobody gives a role above their own, themself included', () => {
      expect(act(user('member', 5), target('member', 5), { role: 'moderator' })).toBe(403);
      expect(act(user('admin', 5), target('admin', 5), { role: 'member' })).toBe(200);
      expect(act(user('moderator'), target('member'), { role: 'editor' })).toBe(403);
      expect(act(user('moderator'), target('member'), { role: 'moderator' })).toBe(200);
    });
  });

  it('users: listableByRole and detailsViewableByRole', () => {
    const rec = (fields: { listableByRole?: string | null; detailsViewableByRole?: string | null }) => ({ id: 50, siteId: 1, ...fields });
    expect(access.user.listsUser(user('moderator'), rec({}))).toBe(true);
    expect(access.user.listsUser(user('moderator'), rec({ listableByRole: 'moderator' }))).toBe(true);
    expect(access.user.listsUser(user('moderator'), rec({ listableByRole: 'editor' }))).toBe(false);
    expect(access.user.listsUser(service, rec({ listableByRole: 'admin' }))).toBe(true);
    expect(access.user.listsUser(user('editor'), rec({ listableByRole: 'nonsense' }))).toBe(false);
    expect(access.user.listsUser(user('moderator', 50), rec({ listableByRole: 'admin' }))).toBe(true);
    expect(access.user.seesDetails(nobody, rec({}))).toBe(false);
    expect(access.user.seesDetails(nobody, rec({ detailsViewableByRole: 'all' }))).toBe(true);
    expect(access.user.seesDetails(nobody, rec({ detailsViewableByRole: 'member' }))).toBe(false);
    expect(access.user.seesDetails(user('member'), rec({ detailsViewableByRole: 'member' }))).toBe(true);
    expect(access.user.seesDetails(user('member'), rec({ detailsViewableByRole: 'editor' }))).toBe(false);
    // No level set: names and extraData stay hidden, from admins too.
    expect(access.user.seesDetails(user('admin'), rec({}))).toBe(false);
  });

  it('newsletter: moderators list; signups only while active', () => {
    expect(status(() => access.newsletter.list(user('member')))).toBe(403);
    expect(status(() => access.newsletter.list(user('moderator')))).toBe(200);
    expect(status(() => access.newsletter.create(config))).toBe(403);
    expect(status(() => access.newsletter.create(withDefaults({ newslettersignup: { isActive: true } })))).toBe(200);
  });

  it('moderator-only fields', () => {
    expect(status(() => access.assertModeratorFields(user('member'), { status: 'DONE' }, ['status', 'budget']))).toBe(403);
    expect(status(() => access.assertModeratorFields(user('member'), { title: 'x' }, ['status', 'budget']))).toBe(200);
    expect(status(() => access.assertModeratorFields(user('moderator'), { budget: 5 }, ['status', 'budget']))).toBe(200);
  });
});
