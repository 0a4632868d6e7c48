/**
 * Arguments: `PK=SITE#<s>, SK=ARG#<ideaId>#<argId>` (an idea's arguments are one contiguous SK range,
 * in creation order), GSI1 `USER#<u> / ARG#<a>` for the author. Argument votes live on the argument
 * item itself: `voterIds` (a number set: one vote per user) and `yes` (its size), both changed by one
 * conditional UpdateItem per toggle, so the count is exact under concurrency without a transaction.
 * See docs/data-model.md for the access-pattern rows.
 */
import { UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { sitePk, type Key } from '#lib/store/db/keys';
import { argumentKeys } from '#lib/store/arguments/keys';
import { contentKeys } from '#lib/store/content/keys';
import { userKeys } from '#lib/store/users/keys';
import { getItem } from '#lib/store/db/read';
import { planOf } from '#lib/store/db/prefetch';
import { queryAll, queryPage, type Page, type PageRequest } from '#lib/store/db/query';
import { DELETING } from '#lib/store/content/content-items';
import { tallyArgsItem } from '#lib/store/ideas/tallies';
import { conditionFailed, failedConditions } from '#lib/store/db/failures';
import { update, updateOf, withCondition } from '#lib/store/db/update';
import { recordReader } from '#lib/store/db/codec';
import { type StoredArgument } from '#schemas/stored/argument';
import { storedContentRef } from '#schemas/stored/content-item';
import { argumentCodec } from '#lib/store/arguments/codec';
import { transact, transactFailedAt } from '#lib/store/db/transact';
import { IdTaken } from '#lib/store/db/ids';

/** An argument as stored (the record of CONTRACT is built from it by lib/arguments/record.ts). */
export type ArgumentItem = StoredArgument;

const strip = argumentCodec.fromItem;

const isConditionFailure = conditionFailed;

/** The old item DynamoDB hands back on a failed condition (`ReturnValuesOnConditionCheckFailure`), raw. */
const oldItemOf = (err: unknown) => (err as { Item?: Record<string, { NS?: string[]; N?: string }> }).Item;

/** The few idea fields arguments need; undefined when the idea is not on the site. */
export interface IdeaRef {
  id: number;
  userId: number | null;
  status?: string;
}

const readIdeaRef = recordReader('idea (as arguments see it)', storedContentRef);

/** The idea an argument belongs to (from the request's first read when planned: lib/arguments/read-plans.ts). */
const keysOfIdeaRef = (siteId: number, ideaId: number) => [contentKeys.idea(siteId, ideaId)];

/**
 * The idea an argument belongs to (`.plan`: read ahead by the argument routes, lib/arguments/read-plans.ts;
 * read ahead, it comes whole, read here, projected to the fields arguments check).
 */
export const getIdeaRef = Object.assign(
  async (siteId: number, ideaId: number): Promise<IdeaRef | undefined> => {
    const [key] = keysOfIdeaRef(siteId, ideaId);
    const item = await getItem(key!, {
      projection: { expression: 'id, userId, #status, #deleting', names: { '#status': 'status', '#deleting': DELETING } },
    });
    // An idea being deleted is gone for arguments already.
    if (!item || item[DELETING] !== undefined) return undefined;
    return readIdeaRef(item);
  },
  { plan: planOf(keysOfIdeaRef) },
);

const keysOfArgument = (siteId: number, ideaId: number, argumentId: number) => [argumentKeys.argument(siteId, ideaId, argumentId)];

/** One argument (`.plan`: read ahead by the argument routes). */
export const getArgument = Object.assign(
  async (siteId: number, ideaId: number, argumentId: number): Promise<ArgumentItem | undefined> => {
    const [key] = keysOfArgument(siteId, ideaId, argumentId);
    const item = await getItem(key!);
    return item ? strip(item) : undefined;
  },
  { plan: planOf(keysOfArgument) },
);

/**
 * Writes a new argument in one transaction with checks that its idea (and, for a reply, its parent)
 * still exist, so an argument can never land on an idea or thread deleted meanwhile (the deletes sweep
 * the arguments after removing the idea / parent).
 */
export async function putNewArgument(item: ArgumentItem): Promise<'ok' | 'idea-missing' | 'parent-missing'> {
  const checks: { key: Key; missing: 'idea-missing' | 'parent-missing'; condition: string }[] = [
    { key: contentKeys.idea(item.siteId, item.ideaId), missing: 'idea-missing', condition: `attribute_exists(PK) AND attribute_not_exists(${DELETING})` },
  ];
  if (item.parentId != null) {
    checks.push({ key: argumentKeys.argument(item.siteId, item.ideaId, item.parentId), missing: 'parent-missing', condition: 'attribute_exists(PK)' });
  }
  try {
    await transact([
      ...checks.map((c) => ({
        ConditionCheck: { TableName: TABLE, Key: c.key, ConditionExpression: c.condition },
      })),
      {
        Put: {
          TableName: TABLE,
          Item: argumentCodec.toItem(item),
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      // The idea's argument count, exact with the argument (lib/store/ideas/tallies.ts `args`).
      tallyArgsItem(item.siteId, item.ideaId, 1),
    ]);
    return 'ok';
  } catch (err) {
    const reasons = failedConditions(err);
    if (!reasons) throw err;
    const failed = checks.findIndex((_, i) => reasons[i]?.Code === 'ConditionalCheckFailed');
    if (failed >= 0) return checks[failed]!.missing;
    if (reasons[checks.length]?.Code === 'ConditionalCheckFailed') throw new IdTaken(item.id);
    throw err;
  }
}

interface ArgumentFilter {
  sentiment?: 'for' | 'against' | undefined;
}

function listInput(prefix: string, pk: string, filter: ArgumentFilter): Omit<QueryCommandInput, 'TableName'> {
  const values: Record<string, unknown> = { ':pk': pk, ':prefix': prefix };
  const input: Omit<QueryCommandInput, 'TableName'> = {
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: values,
  };
  if (filter.sentiment) {
    // A filter runs after Limit, so a filtered page may hold fewer records (CONTRACT allows it).
    input.FilterExpression = '#sentiment = :sentiment';
    input.ExpressionAttributeNames = { '#sentiment': 'sentiment' };
    values[':sentiment'] = filter.sentiment;
  }
  return input;
}

async function listUnder(siteId: number, prefix: string, page: PageRequest, filter: ArgumentFilter): Promise<Page<ArgumentItem>> {
  const pk = sitePk(siteId);
  const result = await queryPage<Record<string, unknown>>(listInput(prefix, pk, filter), page, {
    values: { PK: pk },
    skPrefix: prefix,
  }, { siteId, list: 'arguments', options: { sentiment: filter.sentiment } });
  return { items: result.items.map(strip), nextCursor: result.nextCursor };
}

/** One idea's arguments (replies included), in creation order: one Query page. */
export const listArgumentsOfIdea = (siteId: number, ideaId: number, page: PageRequest, filter: ArgumentFilter = {}) =>
  listUnder(siteId, argumentKeys.argumentsOfIdeaPrefix(ideaId), page, filter);

/**
 * The replies to some of an idea's arguments (`includeReactionsOnReactions`): a reply comes after its
 * parent in the idea's SK range, so one range Query from the first parent to the end of the idea's
 * arguments holds them all (one request per MB read, whatever the number of parents).
 */
export async function repliesOf(siteId: number, ideaId: number, parentIds: readonly number[]): Promise<ArgumentItem[]> {
  if (parentIds.length === 0) return [];
  const first = Math.min(...parentIds);
  const items = await queryAll<Record<string, unknown>>({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    FilterExpression: 'parentId IN (' + parentIds.map((_, i) => `:p${i}`).join(', ') + ')',
    ExpressionAttributeValues: {
      ':pk': sitePk(siteId),
      ':from': argumentKeys.argument(siteId, ideaId, first).SK,
      ':to': `${argumentKeys.argumentsOfIdeaPrefix(ideaId)}~`,
      ...Object.fromEntries(parentIds.map((id, i) => [`:p${i}`, id])),
    },
  });
  return items.map(strip);
}

/** Every argument of a site, by idea and then creation order: one Query page. */
export const listArgumentsOfSite = (siteId: number, page: PageRequest, filter: ArgumentFilter = {}) =>
  listUnder(siteId, argumentKeys.argumentPrefix, page, filter);

interface ArgumentChanges {
  description?: string | undefined;
  sentiment?: 'for' | 'against' | undefined;
  userId?: number | undefined;
  updatedAt: string;
}

/** Only when the item still exists and, with `ownerId`, still belongs to that user. */
function guardOf(ownerId: number | undefined) {
  if (ownerId === undefined) return { expression: 'attribute_exists(PK)', names: {}, values: {} };
  return {
    expression: 'attribute_exists(PK) AND #owner = :owner',
    names: { '#owner': 'userId' } as Record<string, string>,
    values: { ':owner': ownerId } as Record<string, unknown>,
  };
}

type ArgumentWriteResult<T> = { ok: true; value: T } | { ok: false; reason: 'missing' | 'not-owner' };

export async function updateArgument(
  siteId: number,
  ideaId: number,
  argumentId: number,
  changes: ArgumentChanges,
  guard: { ownerId?: number | undefined } = {},
): Promise<ArgumentWriteResult<ArgumentItem>> {
  const fields: Record<string, unknown> = { ...changes };
  if (changes.userId !== undefined) Object.assign(fields, userKeys.ownedBy(changes.userId, 'ARG', argumentId));
  try {
    const out = await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: argumentKeys.argument(siteId, ideaId, argumentId),
        ...withCondition(updateOf(fields), guardOf(guard.ownerId)),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { ok: true, value: strip(out.Attributes ?? {}) };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    return { ok: false, reason: oldItemOf(err) ? 'not-owner' : 'missing' };
  }
}

/**
 * Deletes one argument (guarded like an update) and counts it off its idea's arguments, in one
 * transaction. Its replies are swept by `deleteReplies` afterwards.
 */
export async function deleteArgument(
  siteId: number,
  ideaId: number,
  argumentId: number,
  guard: { ownerId?: number | undefined } = {},
): Promise<ArgumentWriteResult<undefined>> {
  const condition = guardOf(guard.ownerId);
  try {
    await transact([
      {
        Delete: {
          TableName: TABLE,
          Key: argumentKeys.argument(siteId, ideaId, argumentId),
          ConditionExpression: condition.expression,
          ...(guard.ownerId !== undefined
            ? { ExpressionAttributeNames: condition.names, ExpressionAttributeValues: condition.values }
            : {}), // DynamoDB refuses empty name/value maps
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      tallyArgsItem(siteId, ideaId, -1),
    ]);
    return { ok: true, value: undefined };
  } catch (err) {
    const reasons = failedConditions(err);
    if (!reasons || reasons[0]?.Code !== 'ConditionalCheckFailed') throw err;
    return { ok: false, reason: reasons[0]?.Item ? 'not-owner' : 'missing' };
  }
}

/**
 * Removes the replies of a (just deleted) argument, each with its count off the idea in one
 * transaction (a reply already gone is skipped, so nothing is counted off twice). Runs after the
 * parent is gone, and a new reply's transaction checks that its parent exists, so no reply can slip
 * in behind the sweep. Consistent reads, so a reply written just before the parent's delete is seen.
 * Cost is proportional to the replies (a cascade); reads and votes stay constant.
 */
export async function deleteReplies(siteId: number, ideaId: number, parentId: number): Promise<number> {
  const replies = await queryAll<{ PK: string; SK: string }>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    FilterExpression: 'parentId = :parent',
    ProjectionExpression: 'PK, SK',
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': argumentKeys.argumentsOfIdeaPrefix(ideaId), ':parent': parentId },
    ConsistentRead: true,
  });
  let removed = 0;
  for (const reply of replies) {
    const failed = await transactFailedAt([
      { Delete: { TableName: TABLE, Key: { PK: reply.PK, SK: reply.SK }, ConditionExpression: 'attribute_exists(PK)' } },
      tallyArgsItem(siteId, ideaId, -1),
    ]);
    if (failed.length === 0) removed++;
  }
  return removed;
}


/** What one attempt at toggling a vote did. */
type ArgumentVoteToggle =
  | { kind: 'done'; item: ArgumentItem }
  | { kind: 'missing' }
  /** The user's vote was not as assumed (a concurrent toggle by the same user flipped it): `hasVoted` is how it is now. */
  | { kind: 'other-way'; hasVoted: boolean };

/**
 * One attempt at toggling `userId`'s vote on an argument, as one conditional UpdateItem: add the user
 * to `voterIds` and count +1 only if they are not in it (`hasVoted` false), or remove them and count
 * -1 only if they are. When the condition fails, the item DynamoDB returns tells how the vote stands
 * now, so the caller's next attempt takes the other way. There is no unconditioned read-modify-write,
 * so `yes` always equals the size of `voterIds`.
 */
export async function toggleArgumentVoteOnce(
  siteId: number,
  ideaId: number,
  argumentId: number,
  userId: number,
  hasVoted: boolean,
): Promise<ArgumentVoteToggle> {
  const voter = new Set([userId]);
  const change = hasVoted ? update({ deleteFrom: { voterIds: voter }, add: { yes: -1 } }) : update({ add: { voterIds: voter, yes: 1 } });
  try {
    const out = await doc.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: argumentKeys.argument(siteId, ideaId, argumentId),
        ...withCondition(change, {
          expression: hasVoted ? 'attribute_exists(PK) AND contains(voterIds, :uid)' : 'attribute_exists(PK) AND NOT contains(voterIds, :uid)',
          values: { ':uid': userId },
        }),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { kind: 'done', item: strip(out.Attributes ?? {}) };
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const old = oldItemOf(err);
    if (!old) return { kind: 'missing' };
    return { kind: 'other-way', hasVoted: old.voterIds?.NS?.includes(String(userId)) ?? false };
  }
}
