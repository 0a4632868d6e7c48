/**
 * Idea records with what the include flags add, for one idea or a whole page at the same cost:
 * each kind of related data is read once for the page, in parallel: tallies come with the page (or
 * one BatchGet), the caller's ballot with the request's first read (lib/store/db/prefetch.ts, else one
 * GetItem), users one BatchGet, arguments one range Query per run of nearby ids (lib/store/arguments/id-runs.ts).
 */
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { toArgumentRecord, type ArgumentItem, type ArgumentRecord } from '#lib/arguments/record';
import type { Site } from '#lib/sites/site';
import { getShownBallot } from '#lib/store/ballots/ballots';
import type { ContentItem } from '#lib/store/content/content-items';
import { argumentsOfIdeas } from '#lib/store/ideas/ideas';
import { readIdeaTallies, readTallies, yesNo, type IdeaTally, type Tally } from '#lib/store/ideas/tallies';
import { activityDecides, mayModifyIdea } from '#lib/ideas/kind';
import { loadUsersOf, withCommonIncludes } from '#lib/content/record';
import { toIdeaRecord } from '#lib/ideas/record';
import type { UserItem } from '#lib/store/users/users';
import type { IdeaIncludes, IdeaRecord } from '#schemas/idea';

/**
 * @param known what the caller already read with the page: tallies (its Query or its order by votes),
 *   users and arguments (a by-votes page reads them beside its ideas).
 */
export async function toIdeaRecords(
  site: Site,
  caller: Caller,
  items: readonly ContentItem[],
  flags: IdeaIncludes,
  known: {
    tallies?: Map<number, Tally>;
    argCounts?: ReadonlyMap<number, number>;
    users?: ReadonlyMap<number, UserItem>;
    arguments?: readonly ArgumentItem[] | undefined;
  } = {},
): Promise<IdeaRecord[]> {
  if (items.length === 0) return [];
  const ids = items.map((item) => item.id);
  // Hidden counts are absent, not zero (CONTRACT), and then not even read.
  const showCounts = flags.includeVoteCount && access.vote.seesCounts(caller, site.config);
  // The tally items themselves (one BatchGet per 100 ideas, never one read per idea) only when the page
  // did not bring what argCount or `can` needs: `can` needs them only for ideas whose edit the caller's
  // votes-or-arguments rule decides (an owner below moderator).
  const decided = items.filter((item) => activityDecides(caller, item, site));
  const needTallyItems = (flags.includeArgsCount && !known.argCounts) || (decided.length > 0 && !(known.tallies && known.argCounts));
  // One read of the tally items serves the counts too (a prefetched item is served once).
  const tallyItemsRead = needTallyItems ? readIdeaTallies(site.id, ids) : undefined;
  const countsOf = async (read: Promise<Map<number, IdeaTally>>) =>
    new Map([...(await read)].flatMap(([id, entry]): [number, Tally][] => (entry.gone ? [] : [[id, entry.tally]])));
  const [tallies, ballot, users, argumentItems, tallyItems] = await Promise.all([
    showCounts ? (known.tallies ?? (tallyItemsRead ? countsOf(tallyItemsRead) : readTallies(site.id, ids))) : undefined,
    flags.includeUserVote && caller.kind === 'user' ? getShownBallot(site.id, caller.userId) : undefined,
    loadUsersOf(site.id, items, flags, known.users),
    flags.includeArguments ? (known.arguments ?? argumentsOfIdeas(site.id, ids)) : [],
    tallyItemsRead,
  ]);
  const tallyOf = (id: number): IdeaTally | undefined => {
    const read = tallyItems?.get(id);
    if (read) return read;
    const tally = known.tallies?.get(id);
    return tally ? { ideaId: id, tally, budget: null, theme: null, gone: false, args: known.argCounts?.get(id) ?? 0 } : undefined;
  };
  const argumentsByIdea = groupArguments(argumentItems);

  return items.map((item) => {
    const record: IdeaRecord = withCommonIncludes(toIdeaRecord(item), item, flags, users, site.config);
    const may = mayModifyIdea(caller, item, site, tallyOf(item.id));
    record.can = { edit: may, delete: may };
    if (flags.includeArgsCount) record.argCount = known.argCounts?.get(item.id) ?? tallyItems?.get(item.id)?.args ?? 0;
    if (showCounts) {
      const counts = yesNo(tallies?.get(item.id));
      Object.assign(record, counts, { progress: progressOf(counts.yes, site.config.ideas.minimumYesVotes) });
    }
    if (flags.includeUserVote) {
      const vote = ballot?.votes?.[String(item.id)];
      record.userVote = vote ? { opinion: vote.opinion } : null;
    }
    if (flags.includeArguments) {
      const argued = argumentsByIdea.get(item.id);
      record.argumentsFor = argued?.for ?? [];
      record.argumentsAgainst = argued?.against ?? [];
    }
    return record;
  });
}

/** How far an idea is towards `ideas.minimumYesVotes`, in whole percent (OpenStad's `progress`). */
export function progressOf(yes: number, minimumYesVotes: number): number {
  if (!(minimumYesVotes > 0)) return 100;
  return Math.min(100, Math.round((100 * Math.max(0, yes)) / minimumYesVotes));
}

/** Arguments per idea and sentiment, oldest first (the SK order they were read in). */
function groupArguments(items: readonly ArgumentItem[]) {
  const byIdea = new Map<number, { for: ArgumentRecord[]; against: ArgumentRecord[] }>();
  for (const item of items) {
    let entry = byIdea.get(item.ideaId);
    if (!entry) {
      entry = { for: [], against: [] };
      byIdea.set(item.ideaId, entry);
    }
    (item.sentiment === 'against' ? entry.against : entry.for).push(toArgumentRecord(item));
  }
  return byIdea;
}
