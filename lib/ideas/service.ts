/**
 * The five idea endpoints. Writes go through the shared content flow (lib/content/service.ts) with
 * the idea rules (lib/ideas/kind.ts); reads add what the include flags ask for (lib/ideas/includes.ts).
 */
import type { Caller } from '#lib/auth/caller';
import * as access from '#lib/auth/access';
import type { Site } from '#lib/sites/site';
import { argumentsOfIdeas, listIdeasByCreation, listIdeasByVotes } from '#lib/store/ideas/ideas';
import { fitPage } from '#lib/content/page-budget';
import { toIdeaRecord } from '#lib/ideas/record';
import { createContent, deleteContent, getContentOr404, updateContent } from '#lib/content/service';
import { ideaKind, mayModifyIdea } from '#lib/ideas/kind';
import type { ContentItem } from '#lib/store/content/content-items';
import { toIdeaRecords } from '#lib/ideas/includes';
import { runningStatuses } from '#schemas/content-item';
import type { IdeaIncludes, IdeaRecord, ListIdeasQuery } from '#schemas/idea';
import { filtersOf, needsDiscovery } from '#lib/discovery/filters';
import { isVotesSort, listDiscovered } from '#lib/discovery/list';

/**
 * One page in the asked order. Cost: one Query (creation order: the ideas with their tallies) or a
 * Query of GSI3 and one BatchGet (vote order: the page's tallies, then its ideas, with its authors and
 * arguments in the same round trip), plus one read per include kind, whatever the site's size.
 */
export async function listIdeas(site: Site, caller: Caller, query: ListIdeasQuery) {
  if (isVotesSort(query.sort)) access.vote.sortByCounts(caller, site.config);
  // Discovery filters are served by their index: lib/discovery/list.ts.
  const filters = filtersOf(query, { located: false });
  if (needsDiscovery(filters) || query.sort === 'distance') {
    const result = await listDiscovered(site.id, 'idea', filters, query.sort, { pageSize: query.pageSize, cursor: query.cursor });
    return fitPage(await toIdeaRecords(site, caller, result.items, query, result.tallies ? { tallies: result.tallies } : {}), result);
  }
  const statuses = query.selectRunning ? runningStatuses : undefined;
  // The whole query: its cursor is bound to its sort and filters (lib/store/db/cursor.ts listQueryOf).
  const page = query;
  if (isVotesSort(query.sort)) {
    // The page's authors and arguments are read beside its ideas, once the order has named them.
    const result = await listIdeasByVotes(
      site.id,
      {
        mostFirst: query.sort === 'votes_desc',
        statuses,
        withAuthors: query.includeUser,
        alongside: query.includeArguments ? (ids) => argumentsOfIdeas(site.id, ids) : undefined,
      },
      page,
    );
    return fitPage(
      await toIdeaRecords(site, caller, result.items, query, { tallies: result.tallies, argCounts: result.argCounts, users: result.authors, arguments: result.alongside }),
      result,
    );
  }
  const result = await listIdeasByCreation(site.id, { newestFirst: query.sort === 'createdate_desc', statuses }, page);
  return fitPage(await toIdeaRecords(site, caller, result.items, query, { tallies: result.tallies, argCounts: result.argCounts }), result);
}

export async function getIdeaRecord(site: Site, caller: Caller, ideaId: number, flags: IdeaIncludes): Promise<IdeaRecord> {
  const item = await getContentOr404(ideaKind, site, ideaId);
  const [record] = await toIdeaRecords(site, caller, [item], flags);
  return record!;
}

/**
 * Create and update answer with `can` as reads do. Without a tally read: a new idea has no votes or
 * arguments, and an update that passed the rule passed it on the state `can` would be computed from
 * (an owner's edit succeeds only while the idea has none; status, which the rule also reads, is only
 * a moderator's to change).
 */
const withCan = (site: Site, caller: Caller, item: ContentItem): IdeaRecord => {
  const may = mayModifyIdea(caller, item, site, undefined);
  return { ...toIdeaRecord(item), can: { edit: may, delete: may } };
};

export async function createIdea(site: Site, caller: Caller, body: Record<string, unknown>): Promise<IdeaRecord> {
  return withCan(site, caller, await createContent(ideaKind, site, caller, body));
}

export async function updateIdea(site: Site, caller: Caller, ideaId: number, body: Record<string, unknown>): Promise<IdeaRecord> {
  return withCan(site, caller, await updateContent(ideaKind, site, caller, ideaId, body));
}

export const deleteIdea = (site: Site, caller: Caller, ideaId: number) => deleteContent(ideaKind, site, caller, ideaId);
