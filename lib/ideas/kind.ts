/**
 * Idea rules for the shared content flow: `config.ideas`, the idea access cells of CONTRACT, and the
 * idea store (whose writes move the tally registration along with the idea).
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { hasRole } from '#lib/auth/roles';
import type { Site } from '#lib/sites/service';
import type { ContentItem } from '#lib/store/content-items';
import { deleteIdeaAndRelated, getIdea, ideaHasArguments, putNewIdea, replaceIdea } from '#lib/store/ideas';
import { readTallies } from '#lib/store/tallies';
import { sealBallot } from '#lib/votes/seal';
import type { ContentKindRules, ContentSection } from '#lib/content/kind';

/** Whether anyone has voted on the idea (any opinion currently counted) or argued about it. */
export async function hasVotesOrArguments(siteId: number, ideaId: number): Promise<boolean> {
  const [tallies, argued] = await Promise.all([readTallies(siteId, [ideaId]), ideaHasArguments(siteId, ideaId)]);
  return argued || Object.values(tallies.get(ideaId) ?? {}).some((count) => count > 0);
}

export const ideaKind: ContentKindRules = {
  label: 'Idea',
  counter: 'idea',
  section: (config) => config.ideas as ContentSection,
  assertCreate: (caller, config) => access.idea.create(caller, config),
  async assertModify(caller: Caller, item: ContentItem, site: Site) {
    // The votes-or-arguments fact only matters to an owner below moderator editing an OPEN idea on a
    // site that forbids edits after the first one; nobody else pays the two reads it costs.
    const matters =
      caller.kind === 'user' &&
      !hasRole(caller.role, 'moderator') &&
      access.isOwner(caller, item) &&
      item.status === 'OPEN' &&
      !site.config.ideas.canEditAfterFirstLikeOrArg;
    const active = matters ? await hasVotesOrArguments(site.id, item.id) : false;
    access.idea.modify(caller, item, site.config, active);
  },
  store: {
    get: getIdea,
    putNew: putNewIdea,
    replace: replaceIdea,
    // Ballots that lose a vote get a new chain hash (issue 16, lib/votes/seal.ts).
    remove: (siteId: number, ideaId: number) => deleteIdeaAndRelated(siteId, ideaId, sealBallot),
  },
};
