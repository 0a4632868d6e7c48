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
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '#lib/store/db/batch';
import { doc, TABLE } from '#lib/store/db/client';
import type { Key } from '#lib/store/db/keys';

/** Keys to read ahead, as the store's access patterns plan them (callers never build keys). */
export interface ReadPlan {
  keys: readonly Key[];
  /** Strongly consistent (twice the read units): for a conditional write planned from these items. */
  consistent: boolean;
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

/** Several plans as one: their keys together, consistent when any asks for it. */
export function joinPlans(...plans: readonly (ReadPlan | undefined)[]): ReadPlan | undefined {
  const given = plans.filter((plan): plan is ReadPlan => plan !== undefined);
  if (given.length === 0) return undefined;
  return {
    keys: given.flatMap((plan) => plan.keys),
    consistent: given.some((plan) => plan.consistent),
  };
}

interface Entry {
  item: Record<string, unknown> | undefined;
  consistent: boolean;
}

interface Scope {
  items: Map<string, Entry>;
}

const requestScope = new AsyncLocalStorage<Scope>();
const idOf = (key: Key) => `${key.PK}\u0000${key.SK}`;

/** Runs one request with its own (empty) prefetch scope. */
export const withPrefetchScope = <T>(run: () => Promise<T>): Promise<T> => requestScope.run({ items: new Map() }, run);

/**
 * Reads every key of the plans with one BatchGet (one per 100 keys), consistently when any plan asks
 * for it, into the current request's scope. A no-op outside a scope.
 */
export async function prefetch(plans: readonly (ReadPlan | undefined)[]): Promise<void> {
  const scope = requestScope.getStore();
  const wanted = plans.filter((plan): plan is ReadPlan => plan !== undefined);
  if (!scope) return;
  await readAhead(scope, wanted);
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
