/**
 * Migration access to ideas and ballots stored before discovery (ideas without
 * `indexKeys`), the vote record (ballots without `hash`) and per-idea tallies (from
 * the site's tally shards). One Query per page; the
 * writes are the caller's (ideas: `replaceIdea`) or one conditional Update per ballot.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { idFromSk, sitePk, type Key } from '#lib/store/db/keys';
import { ballotKeys } from '#lib/store/ballots/keys';
import { contentKeys } from '#lib/store/content/keys';
import { argumentKeys } from '#lib/store/arguments/keys';
import { ideaKeys, isIdeaTallySk } from '#lib/store/ideas/keys';
import { queryAll, queryCount } from '#lib/store/db/query';
import { batchDelete } from '#lib/store/db/batch';
import { counterName, rankOf, type Tally, type TallyCopies } from '#lib/store/ideas/tallies';
import { INDEX_KEYS } from '#lib/store/ideas/index-items';
import type { BallotItem, BallotSeal } from '#lib/store/ballots/ballots';
import { ballotCodec } from '#lib/store/ballots/codec';
import type { MalformedItem } from '#lib/store/db/codec';
import { conditionFailed } from '#lib/store/db/failures';
import { update, withCondition } from '#lib/store/db/update';
import { logEntryPut } from '#lib/store/vote-log/log';
import { transact } from '#lib/store/db/transact';

interface MigrationPage<T> {
  items: T[];
  /** Where the next page starts; undefined after the last page. */
  next: Record<string, unknown> | undefined;
}

async function pageOf(siteId: number, prefix: string, start: Record<string, unknown> | undefined, pageSize: number) {
  return doc.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': prefix },
      ExclusiveStartKey: start,
      Limit: pageSize,
    }),
  );
}

/** One page of a site's ideas (one Query): the ids of those without index items. */
export async function ideasWithoutIndexPage(siteId: number, start: Record<string, unknown> | undefined, pageSize = 100): Promise<MigrationPage<number>> {
  const out = await pageOf(siteId, contentKeys.ideaPrefix, start, pageSize);
  // The range also holds each idea's tally item (`IDEA#<id>#TALLY`), which has no index of its own.
  const items = (out.Items ?? [])
    .filter((raw) => !isIdeaTallySk(String(raw['SK'])) && raw[INDEX_KEYS] === undefined)
    .map((raw) => idFromSk(String(raw['SK'])));
  return { items, next: out.LastEvaluatedKey };
}

/** One page of a site's ballots (one Query): those without a seal. */
export async function unsealedBallotsPage(
  siteId: number,
  start: Record<string, unknown> | undefined,
  pageSize = 100,
): Promise<MigrationPage<BallotItem> & { misplaced: string[]; malformed: MalformedItem[] }> {
  const out = await pageOf(siteId, ballotKeys.ballotPrefix, start, pageSize);
  const unsealed = (out.Items ?? []).filter((raw) => raw['hash'] === undefined);
  const placed = (raw: Record<string, unknown>) => ballotKeys.isBallotOf(siteId, raw['userId'], String(raw['SK']));
  // An item under a key that is not its user's ballot key is no ballot: never sealed, listed apart.
  // Nor is one that does not match the ballot's schema: sealing it would make it part of the record.
  const checked = unsealed.filter(placed).map(ballotCodec.check);
  return {
    items: checked.flatMap((c) => ('record' in c ? [c.record] : [])),
    misplaced: unsealed.filter((raw) => !placed(raw)).map((raw) => String(raw['SK'])),
    malformed: checked.flatMap((c) => ('malformed' in c ? [c.malformed] : [])),
    next: out.LastEvaluatedKey,
  };
}

/** Writes a ballot's seal, and its first vote log entry, while it still has the version read and no seal; false when it changed. */
export async function sealStoredBallot(siteId: number, userId: number, version: number, seal: BallotSeal): Promise<boolean> {
  try {
    await transact([
      {
        Update: {
          TableName: TABLE,
          Key: ballotKeys.ballot(siteId, userId),
          ...withCondition(update({ set: { hash: seal.hash, prevHash: seal.prevHash } }), {
            expression: 'attribute_exists(PK) AND attribute_not_exists(#hash) AND version = :v',
            names: { '#hash': 'hash' },
            values: { ':v': version },
          }),
        },
      },
      logEntryPut(seal.entry),
    ]);
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}

/**
 * Tallies stored before ten shard items per site (`SK = TALLY#<n>`), holding per
 * idea a marker `i<id>` (votable) and counters `v<id>_<opinion>`. Read whole (one Query): at most ten
 * items, each under 400 KB.
 */
export async function legacyTallies(siteId: number): Promise<{ shardKeys: Key[]; tallies: Map<number, Tally> }> {
  const shards = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': ideaKeys.legacyTallyShardPrefix },
    ConsistentRead: true,
  });
  const tallies = new Map<number, Tally>();
  for (const shard of shards) {
    for (const [name, value] of Object.entries(shard)) {
      const marker = /^i([0-9]+)$/.exec(name);
      if (marker) {
        if (!tallies.has(Number(marker[1]))) tallies.set(Number(marker[1]), Object.create(null) as Tally);
        continue;
      }
      const counter = /^v([0-9]+)_(.+)$/s.exec(name);
      if (!counter || typeof value !== 'number') continue;
      const tally = tallies.get(Number(counter[1])) ?? (Object.create(null) as Tally);
      tally[counter[2]!] = value;
      tallies.set(Number(counter[1]), tally);
    }
  }
  // Counters of ideas without a marker belong to ideas deleted before the migration: not carried over.
  const votable = new Set(shards.flatMap((shard) => Object.keys(shard).flatMap((name) => /^i([0-9]+)$/.exec(name)?.[1] ?? [])).map(Number));
  for (const id of [...tallies.keys()]) if (!votable.has(id)) tallies.delete(id);
  return { shardKeys: shards.map((shard) => ({ PK: String(shard['PK']), SK: String(shard['SK']) })), tallies };
}

/**
 * Adds an idea's legacy counts to its tally item, once (`legacyCounted` marks it). ADD, not a Put: an
 * idea edited or voted on after the deploy already has a tally item (its copies, the votes counted
 * since), and the two parts sum to the exact count. The rank gets the legacy `yes` and the id's
 * tie-break. False when it was counted before.
 */
export async function putMigratedTally(siteId: number, ideaId: number, tally: Tally, copies: TallyCopies): Promise<boolean> {
  const counts = Object.fromEntries(Object.entries(tally).map(([opinion, count]) => [counterName(opinion), count]));
  const changes = update({
    set: { legacyCounted: true, tallyOf: ideaId, GSI3PK: ideaKeys.ideasByVotes(siteId).GSI3PK },
    setIfAbsent: { budget: copies.budget, theme: copies.theme, author: copies.author },
    add: { ...counts, GSI3SK: rankOf(tally['yes'] ?? 0, ideaId) },
  });
  try {
    await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: ideaKeys.ideaTally(siteId, ideaId),
        ...withCondition(changes, { expression: 'attribute_not_exists(#done) AND attribute_not_exists(#gone)', names: { '#done': 'legacyCounted', '#gone': 'gone' } }),
      }),
    );
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}

/** Deletes the legacy shards once every idea has its own tally item. */
export const deleteLegacyShards = (shardKeys: Key[]) => batchDelete(shardKeys);

/** One page of a site's idea tally items (one Query): each idea's id and its `args` as stored (undefined: never set). */
export async function tallyArgsPage(
  siteId: number,
  start: Record<string, unknown> | undefined,
  pageSize = 100,
): Promise<MigrationPage<{ ideaId: number; args: number | undefined }>> {
  const out = await pageOf(siteId, contentKeys.ideaPrefix, start, pageSize);
  const items = (out.Items ?? [])
    .filter((raw) => isIdeaTallySk(String(raw['SK'])) && typeof raw['tallyOf'] === 'number')
    .map((raw) => ({ ideaId: raw['tallyOf'] as number, args: typeof raw['args'] === 'number' ? raw['args'] : undefined }));
  return { items, next: out.LastEvaluatedKey };
}

/** How many arguments an idea has (replies included): Query COUNT pages, consistent. */
export const countArguments = (siteId: number, ideaId: number): Promise<number> =>
  queryCount({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': argumentKeys.argumentsOfIdeaPrefix(ideaId) },
    ConsistentRead: true,
  });

/** Sets an idea's `args` while it still holds the value read (undefined: absent); false when it moved. */
export async function setTallyArgs(siteId: number, ideaId: number, count: number, read: number | undefined): Promise<boolean> {
  const condition =
    read === undefined
      ? { expression: 'attribute_exists(PK) AND attribute_not_exists(#args)', names: { '#args': 'args' }, values: {} }
      : { expression: 'attribute_exists(PK) AND #args = :read', names: { '#args': 'args' }, values: { ':read': read } };
  try {
    await doc.send(new UpdateCommand({ TableName: TABLE, Key: ideaKeys.ideaTally(siteId, ideaId), ...withCondition(update({ set: { args: count } }), condition) }));
    return true;
  } catch (err) {
    if (conditionFailed(err)) return false;
    throw err;
  }
}
