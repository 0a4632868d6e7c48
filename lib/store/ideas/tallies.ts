/**
 * Vote tallies: ONE small item per idea (`SK = IDEA#<id>#TALLY`, right after its idea), written in the
 * same transaction as the ballots whose votes it counts (docs/data-model.md "Votes").
 *
 * Why per idea: a round's write cost then depends only on the ideas it changes (an item
 * under 1 KB is 2 write units in a transaction), no item is written by every round of a site, and no
 * item grows with the number of ideas. DynamoDB's per-item ceiling (1,000 WCU/s) allows 500 rounds/s
 * that all change the same idea. The order by votes is GSI3 over these items (`GSI3PK = VOTES#<site>`,
 * `GSI3SK` = the rank below), kept exact by the round's own `ADD`.
 *
 * Attributes:
 *   `tallyOf`            the idea id (tells a tally from an idea in the `IDEA#` range)
 *   `v_<opinion>` = n    the number of current votes with that opinion
 *   `budget`, `theme`    copies of the idea's, written with every idea write: a round reads only tallies
 *   `author`             copy of the idea's `userId` (same writes): a page ordered by votes reads its
 *                        authors beside its ideas, not after them (absent on items from before it)
 *   `gone` = true        the idea is being deleted: no vote may be added (set with its tombstone)
 *   `args` = n           the idea's arguments (replies included): ADDed in the transaction of each
 *                        argument write (lib/store/arguments.ts), so `argCount` and the "first like or
 *                        argument" rule read it with the tally, never by counting
 *   GSI3 keys            while the idea is votable; `GSI3SK` = yes + id / 10^10 (a decimal: a round adds
 *                        its `yes` change to it, ties order by id, and it stays exact at any count,
 *                        where yes * 10^10 + id would leave JavaScript's safe integers at 900,720 votes; read back,
 *                        it is an inexact double that nothing uses)
 */
import { NumberValue, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { doc, GSI3, TABLE } from '#lib/store/db/client';
import { getItems } from '#lib/store/db/read';
import { planOf } from '#lib/store/db/prefetch';
import { itemKeyOf, recordReader, type MalformedItem } from '#lib/store/db/codec';
import { CorruptRecordError } from '#lib/errors';
import { storedTally } from '#schemas/stored/ballot';
import { pad, sitePk, type Key } from '#lib/store/db/keys';
import { contentKeys } from '#lib/store/content/keys';
import { ideaKeys, isIdeaTallySk } from '#lib/store/ideas/keys';
import { queryAll } from '#lib/store/db/query';
import { update, withCondition } from '#lib/store/db/update';
import { batchDelete } from '#lib/store/db/batch';
import { type TransactItem } from '#lib/store/db/transact';

/** Votes per opinion. */
export type Tally = Record<string, number>;

/** What an idea's tally item tells a vote round. */
export interface IdeaTally {
  ideaId: number;
  tally: Tally;
  budget: number | null;
  theme: string | null;
  /** The idea is being deleted: no vote may be added to it. */
  gone: boolean;
  /** Its number of arguments. */
  args: number;
}

/** The copies of an idea kept on its tally item: what a round needs, and who wrote it (for a by-votes page). */
export interface TallyCopies {
  budget: number | null;
  theme: string | null;
  author: number | null;
}

const COUNTER_PREFIX = 'v_';
export const counterName = (opinion: string) => `${COUNTER_PREFIX}${opinion}`;

/** The rank of an idea with `yes` votes on GSI3 (as a string: a decimal beyond a double's precision). */
export const rankOf = (yes: number, ideaId: number): NumberValue => NumberValue.from(`${yes}.${pad(ideaId)}`);

/** The tally of a stored tally item: every `v_<opinion>` counter, each a number, or the item is corrupt. */
function tallyOfItem(item: Record<string, unknown>): Tally {
  // Null prototype: opinions are site configuration, and `__proto__` must stay an ordinary key.
  const tally = Object.create(null) as Tally;
  for (const [name, value] of Object.entries(item)) {
    if (!name.startsWith(COUNTER_PREFIX)) continue;
    if (typeof value !== 'number') throw new CorruptRecordError('idea tally', `${String(item['PK'])} ${String(item['SK'])}`, { path: name, message: 'a counter must be a number' });
    tally[name.slice(COUNTER_PREFIX.length)] = value;
  }
  return tally;
}

const tallyFieldsOf = recordReader('idea tally', storedTally);

function ideaTallyOf(item: Record<string, unknown>): IdeaTally {
  const fields = tallyFieldsOf(item);
  return {
    ideaId: fields.tallyOf,
    tally: tallyOfItem(item),
    budget: fields.budget ?? null,
    theme: fields.theme ?? null,
    gone: fields.gone === true,
    args: Math.max(0, fields.args ?? 0),
  };
}

/** The new idea's tally item: goes in the idea's creating transaction, so it is votable exactly while it exists. */
export function newTallyItem(siteId: number, ideaId: number, copies: TallyCopies): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: {
        ...ideaKeys.ideaTally(siteId, ideaId),
        ...ideaKeys.ideasByVotes(siteId),
        GSI3SK: rankOf(0, ideaId),
        tallyOf: ideaId,
        budget: copies.budget,
        theme: copies.theme,
        author: copies.author,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** The idea's new copies on its tally item: goes in the idea's updating transaction. */
export function tallyCopiesItem(siteId: number, ideaId: number, copies: TallyCopies): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: ideaKeys.ideaTally(siteId, ideaId),
      ...update({ set: { tallyOf: ideaId, budget: copies.budget, theme: copies.theme, author: copies.author } }),
    },
  };
}

/** Stops new votes on an idea and takes it out of the order by votes: goes with its tombstone. */
export function tallyGoneItem(siteId: number, ideaId: number): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: ideaKeys.ideaTally(siteId, ideaId),
      ...update({ set: { gone: true }, remove: ['GSI3PK', 'GSI3SK'] }),
    },
  };
}

/**
 * The transaction item that applies one idea's net change. `addsVotes`: the round adds a vote to the
 * idea, so its tally must exist and not be gone; otherwise it must exist (a count change never creates
 * a tally), unless `unconditional` (a journalled step, lib/store/ballots/journal.ts). A zero change
 * that must still hold is a ConditionCheck.
 */
export function tallyChangeItem(siteId: number, ideaId: number, change: Tally, options: { addsVotes: boolean; unconditional?: boolean }): TransactItem {
  const adds: Record<string, number> = {};
  for (const [opinion, delta] of Object.entries(change)) {
    if (delta === 0) continue;
    adds[counterName(opinion)] = delta;
    // The rank moves with `yes`. Only a votable idea carries GSI3PK: on a gone one this leaves a stray
    // GSI3SK, which indexes nothing and goes with the item.
    if (opinion === 'yes') adds['GSI3SK'] = delta;
  }
  const key = ideaKeys.ideaTally(siteId, ideaId);
  const condition: { expression: string; names: Record<string, string> } | undefined = options.addsVotes
    ? { expression: 'attribute_exists(PK) AND attribute_not_exists(#gone)', names: { '#gone': 'gone' } }
    : options.unconditional
      ? undefined
      : { expression: 'attribute_exists(PK)', names: {} };
  if (Object.keys(adds).length === 0) {
    if (!condition) throw new Error('A tally change with nothing to add and nothing to check');
    const checkNames = Object.keys(condition.names).length > 0 ? { ExpressionAttributeNames: condition.names } : {};
    return { ConditionCheck: { TableName: TABLE, Key: key, ConditionExpression: condition.expression, ...checkNames } };
  }
  return {
    Update: {
      TableName: TABLE,
      Key: key,
      ...(condition ? withCondition(update({ add: adds }), condition) : update({ add: adds })),
    },
  };
}

/** Moves an idea's argument count (in the transaction of the argument write that changes it). */
export function tallyArgsItem(siteId: number, ideaId: number, delta: 1 | -1): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: ideaKeys.ideaTally(siteId, ideaId),
      ...update({ add: { args: delta } }),
    },
  };
}

/** The key of an idea's tally item, for its removal. */
export function tallyDeleteKey(siteId: number, ideaId: number): Key {
  return ideaKeys.ideaTally(siteId, ideaId);
}

/** Removes an idea's tally item: the last step of deleting the idea's votes, after they left every ballot. */
export const deleteTally = (siteId: number, ideaId: number): Promise<void> => batchDelete([tallyDeleteKey(siteId, ideaId)]);

/** The keys of some ideas' tally items (for a read planned together with others, e.g. a vote round's). */
const tallyKeys = (siteId: number, ideaIds: readonly number[]): Key[] => ideaIds.map((id) => ideaKeys.ideaTally(siteId, id));

/** Whether a stored item is a tally item, and the idea's tally from it (for reads of mixed items). */
export function asIdeaTally(item: Record<string, unknown> | undefined): IdeaTally | undefined {
  return item && typeof item['tallyOf'] === 'number' ? ideaTallyOf(item) : undefined;
}

/**
 * The tally items of some ideas (from the request's prefetch, else one BatchGet per 100): ideas
 * without one (never created, deleted) are absent.
 */
export const readIdeaTallies = Object.assign(
  async (siteId: number, ideaIds: readonly number[], options: { consistent?: boolean } = {}): Promise<Map<number, IdeaTally>> => {
    const found = new Map<number, IdeaTally>();
    if (ideaIds.length === 0) return found;
    const items = await getItems(tallyKeys(siteId, ideaIds), options);
    for (const item of items) {
      const tally = asIdeaTally(item);
      if (tally) found.set(tally.ideaId, tally);
    }
    return found;
  },
  { plan: planOf(tallyKeys) },
);

/**
 * The tallies of some ideas that are votable (not gone): the counts a record shows. An idea without a
 * tally item has none (`{}` is "no votes" only for ideas that have one).
 */
export const readTallies = Object.assign(
  async (siteId: number, ideaIds: readonly number[]): Promise<Map<number, Tally>> => {
    const tallies = new Map<number, Tally>();
    for (const [id, read] of await readIdeaTallies(siteId, ideaIds)) if (!read.gone) tallies.set(id, read.tally);
    return tallies;
  },
  { plan: planOf(tallyKeys) },
);

/** The idea an item's key says it is the tally of: what readers fetch and list it by, whatever its own `tallyOf` says. */
const ideaOfTallyItem = (item: Record<string, unknown>): number | undefined => (typeof item['SK'] === 'string' ? ideaKeys.ideaOfTallySk(item['SK']) : undefined);

/**
 * A tally item read from GSI3 that the order by votes and the exports may show: the votable (not gone),
 * well-formed tally stored under its own idea's tally key on this site. Anything else carrying the
 * site's GSI3 keys (a gone tally whose keys were kept, an item without `tallyOf`, one under another
 * key) no write of ours leaves there: it is skipped, and verify-votes reports it.
 */
function listedTallyOf(siteId: number, item: Record<string, unknown>): IdeaTally | undefined {
  if (item['PK'] !== sitePk(siteId) || item['gone'] !== undefined) return undefined;
  try {
    const read = ideaTallyOf(item);
    return ideaOfTallyItem(item) === read.ideaId ? read : undefined;
  } catch (err) {
    if (err instanceof CorruptRecordError) return undefined;
    throw err;
  }
}

/**
 * Every votable idea of the site with its tally (results, exports). Reads only tally items: GSI3
 * holds exactly those of votable ideas (anything else found there is skipped: `listedTallyOf`).
 * `consistent` (tests holding the tallies to the ballots, which must not see an index that lags) reads
 * the tally range of the table instead, and fails on a malformed item. Cost grows with the site, as
 * these reports do; list and vote calls never call it.
 */
export async function readSiteTallies(siteId: number, options: { consistent?: boolean } = {}): Promise<Map<number, Tally>> {
  if (options.consistent) {
    const { items, malformed } = await readSiteTalliesChecked(siteId);
    const [first] = malformed;
    if (first) throw new CorruptRecordError('idea tally', first.key, { path: '', message: first.problem });
    return new Map(items.filter((item) => !item.gone).map((item) => [item.ideaId, item.tally]));
  }
  const items = await queryAll<Record<string, unknown>>({
    IndexName: GSI3,
    KeyConditionExpression: 'GSI3PK = :pk',
    ExpressionAttributeValues: { ':pk': ideaKeys.ideasByVotes(siteId).GSI3PK },
  });
  return new Map(items.flatMap((item) => listedTallyOf(siteId, item) ?? []).map((read) => [read.ideaId, read.tally]));
}

/** A tally item as the audit reads it: whose counts it holds (by its key), and whether GSI3 lists it. */
export interface AuditedTally {
  /** `PK/SK`, as the audit names an item. */
  key: string;
  ideaId: number;
  tally: Tally;
  /** Marked gone (its idea is being deleted): no list or export may show it. */
  gone: boolean;
  /** Its GSI3 keys: whether it is in the site's order by votes, and its rank there (as read: a double). */
  listed: { inSiteOrder: boolean; rank: number | undefined };
}

/**
 * Every item of the site's tally range, consistently (verify-votes): gone ones too, since their counts
 * must still be what the ballots hold while the idea's delete cascade takes the votes out. An item that
 * does not match its schema (no `tallyOf`, a counter that is no number, a `tallyOf` naming another
 * idea than its key) comes back apart, by its key, never thrown: verify-votes reports it and goes on.
 */
export async function readSiteTalliesChecked(siteId: number): Promise<{ items: AuditedTally[]; malformed: MalformedItem[] }> {
  const read = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': contentKeys.ideaPrefix },
    ConsistentRead: true,
  });
  const items: AuditedTally[] = [];
  const malformed: MalformedItem[] = [];
  for (const item of read) {
    if (!isIdeaTallySk(String(item['SK']))) continue;
    const ideaId = ideaOfTallyItem(item);
    if (ideaId === undefined) {
      malformed.push({ key: itemKeyOf(item), problem: 'the key names no idea' });
      continue;
    }
    try {
      const fields = ideaTallyOf(item);
      if (fields.ideaId !== ideaId) {
        malformed.push({ key: itemKeyOf(item), problem: `tallyOf names idea ${fields.ideaId}, not the idea of its key` });
        continue;
      }
      const rank = item['GSI3SK'];
      items.push({
        key: itemKeyOf(item),
        ideaId,
        tally: fields.tally,
        gone: fields.gone,
        listed: { inSiteOrder: item['GSI3PK'] === ideaKeys.ideasByVotes(siteId).GSI3PK, rank: typeof rank === 'number' ? rank : undefined },
      });
    } catch (err) {
      if (!(err instanceof CorruptRecordError)) throw err;
      malformed.push({ key: itemKeyOf(item), problem: `${err.problem.path === '' ? 'the item' : err.problem.path} ${err.problem.message}` });
    }
  }
  return { items, malformed };
}

/** A position in the order by votes: the last idea a page showed. */
export interface VotesPosition {
  yes: number;
  id: number;
}

/** One idea's place in the order by votes: its tally and its author's id as copied (undefined: not copied yet). */
interface RankedTally {
  id: number;
  tally: Tally;
  author: number | null | undefined;
  args: number;
}

/**
 * One page of a site's votable ideas by `yes` (most first: ties newest first; least first: the exact
 * reverse), from GSI3: only what the page returns is read, whatever the number of ideas.
 */
export async function queryIdeasByVotes(
  siteId: number,
  options: { mostFirst: boolean; after?: VotesPosition | undefined; limit: number },
): Promise<{ tallies: RankedTally[]; more: boolean; last: VotesPosition | undefined }> {
  const out = await doc.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: GSI3,
      KeyConditionExpression: 'GSI3PK = :pk',
      ExpressionAttributeValues: { ':pk': ideaKeys.ideasByVotes(siteId).GSI3PK },
      ScanIndexForward: !options.mostFirst,
      // One more than the page: DynamoDB reports "more" whenever the limit is reached, even at the end.
      Limit: options.limit + 1,
      ...(options.after
        ? {
            ExclusiveStartKey: {
              ...ideaKeys.ideaTally(siteId, options.after.id),
              ...ideaKeys.ideasByVotes(siteId),
              GSI3SK: rankOf(options.after.yes, options.after.id),
            },
          }
        : {}),
    }),
  );
  const items = out.Items ?? [];
  const page = items.slice(0, options.limit);
  // Only what listedTallyOf accepts is shown; the page then holds fewer, and goes on after the last item read.
  const tallies = page.flatMap((item) => {
    const read = listedTallyOf(siteId, item);
    return read ? [{ id: read.ideaId, tally: read.tally, author: tallyFieldsOf(item).author, args: read.args }] : [];
  });
  const lastRead = page.at(-1);
  const lastShown = tallies.at(-1);
  const last = lastShown && lastRead && listedTallyOf(siteId, lastRead) ? { yes: lastShown.tally['yes'] ?? 0, id: lastShown.id } : skippedPosition(lastRead, options.mostFirst);
  return { tallies, more: items.length > options.limit, last };
}

/** The rank of a position as DynamoDB hands it back (a double: the same inexact value for the same decimal). */
export const rankAsRead = (yes: number, ideaId: number): number => Number(rankOf(yes, ideaId).toString());

/**
 * Where an item skipped from a page of the order by votes stands in it, so that the next page goes on
 * past it rather than reading it again: its own rank when that is one `rankOf` writes, else a rank
 * beyond it in the page's direction (such an item is forged; verify-votes reports it).
 */
function skippedPosition(item: Record<string, unknown> | undefined, mostFirst: boolean): VotesPosition | undefined {
  const id = item ? ideaOfTallyItem(item) : undefined;
  const rank = item?.['GSI3SK'];
  if (id === undefined || typeof rank !== 'number' || !(rank >= 0) || !Number.isSafeInteger(Math.floor(rank))) return undefined;
  const yes = Math.floor(rank);
  if (rankAsRead(yes, id) === rank) return { yes, id };
  // A rank strictly beyond it (ties are not ordered the same way in both directions); legitimate ideas
  // between the two are left out of this listing, which only a reported forgery causes.
  if (mostFirst) return rank > yes ? { yes, id: 0 } : yes > 0 ? { yes: yes - 1, id: 0 } : undefined;
  return { yes: yes + 1, id: 0 };
}

/** `yes`/`no` counts as shown on idea records. */
export const yesNo = (tally: Tally | undefined) => ({ yes: tally?.yes ?? 0, no: tally?.no ?? 0 });
