/**
 * The access table of CONTRACT "Identity and roles", one function per cell. Each throws 401 when a
 * role is needed and the caller has no token, 403 when the role or ownership is not enough.
 * Domain code calls these; no handler decides access on its own.
 */
import { forbidden, unauthorized } from '#lib/http/errors';
import type { Caller } from '#lib/auth/caller';
import { hasRole, mayGrant, type Role } from '#lib/auth/roles';
import type { SiteConfig } from '#lib/sites/config-defaults';
import { assertProjectOpen } from '#lib/sites/project';

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
   * Moderators always; the owner while the idea is OPEN and, unless `canEditAfterFirstLikeOrArg`,
   * before its first vote or argument.
   */
  modify(caller: Caller, record: { userId?: number | null; status?: string }, config: SiteConfig, hasVotesOrArguments: boolean) {
    if (caller.kind === 'none') throw unauthorized();
    if (hasRole(caller.role, 'moderator')) return;
    if (!isOwner(caller, record)) throw forbidden('Only the owner or a moderator may change this idea');
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
  modify: (caller: Caller, record: { userId?: number | null }) => requireOwnerOr(caller, record, 'moderator'),
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
  seesUserIds: (caller: Caller) => hasRole(caller.role, 'moderator'),
  cast(caller: Caller, config: SiteConfig) {
    requireRole(caller, config.votes.requiredUserRole);
    assertProjectOpen(config);
  },
};

export const user = {
  list: (caller: Caller) => requireRole(caller, 'moderator'),
  seesAllFields: (caller: Caller, record: { id: number }) =>
    hasRole(caller.role, 'moderator') || (caller.kind === 'user' && caller.userId === record.id),
  seesExternalId: (caller: Caller) => hasRole(caller.role, 'admin'),
  create(caller: Caller, config: SiteConfig) {
    requireRole(caller, 'moderator');
    assertProjectOpen(config);
    if (!config.users.canCreateNewUsers) throw forbidden('New users cannot be created on this site');
  },
  modify(caller: Caller, record: { id: number }) {
    if (caller.kind === 'none') throw unauthorized();
    if (hasRole(caller.role, 'moderator') || (caller.kind === 'user' && caller.userId === record.id)) return;
    throw forbidden('Only the user or a moderator may do this');
  },
  grant(caller: Caller, role: Role) {
    if (!mayGrant(caller.role, role)) throw forbidden(`You may not give the role ${role}`);
  },
};

/** Activity and anonymization: the user themself or a moderator. */
export const ownData = user.modify;

export const newsletter = {
  list: (caller: Caller) => requireRole(caller, 'moderator'),
  create(config: SiteConfig) {
    assertProjectOpen(config);
    if (!config.newslettersignup.isActive) throw forbidden('Newsletter signup is not active on this site');
  },
  seesTokens: (caller: Caller) => hasRole(caller.role, 'admin'),
};

/** Fields only moderators may set (CONTRACT): idea status, budget, userId; argument userId. */
export function assertModeratorFields(caller: Caller, body: Record<string, unknown>, fields: readonly string[]) {
  if (hasRole(caller.role, 'moderator')) return;
  const sent = fields.filter((f) => body[f] !== undefined);
  if (sent.length > 0) throw forbidden(`Only moderators may set ${sent.join(', ')}`);
}
