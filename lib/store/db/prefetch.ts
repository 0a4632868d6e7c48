/**
 * Request-scoped prefetch: everything a call will read by key, whose keys are known before
 * it starts (its site, its caller, what its route declares: a vote round's ballot, stored answer and
 * ideas; an idea page's idea and tally; the caller's ballot for `includeUserVote`), is read with ONE
 * BatchGet. The store's by-key reads then take their item from here instead of sending a request.
 *
 * Rules that keep this correct:
 * - Take-once: an item is served once, so a re-read (a retried round re-planning after a conflict)
 *   goes to DynamoDB and sees the newer state.
 * - A read that must be strongly consistent takes only what was read consistently.
 * - A key that was asked for and is absent is remembered as absent (that is an answer too).
 * - Outside a request scope (scripts, jobs, tests calling the store) nothing is prefetched and every
 *   read goes to DynamoDB as before.
 *
 * A create's new id can be reserved in the same round trip (`newId`, lib/store/db/counters.ts): the
 * counter's ADD goes out beside the BatchGet instead of after it, and the create takes that id.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '#lib/store/db/batch';
import { doc, TABLE } from '#lib/store/db/client';
import type { Key } from '#lib/store/db/keys';
import type { CounterType } from '#lib/store/db/counters';

/** Keys to read ahead, as the store's access patterns plan them (callers never build keys). */
export interface ReadPlan {
  keys: readonly Key[];
  /** Strongly consistent (twice the read units): for a conditional write planned from these items. */
  consistent: boolean;
  /**
   * The id the call will create, reserved beside the reads (a create's counter ADD, one round trip
   * sooner; lib/store/db/counters.ts `reserveIdAhead`). Only for a call that will most likely create: a
   * refused one leaves a gap in the ids.
   */
  newId?: IdReservation | undefined;
}

/**
 * The plan of a by-key read, from the same key function the read uses: the read and its plan are one
 * declaration, so a plan cannot ask for other keys than the read it serves takes. Attached to the
 * store's plannable reads as `.plan` (`getIdea.plan(siteId, ideaId)`).
 */
export const planOf =
  <A extends unknown[]>(keysOf: (...args: A) => readonly Key[]) =>
  (...args: A): ReadPlan => ({ keys: keysOf(...args), consistent: false });

/** A read's plan taken strongly consistently (for a conditional write planned from what it reads). */
export const consistently = (plan: ReadPlan): ReadPlan => ({ ...plan, consistent: true });

/** Several plans as one: their keys together, consistent when any asks for it, the first id reservation. */
export function joinPlans(...plans: readonly (ReadPlan | undefined)[]): ReadPlan | undefined {
  const given = plans.filter((plan): plan is ReadPlan => plan !== undefined);
  if (given.length === 0) return undefined;
  return {
    keys: given.flatMap((plan) => plan.keys),
    consistent: given.some((plan) => plan.consistent),
    newId: given.find((plan) => plan.newId)?.newId,
  };
}

/** A counter type and the ADD that reserves one id of it (lib/store/db/counters.ts, which takes it back). */
export interface IdReservation {
  type: CounterType;
  reserve: () => Promise<number>;
}

interface Entry {
  item: Record<string, unknown> | undefined;
  consistent: boolean;
}

interface Scope {
  items: Map<string, Entry>;
  /** Ids reserved ahead (`newId`) by counter type, each taken once; or why the reservation failed. */
  ids: Map<CounterType, { id: number } | { failed: unknown }>;
}

const requestScope = new AsyncLocalStorage<Scope>();
const idOf = (key: Key) => `${key.PK}\u0000${key.SK}`;

/** Runs one request with its own (empty) prefetch scope. */
export const withPrefetchScope = <T>(run: () => Promise<T>): Promise<T> => requestScope.run({ items: new Map(), ids: new Map() }, run);

/**
 * Reads every key of the plans with one BatchGet (one per 100 keys), consistently when any plan asks
 * for it, into the current request's scope, and beside it reserves the ids the plans ask for (one
 * per counter type). A no-op outside a scope.
 */
export async function prefetch(plans: readonly (ReadPlan | undefined)[]): Promise<void> {
  const scope = requestScope.getStore();
  const wanted = plans.filter((plan): plan is ReadPlan => plan !== undefined);
  if (!scope) return;
  const reservations = [...new Map(wanted.flatMap((plan) => (plan.newId ? [[plan.newId.type, plan.newId] as const] : []))).values()];
  await Promise.all([readAhead(scope, wanted), ...reservations.map((reservation) => reserveAhead(scope, reservation))]);
}

/**
 * A failed reservation is kept as its error, not thrown here: a request refused anyway answers its
 * refusal, and a create that goes on fails with that error (lib/store/db/counters.ts nextId) rather than
 * asking the counter again. The ADD already ran the store's whole retry policy: asking again would
 * double the attempts on a throttled counter item (measured).
 */
async function reserveAhead(scope: Scope, { type, reserve }: IdReservation): Promise<void> {
  try {
    scope.ids.set(type, { id: await reserve() });
  } catch (failed) {
    scope.ids.set(type, { failed });
  }
}

async function readAhead(scope: Scope, wanted: readonly ReadPlan[]): Promise<void> {
  const keyList = wanted.flatMap((plan) => plan.keys);
  if (keyList.length === 0) return;
  const consistent = wanted.some((plan) => plan.consistent);
  const unique = [...new Map(keyList.map((key) => [idOf(key), key])).values()];
  // One key (a site-scoped call by a service token or nobody) is a plain GetItem.
  const items =
    unique.length === 1
      ? [(await doc.send(new GetCommand({ TableName: TABLE, Key: unique[0], ...(consistent ? { ConsistentRead: true } : {}) }))).Item].filter(
          (item): item is Record<string, unknown> => item !== undefined,
        )
      : await batchGet<Record<string, unknown>>(unique, consistent ? { consistentRead: true } : {});
  for (const key of keyList) scope.items.set(idOf(key), { item: undefined, consistent });
  for (const item of items) scope.items.set(idOf(item as unknown as Key), { item, consistent });
}

/**
 * The id of `type` this request reserved ahead, taken out of the scope; undefined when there is none.
 * Throws the reservation's error when it failed.
 */
export function takeReservedId(type: CounterType): number | undefined {
  const ids = requestScope.getStore()?.ids;
  const reserved = ids?.get(type);
  ids?.delete(type);
  if (reserved && 'failed' in reserved) throw reserved.failed;
  return reserved?.id;
}

/**
 * The item of `key` if this request prefetched it (`{ item: undefined }`: it does not exist), taken
 * out of the scope; `undefined` when it was not prefetched (or not consistently, for a consistent
 * read): then the caller reads it itself.
 */
export function takePrefetched(key: Key, options: { consistent?: boolean | undefined } = {}): { item: Record<string, unknown> | undefined } | undefined {
  const scope = requestScope.getStore()?.items;
  const entry = scope?.get(idOf(key));
  if (!scope || !entry || (options.consistent && !entry.consistent)) return undefined;
  scope.delete(idOf(key));
  return { item: entry.item };
}
