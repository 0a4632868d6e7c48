/**
 * Ideas: content items (lib/store/content/content-items.ts) with what only ideas have: a tally registration
 * that moves with the idea (so votes can only land on existing ideas), arguments stored under the
 * idea's id, and the order by votes.
 */
import { badRequest } from '#lib/errors';
import { batchDelete, batchPut } from '#lib/store/db/batch';
import { planOf } from '#lib/store/db/prefetch';
import { MAX_TRANSACTION_ACTIONS } from '#lib/store/db/limits';
import { decodeCursor, encodeCursor, type CursorScope } from '#lib/store/db/cursor';
import { idRuns } from '#lib/store/arguments/id-runs';
import { sitePk, type Key } from '#lib/store/db/keys';
import { argumentKeys } from '#lib/store/arguments/keys';
import { cursorScope, queryAll, type PageRequest } from '#lib/store/db/query';
import { newTallyItem, queryIdeasByVotes, tallyCopiesItem, tallyGoneItem, type Tally, type TallyCopies, type VotesPosition } from '#lib/store/ideas/tallies';
import {
  indexActions,
  indexKeysOf,
  INDEX_KEYS,
  planIndex,
  readIndexEntries,
  tagIsLive,
  type IdeaIndexSpec,
} from '#lib/store/ideas/index-items';
import {
  contentKey,
  deleteContentItem,
  getContentItem,
  getContentItems,
  getUsers,
  listContentByCreation,
  markContentDeleting,
  putNewContentItem,
  replaceContentItem,
  type ContentItem,
  type ContentPage,
  type ContentWriteOutcome,
} from '#lib/store/content/content-items';
import { type ArgumentItem } from '#lib/store/arguments/arguments';
import { argumentCodec } from '#lib/store/arguments/codec';
import type { UserItem } from '#lib/store/users/users';
import type { ContentStatus } from '#schemas/content-item';
import { type TransactItem } from '#lib/store/db/transact';

export type IdeaItem = ContentItem;

/** One idea (`.plan`: read ahead by the idea routes, lib/ideas/read-plans.ts). */
export const getIdea = Object.assign(
  (siteId: number, ideaId: number, options: { includeDeleting?: boolean } = {}) => getContentItem('IDEA', siteId, ideaId, options),
  { plan: planOf((siteId: number, ideaId: number) => [contentKey('IDEA', siteId, ideaId)]) },
);
export const getIdeas = (siteId: number, ideaIds: readonly number[]) => getContentItems('IDEA', siteId, ideaIds);
export const listIdeasByCreation = (
  siteId: number,
  options: { newestFirst: boolean; statuses?: readonly ContentStatus[] | undefined },
  page: PageRequest,
) => listContentByCreation('IDEA', siteId, options, page);
/** An idea write; 'no-tag': a tag it was given no longer exists (deleted meanwhile). */
export type IdeaWriteOutcome = ContentWriteOutcome | 'no-tag';

/**
 * Replaces an idea that still has `expectedVersion`, with the changes of its index items
 * (lib/store/ideas/index-items.ts) in the same transaction. The index spec is required: every idea write
 * (edits, tag deletes, the close-ideas job) must keep the filter streams in step with the idea.
 */
export const replaceIdea = (
  item: IdeaItem,
  expectedVersion: number,
  options: { checkUser?: number | undefined; index: IdeaIndexSpec },
): Promise<IdeaWriteOutcome> =>
  writeIndexed(item, options.index, [tallyCopiesItem(item.siteId, item.id, tallyCopiesOf(item))], options.checkUser !== undefined, (stored, withItems) =>
    replaceContentItem('IDEA', stored, expectedVersion, { checkUser: options.checkUser, with: withItems }),
  );

/** What a vote round needs of an idea, and its author, copied onto its tally item by every idea write. */
export function tallyCopiesOf(item: IdeaItem): TallyCopies {
  const theme = item.extraData?.['theme'];
  return { budget: typeof item.budget === 'number' ? item.budget : null, theme: typeof theme === 'string' ? theme : null, author: item.userId ?? null };
}

/** The idea, its tally item and its index items in one transaction: it is votable exactly while it exists. */
export const putNewIdea = (
  item: IdeaItem,
  options: { checkUser?: number | undefined; index?: IdeaIndexSpec | undefined } = {},
): Promise<IdeaWriteOutcome> =>
  writeIndexed(item, options.index, [newTallyItem(item.siteId, item.id, tallyCopiesOf(item))], options.checkUser !== undefined, (stored, withItems) =>
    putNewContentItem('IDEA', stored, { with: withItems, checkUser: options.checkUser }),
  );

/**
 * The idea write with its index: one transaction when it fits in DynamoDB's 100 actions, else the
 * new index items first and the stale ones after (see lib/store/ideas/index-items.ts for why that is safe).
 */
async function writeIndexed(
  item: IdeaItem,
  spec: IdeaIndexSpec | undefined,
  fixed: TransactItem[],
  checksUser: boolean,
  send: (stored: IdeaItem, withItems: TransactItem[]) => Promise<ContentWriteOutcome>,
): Promise<IdeaWriteOutcome> {
  if (!spec) return send(item, fixed);
  const old = (item as unknown as Record<string, unknown>)[INDEX_KEYS] as string[] | undefined;
  const plan = planIndex(item.siteId, item.id, old, spec);
  const checks = plan.addedTags.map((tag) => tagIsLive(item.siteId, tag));
  const actions = indexActions(plan);
  const inline = 1 + fixed.length + checks.length + (checksUser ? 1 : 0) + actions.length <= MAX_TRANSACTION_ACTIONS;
  if (!inline) await batchPut(plan.puts);
  const stored = { ...item, [INDEX_KEYS]: plan.entries } as IdeaItem;
  try {
    const outcome = await send(stored, [...fixed, ...checks, ...(inline ? actions : [])]);
    if (outcome === 'ok') {
      if (!inline) await batchDelete(plan.deletes);
      Object.assign(item, { [INDEX_KEYS]: plan.entries });
    }
    return outcome;
  } catch (err) {
    // The first action is the idea, then `fixed`, then the tag checks.
    const reasons = (err as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
    const first = 1 + fixed.length;
    if (reasons.slice(first, first + checks.length).some((r) => r?.Code === 'ConditionalCheckFailed')) return 'no-tag';
    throw err;
  }
}

/**
 * The first step of deleting an idea: the idea becomes a tombstone (`DELETING`; reads treat it as gone)
 * and its tally `gone` (out of the order by votes), in one transaction, so from then on no vote or
 * argument can be added to it. False when there was no such idea (nor a tombstone of one).
 */
export const markIdeaDeleting = (siteId: number, ideaId: number): Promise<boolean> =>
  markContentDeleting('IDEA', siteId, ideaId, { with: [tallyGoneItem(siteId, ideaId)] });

/**
 * Every argument of an idea, removed (one Query page per 1 MB, one BatchWrite per 25): a step of
 * deleting the idea, after its tombstone (no argument can be added any more).
 */
export async function deleteArgumentsOfIdea(siteId: number, ideaId: number): Promise<void> {
  const argumentKeyList = await queryAll<Key>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': argumentKeys.argumentsOfIdeaPrefix(ideaId) },
    ProjectionExpression: 'PK, SK',
  });
  await batchDelete(argumentKeyList);
}

/** A deleted idea's index items (its tombstone is written by nobody any more, so its list is final). */
export async function deleteIdeaIndexItems(siteId: number, ideaId: number): Promise<void> {
  await batchDelete(indexKeysOf(siteId, await readIndexEntries(siteId, ideaId)));
}

/** The last step of deleting an idea: its tombstone. */
export const deleteIdeaItem = (siteId: number, ideaId: number): Promise<boolean> => deleteContentItem('IDEA', siteId, ideaId);

/** The argument fields a record shows; `voterIds` (one entry per argument vote) is left on the server. */
const ARGUMENT_FIELDS = ['id', 'siteId', 'ideaId', 'userId', 'parentId', 'sentiment', 'description', 'createdAt', 'updatedAt'];

/**
 * Every argument of the given ideas: arguments sort under their idea (`ARG#<ideaId>#<argId>`), so the
 * arguments of a run of nearby ideas are one SK range. One Query per run (lib/store/arguments/id-runs.ts), the
 * runs in parallel: a page in creation order is one Query, a page ordered by votes reads about what it
 * shows however large the site. Arguments of ideas inside a run but not asked for are dropped here;
 * further Query pages are read only when a run holds more than 1 MB.
 */
export async function argumentsOfIdeas(siteId: number, ideaIds: readonly number[]): Promise<ArgumentItem[]> {
  if (ideaIds.length === 0) return [];
  const wanted = new Set(ideaIds);
  const names = Object.fromEntries(ARGUMENT_FIELDS.map((field, i) => [`#f${i}`, field]));
  const runs = await Promise.all(
    idRuns(ideaIds).map((run) =>
      queryAll<Record<string, unknown>>({
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': sitePk(siteId),
          ':from': argumentKeys.argumentsOfIdeaPrefix(run.from),
          // '~' sorts after every digit, so this bound takes in every argument of `run.to`.
          ':to': `${argumentKeys.argumentsOfIdeaPrefix(run.to)}~`,
        },
        ProjectionExpression: Object.keys(names).join(', '),
        ExpressionAttributeNames: names,
      }),
    ),
  );
  return runs.flat().map(argumentCodec.fromItem).filter((item) => wanted.has(item.ideaId));
}

interface IdeasByVotesPage<A = undefined> extends ContentPage {
  /** The tallies of the page's ideas, read with the order (callers reuse them for `includeVoteCount`). */
  tallies: Map<number, Tally>;
  /** The page's argument counts, from the same tally items. */
  argCounts: Map<number, number>;
  /** With `withAuthors`: the users the page's tally items name as authors, read beside the ideas. */
  authors: Map<number, UserItem>;
  /** What `alongside` read. */
  alongside: A | undefined;
}

/**
 * One page of ideas ordered by their `yes` tally (most first: ties newest first; least first: the
 * exact reverse), whatever their number: one Query of GSI3 (the page's tally items, in order), then
 * one BatchGet of the page's ideas, and beside it (same round trip) the authors the tally items name
 * and whatever `alongside` reads of the page's ids (its arguments). The cursor is the position (yes, id) of the last idea, so paging
 * continues sensibly while votes come in. `statuses` and `keep` apply after the read, so such a page
 * may hold fewer ideas than asked for.
 */
export async function listIdeasByVotes<A = undefined>(
  siteId: number,
  options: {
    mostFirst: boolean;
    /** Read the page's authors beside its ideas (`includeUser`), from the tally items' `author` copies. */
    withAuthors?: boolean | undefined;
    /** Another read of the page's ids, sent beside the ideas BatchGet. */
    alongside?: ((ids: readonly number[]) => Promise<A>) | undefined;
    statuses?: readonly ContentStatus[] | undefined;
    /** Filters checked on each idea read (discovery filters); such a page may hold fewer ideas. */
    keep?: ((item: ContentItem) => boolean) | undefined;
    /** Binds cursors to the filtered query they came from. */
    binding?: string | undefined;
  },
  page: PageRequest,
): Promise<IdeasByVotesPage<A>> {
  const sort = options.mostFirst ? 'votes_desc' : 'votes_asc';
  const scope = cursorScope({ siteId, list: 'ideas-by-votes', options: { sort, statuses: options.statuses, binding: options.binding ?? null } }, page);
  const after = decodeVotesCursor(page.cursor, scope, siteId, sort);
  const ranked = await queryIdeasByVotes(siteId, { mostFirst: options.mostFirst, after, limit: page.pageSize });
  const tallies = new Map(ranked.tallies.map((entry) => [entry.id, entry.tally]));
  const argCounts = new Map(ranked.tallies.map((entry) => [entry.id, entry.args]));
  const ids = ranked.tallies.map((entry) => entry.id);
  const authorIds = options.withAuthors ? ranked.tallies.flatMap((entry) => (entry.author != null ? [entry.author] : [])) : [];
  const [found, authors, alongside] = await Promise.all([getContentItems('IDEA', siteId, ids), getUsers(siteId, authorIds), options.alongside?.(ids)]);
  const allowed = options.statuses ? new Set(options.statuses) : undefined;
  const items = ranked.tallies
    .map((entry) => found.get(entry.id))
    .filter((item): item is ContentItem => item !== undefined && (!allowed || allowed.has(item.status)) && (!options.keep || options.keep(item)));

  const cursorOf = (position: VotesPosition) => encodeCursor({ PK: sitePk(siteId), sort, yes: position.yes, id: position.id }, scope)!;
  return {
    items,
    tallies,
    argCounts,
    authors,
    alongside,
    nextCursor: ranked.more && ranked.last ? cursorOf(ranked.last) : null,
    cursorAfter: (item) => cursorOf({ id: item.id, yes: tallies.get(item.id)?.['yes'] ?? 0 }),
  };
}

function decodeVotesCursor(cursor: string | undefined, scope: CursorScope, siteId: number, sort: string): VotesPosition | undefined {
  const key = decodeCursor(cursor, scope, { values: { PK: sitePk(siteId), sort } });
  if (!key) return undefined;
  const { yes, id } = key;
  if (!Number.isSafeInteger(yes) || !Number.isSafeInteger(id) || (yes as number) < 0 || (id as number) < 0) throw badRequest('Invalid cursor');
  return { yes: yes as number, id: id as number };
}
