/**
 * The access table of CONTRACT "Identity and roles", one function per cell. Each throws 401 when a
 * role is needed and the caller has no token, 403 when the role or ownership is not enough.
 * Domain code calls these; no handler decides access on its own.
 */
import { forbidden, unauthorized } from '#lib/errors';
import type { Caller } from '#lib/auth/caller';
import { hasRole, isRole, mayGrant, type Role } from '#lib/auth/roles';
import type { SiteConfig } from '#lib/sites/config-defaults';
import { assertProjectOpen, PROJECT_ENDED_MESSAGE, projectHasEnded } from '#lib/sites/project';

export function requireRole(caller: Caller, role: Role, message?: string): void {
  if (caller.kind === 'none') throw unauthorized();
  if (!hasRole(caller.role, role)) throw forbidden(message ?? `Requires the ${role} role`);
}

export const isOwner = (caller: Caller, record: { userId?: number | null }): boolean =>
  caller.kind === 'user' && record.userId != null && record.userId === caller.userId;

export function requireOwnerOr(caller: Caller, record: { userId?: number | null }, role: Role): void {
  if (caller.kind === 'none') throw unauthorized();
  if (isOwner(caller, record) || hasRole(caller.role, role)) return;
  throw forbidden(`Only the owner or a ${role} may do this`);
}

export const site = {
  /** Public reads are redacted; editors and above see the whole config. */
  seesFullConfig: (caller: Caller, siteId: number) =>
    caller.kind === 'service' || (caller.kind === 'user' && caller.siteId === siteId && hasRole(caller.role, 'editor')),
  /** Creating sites is for service tokens only (CONTRACT "Decided details"). */
  create(caller: Caller) {
    if (caller.kind === 'none') throw unauthorized();
    if (caller.kind !== 'service') throw forbidden('Creating sites requires a service token');
  },
  /** Sees a site closed by Basic Auth in the site list: a service token, or an admin of that very site. */
  seesClosed: (caller: Caller, siteId: number) =>
    caller.kind === 'service' || (caller.kind === 'user' && caller.siteId === siteId && hasRole(caller.role, 'admin')),
  /** A service token, or an admin of that very site. */
  manage(caller: Caller, siteId: number) {
    if (caller.kind === 'none') throw unauthorized();
    if (caller.kind === 'service') return;
    if (caller.siteId === siteId && hasRole(caller.role, 'admin')) return;
    throw forbidden('Requires the admin role on this site');
  },
};

export const idea = {
  create(caller: Caller, config: SiteConfig) {
    requireRole(caller, 'member');
    assertProjectOpen(config);
    if (!config.ideas.canAddNewIdeas && !hasRole(caller.role, 'moderator')) {
      throw forbidden('New ideas cannot be added on this site');
    }
  },
  /**
   * Moderators always; the owner while the idea is OPEN, the project has not ended and, unless
   * `canEditAfterFirstLikeOrArg`, before its first vote or argument.
   */
  modify(caller: Caller, record: { userId?: number | null; status?: string }, config: SiteConfig, hasVotesOrArguments: boolean) {
    if (caller.kind === 'none') throw unauthorized();
    if (hasRole(caller.role, 'moderator')) return;
    if (!isOwner(caller, record)) throw forbidden('Only the owner or a moderator may change this idea');
    if (projectHasEnded(config)) throw forbidden(PROJECT_ENDED_MESSAGE);
    if (record.status !== undefined && record.status !== 'OPEN') throw forbidden('The idea is no longer open for changes');
    if (!config.ideas.canEditAfterFirstLikeOrArg && hasVotesOrArguments) {
      throw forbidden('The idea cannot be changed after its first vote or argument');
    }
  },
};

export const article = {
  create(caller: Caller, config: SiteConfig) {
    requireRole(caller, 'moderator');
    if (!config.articles.canAddNewArticles && !hasRole(caller.role, 'editor')) {
      throw forbidden('New articles cannot be added on this site');
    }
  },
  modify: (caller: Caller, record: { userId?: number | null }) => requireOwnerOr(caller, record, 'moderator'),
};

export const argument = {
  create(caller: Caller, config: SiteConfig) {
    requireRole(caller, 'member');
    assertProjectOpen(config);
    if (config.arguments.isClosed && !hasRole(caller.role, 'moderator')) throw forbidden(config.arguments.closedText);
  },
  /** Moderators always; the owner until the project has ended. */
  modify(caller: Caller, record: { userId?: number | null }, config: SiteConfig) {
    requireOwnerOr(caller, record, 'moderator');
    if (!hasRole(caller.role, 'moderator')) assertProjectOpen(config);
  },
  vote(caller: Caller, config: SiteConfig) {
    requireRole(caller, 'member');
    assertProjectOpen(config);
  },
};

export const vote = {
  /** Votes are public when `votes.isViewable`, else for moderators and above. */
  read(caller: Caller, config: SiteConfig) {
    if (config.votes.isViewable) return;
    requireRole(caller, 'moderator', 'Votes of this site are not public');
  },
  /** Vote counts on ideas follow the same rule, but hide the fields instead of refusing. */
  seesCounts: (caller: Caller, config: SiteConfig) => config.votes.isViewable || hasRole(caller.role, 'moderator'),
  /**
   * An order by votes shows the ranking the counts would give, so it is for those who see the counts
   * (CONTRACT "Decided details, security"): 403 for everyone else, a caller without a token included.
   */
  sortByCounts(caller: Caller, config: SiteConfig) {
    if (!vote.seesCounts(caller, config)) throw forbidden('Votes of this site are not public: ideas cannot be ordered by votes (sort=votes_desc or votes_asc)');
  },
  seesUserIds: (caller: Caller) => hasRole(caller.role, 'moderator'),
  /** Rejecting or reinstating a vote: moderators and above (OpenStad let the voter toggle their own too; not here). */
  review(caller: Caller) {
    requireRole(caller, 'moderator', 'Only moderators may reject or reinstate a vote');
  },
  cast(caller: Caller, config: SiteConfig) {
    requireRole(caller, config.votes.requiredUserRole);
    assertProjectOpen(config);
  },
};

/** What an action on a user does beyond acting on them (see `user.actOn`). */
export interface UserAction {
  /** The e-mail changes (to a value other than the stored one). */
  email?: boolean;
  /**
   * A field stored on the one auth-server user changes: e-mail, firstName, lastName, or an extraData
   * field this site does not keep site-specific (its plain value is what every other site reads too).
   */
  sharedFields?: boolean;
  /**
   * The person's auth-server user also has site users on other sites: what is stored on it (the e-mail
   * they log in with there, their names, shared extraData) is those sites' data too.
   */
  sharedIdentity?: boolean;
  /** The role the action gives the user. */
  role?: Role;
  /** The action reaches every site the person is on (`will-anonymizeall`, `do-anonymizeall`). */
  everySite?: boolean;
}

/** The user acted on; `role` is absent when the rule is checked before the record is read. */
interface TargetUser {
  id: number;
  siteId: number;
  role?: string;
}

/**
 * `listableByRole` / `detailsViewableByRole` (a role or `all`): does the caller reach that level?
 * A value that is not one of ours (an auth server may hold anything) counts as `admin`.
 */
const reaches = (caller: Caller, level: string): boolean =>
  level === 'all' || hasRole(caller.role, isRole(level) ? level : 'admin');

const isSelf = (caller: Caller, target: { id: number; siteId: number }): boolean =>
  caller.kind === 'user' && caller.siteId === target.siteId && caller.userId === target.id;

export const user = {
  list: (caller: Caller) => requireRole(caller, 'moderator'),
  seesAllFields: (caller: Caller, record: { id: number; siteId: number }) =>
    caller.kind === 'service' || isSelf(caller, record) || (caller.kind === 'user' && caller.siteId === record.siteId && hasRole(caller.role, 'moderator')),
  seesExternalId: (caller: Caller) => hasRole(caller.role, 'admin'),
  /** A user whose `listableByRole` is above the caller's role is left out of lists (the user themself always sees their own). */
  listsUser: (caller: Caller, record: { id: number; siteId: number; listableByRole?: string | null }) =>
    record.listableByRole == null || isSelf(caller, record) || reaches(caller, record.listableByRole),
  /** Callers with at least the user's `detailsViewableByRole` also see names and extraData (never the e-mail). */
  seesDetails: (caller: Caller, record: { detailsViewableByRole?: string | null }) =>
    record.detailsViewableByRole != null && reaches(caller, record.detailsViewableByRole),
  create(caller: Caller, config: SiteConfig) {
    requireRole(caller, 'moderator');
    assertProjectOpen(config);
    if (!config.users.canCreateNewUsers) throw forbidden('New users cannot be created on this site');
  },
  /**
   * THE rule for acting on a user: update (any field), delete, anonymize (previews included). Allowed
   * to the user themself, a service token, or a moderator+ of this site whose role is at least the
   * target's; another user's e-mail needs admin. A field stored on the shared auth-server user (e-mail,
   * names, extraData that is not site-specific) of a person who also has a user on another site is
   * for the person themself or a service token only: staff of one site change only that site's own data.
   * Acting on every site of a person is for the person themself or a service token only. Nobody gives
   * a role above their own.
   *
   * Called once before the target is read, with only its id (so a 403 tells nothing about whether the
   * user exists), and again with the record. Both calls come before anything is written, here or on
   * the auth server.
   */
  actOn(caller: Caller, target: TargetUser, action: UserAction = {}) {
    if (caller.kind === 'none') throw unauthorized();
    if (action.role !== undefined) user.grant(caller, action.role);
    if (caller.kind === 'service' || isSelf(caller, target)) return;
    if (action.everySite) {
      throw forbidden('Only the user themself or a service token may act on every site of a user; site staff use the per-site paths');
    }
    if (caller.siteId !== target.siteId || !hasRole(caller.role, 'moderator')) throw forbidden('Only the user or a moderator may do this');
    if (target.role !== undefined && !hasRole(caller.role, isRole(target.role) ? target.role : 'admin')) {
      throw forbidden('Nobody may act on a user whose role is above their own');
    }
    if (action.email && !hasRole(caller.role, 'admin')) throw forbidden("Only an admin may change another user's e-mail");
    if ((action.email || action.sharedFields) && action.sharedIdentity) {
      throw forbidden(
        'This person is also a user of other sites: only they or a service token may change their e-mail, names or extraData that is not site-specific',
      );
    }
  },
  grant(caller: Caller, role: Role) {
    if (!mayGrant(caller.role, role)) throw forbidden(`You may not give the role ${role}`);
  },
};

/**
 * A closed site (Basic Auth) shows up in a person's activity read on another site only for a service
 * token: like the public site list, and the person logged in elsewhere has not given its password.
 */
export const seesClosedSiteActivity = (caller: Caller) => caller.kind === 'service';

/** Reading a user's activity: the user themself or a moderator of the site. */
export function ownData(caller: Caller, target: { id: number; siteId: number }) {
  if (caller.kind === 'none') throw unauthorized();
  if (caller.kind === 'service' || isSelf(caller, target)) return;
  if (caller.siteId === target.siteId && hasRole(caller.role, 'moderator')) return;
  throw forbidden('Only the user or a moderator may do this');
}

export const newsletter = {
  list: (caller: Caller) => requireRole(caller, 'moderator'),
  create(config: SiteConfig) {
    assertProjectOpen(config);
    if (!config.newslettersignup.isActive) throw forbidden('Newsletter signup is not active on this site');
  },
  seesTokens: (caller: Caller) => hasRole(caller.role, 'admin'),
};

// Results, exports and the vote record (CONTRACT "Decided details, results and exports").
export const results = {
  /** Moderator+ always; everyone when votes are viewable or once the project has ended. */
  read(caller: Caller, config: SiteConfig) {
    if (config.votes.isViewable || projectHasEnded(config)) return;
    requireRole(caller, 'moderator', 'The results of this site are not public yet');
  },
  /**
   * The vote record's published checkpoints and consistency proofs: their `ballots` and `treeSize`
   * count the voters and the rounds, so they follow the results' rule (docs/results.md "What the
   * vote record shows while counts are hidden").
   */
  record(caller: Caller, config: SiteConfig) {
    if (config.votes.isViewable || projectHasEnded(config)) return;
    requireRole(caller, 'moderator', 'The vote record of this site is not public while its vote counts are hidden');
  },
  /** Whether the caller may see how many ballots there are (a receipt's checkpoint carries the count only then). */
  seesBallotCount: (caller: Caller, config: SiteConfig): boolean =>
    config.votes.isViewable || projectHasEnded(config) || caller.kind === 'service' || (caller.kind === 'user' && hasRole(caller.role, 'moderator')),
  /** Asking for a computation now: moderators and above (a service token acts as admin). */
  compute: (caller: Caller) => requireRole(caller, 'moderator', 'Only moderators may ask for the results to be computed'),
  /** Exports: a service token or an admin of this very site. */
  export: (caller: Caller, siteId: number) => site.manage(caller, siteId),
  checkpoints: (caller: Caller) => requireRole(caller, 'moderator'),
  /**
   * A person's data export: the person themself, an admin of this site, a service token. Only the
   * person and a service token get the other sites' data; an admin gets this site's records (like
   * `user.actOn` with `everySite`).
   */
  userExport(caller: Caller, target: { id: number; siteId: number }) {
    if (caller.kind === 'none') throw unauthorized();
    if (caller.kind === 'service' || isSelf(caller, target)) return;
    if (caller.siteId === target.siteId && hasRole(caller.role, 'admin')) return;
    throw forbidden("Only the user themself or an admin may export a user's data");
  },
  userExportsEverySite: (caller: Caller, target: { id: number; siteId: number }) => caller.kind === 'service' || isSelf(caller, target),
};

/** Fields only moderators may set (CONTRACT): idea status, budget, userId; argument userId. */
export function assertModeratorFields(caller: Caller, body: Record<string, unknown>, fields: readonly string[]) {
  if (hasRole(caller.role, 'moderator')) return;
  const sent = fields.filter((f) => body[f] !== undefined);
  if (sent.length > 0) throw forbidden(`Only moderators may set ${sent.join(', ')}`);
}
