/**
 * Idea rules for the shared content flow: `config.ideas`, the idea access cells of CONTRACT, and the
 * idea store (whose writes move the tally registration along with the idea).
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { hasRole } from '#lib/auth/roles';
import type { Site } from '#lib/sites/site';
import type { ContentItem } from '#lib/store/content/content-items';
import { getIdea, putNewIdea, replaceIdea } from '#lib/store/ideas/ideas';
import { deleteIdeaAndRelated } from '#lib/ideas/delete';
import { readIdeaTallies, type IdeaTally } from '#lib/store/ideas/tallies';
import type { ContentKindRules, ContentSection } from '#lib/content/kind';
import { assertTagsExist, discoveryFieldsOf } from '#lib/discovery/idea-fields';
import { ideaIndexSpec } from '#lib/discovery/index-spec';
import type { IdeaWriteOutcome } from '#lib/store/ideas/ideas';
import { conflict } from '#lib/errors';

/** A tag given to the idea was deleted between the check and the write: the same 400 as an unknown one. */
async function settle(outcome: IdeaWriteOutcome, item: ContentItem) {
  if (outcome !== 'no-tag') return outcome;
  await assertTagsExist(item.siteId, item.tags ?? []);
  throw conflict(`Idea ${item.id}: its tags changed meanwhile; try again`);
}

/** Whether anyone has voted on the idea (any opinion currently counted) or argued about it, from its tally item. */
const hasActivity = (tally: IdeaTally | undefined): boolean =>
  tally !== undefined && (tally.args > 0 || Object.values(tally.tally).some((count) => count > 0));

async function hasVotesOrArguments(siteId: number, ideaId: number): Promise<boolean> {
  return hasActivity((await readIdeaTallies(siteId, [ideaId])).get(ideaId));
}

/**
 * Whether the votes-or-arguments fact decides this caller's change: only for an owner below moderator
 * editing an OPEN idea on a site that forbids edits after the first one; nobody else pays its read.
 */
export const activityDecides = (caller: Caller, item: ContentItem, site: Site): boolean =>
  caller.kind === 'user' &&
  !hasRole(caller.role, 'moderator') &&
  access.isOwner(caller, item) &&
  item.status === 'OPEN' &&
  !site.config.ideas.canEditAfterFirstLikeOrArg;

/**
 * `can.edit` / `can.delete` of an idea record: the rule update and delete apply (`assertModify`),
 * with the idea's tally as read for the page (undefined: no tally, so no votes or arguments).
 */
export function mayModifyIdea(caller: Caller, item: ContentItem, site: Site, tally: IdeaTally | undefined): boolean {
  try {
    access.idea.modify(caller, item, site.config, activityDecides(caller, item, site) && hasActivity(tally));
    return true;
  } catch {
    return false;
  }
}

export const ideaKind: ContentKindRules = {
  label: 'Idea',
  section: (config) => config.ideas as ContentSection,
  assertCreate: (caller, config) => access.idea.create(caller, config),
  async assertModify(caller: Caller, item: ContentItem, site: Site) {
    const active = activityDecides(caller, item, site) ? await hasVotesOrArguments(site.id, item.id) : false;
    access.idea.modify(caller, item, site.config, active);
  },
  // Discovery: tags and location, and the index items written with every idea write.
  async kindFields(site, body, mode) {
    const patch = await discoveryFieldsOf(site.id, body);
    return mode === 'create' ? { tags: [], location: null, ...patch } : patch;
  },
  store: {
    get: getIdea,
    putNew: async (item, options) => settle(await putNewIdea(item, { ...options, index: ideaIndexSpec(item) }), item),
    replace: async (item, expectedVersion, options) =>
      settle(await replaceIdea(item, expectedVersion, { ...options, index: ideaIndexSpec(item) }), item),
    // With its arguments and votes (lib/ideas/delete.ts); ballots that lose a vote get a new seal.
    remove: deleteIdeaAndRelated,
  },
};
