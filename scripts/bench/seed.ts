/**
 * Fast bench data, written the way lib/store writes it (same key builders, same item shapes) but
 * in bulk: BatchWrite (25 items per request, a few requests in flight) for ideas, arguments,
 * articles and users, and the ideas' tally markers set per shard with a few UpdateItems instead of
 * one transaction per idea. A site of 10,000 ideas is seeded in seconds, not minutes.
 */
import { BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { argumentKeys } from '#lib/store/arguments/keys';
import { contentKeys } from '#lib/store/content/keys';
import { userKeys } from '#lib/store/users/keys';
import { claimNewUserId } from '#lib/store/users/users';
import { newIds } from '#lib/store/db/ids';
import { newTallyItem } from '#lib/store/ideas/tallies';
import { tallyCopiesOf } from '#lib/store/ideas/ideas';
import type { ContentItem } from '#lib/store/content/content-items';
import type { ArgumentItem } from '#lib/arguments/record';
import type { Role } from '#lib/auth/roles';
import { issueToken } from '#lib/auth/jwt';
import { ideaIndexSpec } from '#lib/discovery/index-spec';
import { INDEX_KEYS, planIndex } from '#lib/store/ideas/index-items';
import { putNewTag } from '#lib/store/tags/tags';

type WriteRequests = NonNullable<BatchWriteCommandInput['RequestItems']>[string];

const IN_FLIGHT = 4;

/** Puts items 25 per BatchWrite, IN_FLIGHT requests at a time, retrying what DynamoDB leaves unprocessed. */
export async function batchPut(items: Record<string, unknown>[]): Promise<void> {
  const chunks: WriteRequests[] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })));
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      let pending: WriteRequests | undefined = chunks[next++];
      for (let round = 0; pending && pending.length > 0; round++) {
        if (round > 8) throw new Error('seed: BatchWrite left items unprocessed');
        if (round > 0) await new Promise((r) => setTimeout(r, 25 * 2 ** round));
        const out = await doc.send(new BatchWriteCommand({ RequestItems: { [TABLE]: pending } }));
        pending = out.UnprocessedItems?.[TABLE];
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

const range = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

export interface SeededUser {
  id: number;
  token: string;
}

/** Site users (as tests/support/fixtures.ts stores them) with a JWT each. */
export async function seedUsers(siteId: number, count: number, role: Role = 'member'): Promise<SeededUser[]> {
  const ids = await Promise.all(Array.from({ length: count }, () => claimNewUserId()));
  const now = new Date().toISOString();
  await batchPut(
    ids.map((id) => ({
      ...userKeys.user(siteId, id),
      id,
      siteId,
      role,
      email: `user${id}@example.org`,
      firstName: 'Bench',
      lastName: `User ${id}`,
      nickName: `bench${id}`,
      extraData: {},
      createdAt: now,
      updatedAt: now,
    })),
  );
  return Promise.all(ids.map(async (id) => ({ id, token: await issueToken({ userId: id, siteId }) })));
}

/** Discovery: the themes bench ideas are about (each idea names one, so a theme word is 1 in 20). */
const BENCH_THEMES = ['speeltuin', 'fietspad', 'bankje', 'boom', 'lantaarn', 'zebrapad', 'moestuin', 'terras', 'waterpunt', 'bloemen',
  'parkeren', 'skatebaan', 'hondenveld', 'kunstwerk', 'picknick', 'fontein', 'bibliotheek', 'markt', 'sportveld', 'schaduw'] as const;
/** Bench ideas lie scattered (a low-discrepancy sequence) over a 10 x 10 km city, so density grows with the site. */
const BENCH_AREA = { lat: 52.30, lng: 4.80, dLat: 0.09, dLng: 0.15 };
const placeOf = (n: number) => ({
  lat: Math.round((BENCH_AREA.lat + ((n * 0.6180339887) % 1) * BENCH_AREA.dLat) * 1e6) / 1e6,
  lng: Math.round((BENCH_AREA.lng + ((n * 0.7548776662) % 1) * BENCH_AREA.dLng) * 1e6) / 1e6,
});

/** Ten tags on the site (every idea carries one: a tag filter matches 1 idea in 10). */
export async function seedTags(siteId: number, count = 10): Promise<number[]> {
  const first = newIds(count)[0]!;
  const now = new Date().toISOString();
  const ids = range(first, count);
  for (const id of ids) {
    const name = `bench tag ${id}`;
    if ((await putNewTag({ id, siteId, name, group: null, createdAt: now, updatedAt: now, nameKey: { group: '', name } })) !== 'ok') throw new Error('seed: tag');
  }
  return ids;
}

/** A content item as lib/store/content/content-items.ts stores it (`storedItem`): keys, owner index, record. */
function contentItem(kind: 'IDEA' | 'ARTICLE', siteId: number, id: number, userId: number | null, now: string, n = 0, tagIds: readonly number[] = []) {
  const item: ContentItem = {
    id,
    siteId,
    userId,
    title: `${kind === 'IDEA' ? 'Idea' : 'Article'} number ${id}`,
    summary: `A summary about a ${BENCH_THEMES[n % BENCH_THEMES.length]}, long enough to pass the default rules`,
    description: 'A description of some length, as real ideas have. '.repeat(6),
    status: 'OPEN',
    budget: null,
    extraData: { images: [`https://img.example.org/${id}.png`] },
    createdAt: now,
    updatedAt: now,
    version: 1,
    ...(kind === 'IDEA' && tagIds.length > 0 ? { tags: [tagIds[n % tagIds.length]!], location: placeOf(n) } : {}),
  };
  return {
    ...(kind === 'IDEA' ? contentKeys.idea(siteId, id) : contentKeys.article(siteId, id)),
    ...(userId != null ? userKeys.ownedBy(userId, kind, id) : {}),
    ...item,
  };
}

/**
 * Ideas with their tally items (what `putNewIdea` writes in one transaction per idea), all by
 * BatchWrite. Authors cycle through `authorIds`. Returns the ids in creation order.
 */
export async function seedIdeas(siteId: number, count: number, authorIds: readonly number[], tagIds: readonly number[] = []): Promise<number[]> {
  const ids = newIds(count);
  const now = new Date().toISOString();
  const items = ids.map((id, i) => contentItem('IDEA', siteId, id, authorIds.length ? authorIds[i % authorIds.length]! : null, now, i, tagIds));
  // Discovery: each idea's index items, as its create transaction writes them.
  const indexItems: Record<string, unknown>[] = [];
  for (const item of items) {
    const plan = planIndex(siteId, item.id as number, [], ideaIndexSpec(item as unknown as ContentItem));
    (item as Record<string, unknown>)[INDEX_KEYS] = plan.entries;
    indexItems.push(...plan.puts);
  }
  const tallies = items.map((item) => newTallyItem(siteId, item.id as number, tallyCopiesOf(item as unknown as ContentItem)).Put!.Item!);
  await batchPut([...items, ...tallies, ...indexItems]);
  return ids;
}

/** `perIdea` arguments on each idea (alternating for / against), as `putNewArgument` stores them. */
export async function seedArguments(siteId: number, ideaIds: readonly number[], perIdea: number, authorIds: readonly number[]): Promise<number> {
  const count = ideaIds.length * perIdea;
  if (count === 0) return 0;
  let id = newIds(count)[0]!;
  const now = new Date().toISOString();
  const items: Record<string, unknown>[] = [];
  for (const ideaId of ideaIds) {
    for (let k = 0; k < perIdea; k++, id++) {
      const userId = authorIds.length ? authorIds[id % authorIds.length]! : null;
      const item: ArgumentItem = {
        id,
        siteId,
        ideaId,
        userId,
        parentId: null,
        sentiment: k % 2 ? 'against' : 'for',
        description: `Argument ${id}: a reason of a realistic length, a sentence or two long.`,
        createdAt: now,
        updatedAt: now,
        yes: 0,
      };
      items.push({ ...argumentKeys.argument(siteId, ideaId, id), ...(userId != null ? userKeys.ownedBy(userId, 'ARG', id) : {}), ...item });
    }
  }
  await batchPut(items);
  return count;
}

export async function seedArticles(siteId: number, count: number, authorIds: readonly number[]): Promise<number[]> {
  const ids = newIds(count);
  const now = new Date().toISOString();
  await batchPut(ids.map((id, i) => contentItem('ARTICLE', siteId, id, authorIds.length ? authorIds[i % authorIds.length]! : null, now)));
  return ids;
}
