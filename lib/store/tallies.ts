/**
 * Vote tallies of a site's ideas, kept in TALLY_SHARDS shard items per site (`SK = TALLY#<ideaId % N>`).
 *
 * Why shards and not a counter on each idea: a vote round changes the user's ballot and the tally of
 * every idea it adds or removes, all in one transaction (exact tallies, all-or-nothing). With a counter
 * per idea, a `replace` round at maxIdeas 100 touches up to 200 ideas + 1 ballot, over DynamoDB's limit
 * of 100 actions per transaction. With shards a round touches at most TALLY_SHARDS tally items + its
 * ballot, whatever its size, and reading every tally of a site is one BatchGet.
 *
 * Attributes of a shard item:
 *   `i<ideaId>` = 1              the idea exists and may be voted on (set when the idea is created,
 *                                removed when it is deleted; vote rounds require it, so a vote can never
 *                                land on a deleted idea)
 *   `v<ideaId>_<opinion>` = n    the number of current votes with that opinion
 */
import { GetCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/client';
import { batchGet } from '#lib/store/batch';
import { keys, TALLY_SHARDS } from '#lib/store/keys';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
export type Tally = Record<string, number>;

const marker = (ideaId: number) => `i${ideaId}`;
/** The marker attribute of an idea in its shard (vote rounds read it from a failed condition's old image). */
export const markerAttribute = marker;
const counter = (ideaId: number, opinion: string) => `v${ideaId}_${opinion}`;
const COUNTER_NAME = /^v([0-9]+)_(.+)$/s;

/** The transaction item that makes an idea votable; goes in the same transaction as the idea's Put. */
export function registerIdeaItem(siteId: number, ideaId: number): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: keys.tallyShard(siteId, keys.tallyShardOf(ideaId)),
      UpdateExpression: 'SET #m = :one',
      ExpressionAttributeNames: { '#m': marker(ideaId) },
      ExpressionAttributeValues: { ':one': 1 },
    },
  };
}

/** The transaction item that stops new votes on an idea; goes in the same transaction as its Delete. */
export function unregisterIdeaItem(siteId: number, ideaId: number): TransactItem {
  return {
    Update: {
      TableName: TABLE,
      Key: keys.tallyShard(siteId, keys.tallyShardOf(ideaId)),
      UpdateExpression: 'REMOVE #m',
      ExpressionAttributeNames: { '#m': marker(ideaId) },
    },
  };
}

/**
 * One Update per touched shard: ADD the net deltas, and require the marker of every idea in
 * `mustExist` (the ideas a round adds votes to), so a concurrently deleted idea fails the round.
 */
export function tallyUpdateItems(siteId: number, deltas: ReadonlyMap<number, Tally>, mustExist: readonly number[]): TransactItem[] {
  const byShard = new Map<number, { adds: Array<[string, number]>; exists: string[] }>();
  const shardOf = (ideaId: number) => {
    const shard = keys.tallyShardOf(ideaId);
    let entry = byShard.get(shard);
    if (!entry) {
      entry = { adds: [], exists: [] };
      byShard.set(shard, entry);
    }
    return entry;
  };
  for (const [ideaId, tally] of deltas) {
    for (const [opinion, delta] of Object.entries(tally)) {
      if (delta !== 0) shardOf(ideaId).adds.push([counter(ideaId, opinion), delta]);
    }
  }
  for (const ideaId of new Set(mustExist)) shardOf(ideaId).exists.push(marker(ideaId));

  const items: TransactItem[] = [];
  for (const [shard, { adds, exists }] of byShard) {
    const names: Record<string, string> = {};
    const values: Record<string, number> = {};
    const addParts = adds.map(([name, delta], i) => {
      names[`#a${i}`] = name;
      values[`:a${i}`] = delta;
      return `#a${i} :a${i}`;
    });
    const conditions = exists.map((name, i) => {
      names[`#e${i}`] = name;
      return `attribute_exists(#e${i})`;
    });
    // A shard with only existence checks still needs an update expression; ADD 0 changes nothing.
    if (addParts.length === 0) {
      names['#touch'] = '_touched';
      values[':zero'] = 0;
      addParts.push('#touch :zero');
    }
    items.push({
      Update: {
        TableName: TABLE,
        Key: keys.tallyShard(siteId, shard),
        UpdateExpression: `ADD ${addParts.join(', ')}`,
        ...(conditions.length > 0 ? { ConditionExpression: conditions.join(' AND ') } : {}),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    });
  }
  return items;
}

function parseShard(item: Record<string, unknown>, into: Map<number, Tally>, only?: ReadonlySet<number>) {
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith('i') && /^i[0-9]+$/.test(name)) {
      const ideaId = Number(name.slice(1));
      if (!only || only.has(ideaId)) if (!into.has(ideaId)) into.set(ideaId, {});
      continue;
    }
    const match = COUNTER_NAME.exec(name);
    if (!match || typeof value !== 'number') continue;
    const ideaId = Number(match[1]);
    if (only && !only.has(ideaId)) continue;
    const tally = into.get(ideaId) ?? {};
    tally[match[2]!] = value;
    into.set(ideaId, tally);
  }
}

/**
 * Every idea of the site that is votable, with its tally (`{}` when it has no votes). One BatchGet
 * of TALLY_SHARDS items, whatever the number of ideas.
 */
export async function readSiteTallies(siteId: number): Promise<Map<number, Tally>> {
  const shardKeys = Array.from({ length: TALLY_SHARDS }, (_, shard) => keys.tallyShard(siteId, shard));
  const items = await batchGet<Record<string, unknown>>(shardKeys);
  const tallies = new Map<number, Tally>();
  for (const item of items) parseShard(item, tallies);
  return tallies;
}

/**
 * Up to this many counters are read by name; beyond it the projection would outgrow DynamoDB's 4 KB
 * expression limit and the whole shards are read instead.
 */
const MAX_PROJECTED_COUNTERS = 300;

/**
 * The tallies of a few ideas: reads only the shards they live in (one BatchGet). With `opinions`
 * (e.g. yes/no for a list page) only those counters of those ideas come back, so what travels stays
 * the size of the page however many ideas the site has (shards grow with the site).
 */
export async function readTallies(
  siteId: number,
  ideaIds: readonly number[],
  options: { opinions?: readonly string[] } = {},
): Promise<Map<number, Tally>> {
  const only = new Set(ideaIds);
  const shards = [...new Set(ideaIds.map((id) => keys.tallyShardOf(id)))];
  const tallies = new Map<number, Tally>();
  if (shards.length === 0) return tallies;
  const counters = options.opinions ? [...only].flatMap((id) => options.opinions!.map((o) => counter(id, o))) : [];
  const projection =
    counters.length > 0 && counters.length <= MAX_PROJECTED_COUNTERS
      ? {
          expression: counters.map((_, i) => `#c${i}`).join(', '),
          names: Object.fromEntries(counters.map((name, i) => [`#c${i}`, name])),
        }
      : undefined;
  const items =
    shards.length === 1
      ? [
          (
            await doc.send(
              new GetCommand({
                TableName: TABLE,
                Key: keys.tallyShard(siteId, shards[0]!),
                ...(projection ? { ProjectionExpression: projection.expression, ExpressionAttributeNames: projection.names } : {}),
              }),
            )
          ).Item ?? {},
        ]
      : await batchGet<Record<string, unknown>>(
          shards.map((s) => keys.tallyShard(siteId, s)),
          projection ? { projection } : {},
        );
  for (const item of items) parseShard(item, tallies, only);
  return tallies;
}

/**
 * Removes what is left of an idea in its shard (marker and counters). Call after the idea's votes have
 * been removed from every ballot, as the last step of deleting the idea.
 */
export async function unregisterIdea(siteId: number, ideaId: number): Promise<void> {
  const key = keys.tallyShard(siteId, keys.tallyShardOf(ideaId));
  // Consistent: a counter missed by a stale read would stay behind and make the idea look votable.
  const item = (await doc.send(new GetCommand({ TableName: TABLE, Key: key, ConsistentRead: true }))).Item ?? {};
  const names = Object.keys(item).filter((n) => n === marker(ideaId) || COUNTER_NAME.exec(n)?.[1] === String(ideaId));
  if (names.length === 0) return;
  const aliases = Object.fromEntries(names.map((n, i) => [`#r${i}`, n]));
  await doc.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: key,
      UpdateExpression: `REMOVE ${Object.keys(aliases).join(', ')}`,
      ExpressionAttributeNames: aliases,
    }),
  );
}

/** `yes`/`no` counts as shown on idea records. */
export const yesNo = (tally: Tally | undefined) => ({ yes: tally?.yes ?? 0, no: tally?.no ?? 0 });
