/**
 * Ideas written through the idea create's own store call (item, tally marker and index items in one
 * transaction), without the HTTP layer, so argument and vote tests do not depend on the idea endpoints.
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { contentKeys } from '#lib/store/content/keys';
import { newId } from '#lib/store/db/ids';
import { tallyGoneItem } from '#lib/store/ideas/tallies';
import { putNewIdea } from '#lib/store/ideas/ideas';
import type { ContentItem } from '#lib/store/content/content-items';
import { ideaIndexSpec } from '#lib/discovery/index-spec';

export interface IdeaFixture {
  userId?: number | null;
  budget?: number | null;
  theme?: string;
  /** Leave out the tally marker, as if the idea were deleted between a round's read and its write. */
  withoutMarker?: boolean;
  /** Any other fields, written over the defaults. */
  fields?: Record<string, unknown>;
}

export async function putIdea(siteId: number, options: IdeaFixture = {}): Promise<{ id: number }> {
  const id = newId();
  const now = new Date().toISOString();
  const userId = options.userId ?? null;
  const item = {
    id,
    siteId,
    userId,
    title: `Idea number ${id}`,
    summary: 'A summary that is long enough to pass',
    description: 'A description of the idea. '.repeat(8),
    status: 'OPEN',
    budget: options.budget ?? null,
    extraData: options.theme === undefined ? {} : { theme: options.theme },
    tags: [],
    location: null,
    createdAt: now,
    updatedAt: now,
    version: 1,
    ...options.fields,
  } as ContentItem;
  // The idea create's own store write (item, tally item and index items in one transaction).
  const outcome = await putNewIdea(item, { index: ideaIndexSpec(item) });
  if (outcome !== 'ok') throw new Error(`putIdea: ${outcome}`);
  if (options.withoutMarker) {
    const { Update } = tallyGoneItem(siteId, id);
    await doc.send(new UpdateCommand(Update!));
  }
  return { id };
}

export const createIdea = (siteId: number, userId: number | null, fields: Record<string, unknown> = {}) =>
  putIdea(siteId, { userId, fields });

/** Removes only the idea item (what a half-finished idea delete would leave behind). */
export async function removeIdeaItem(siteId: number, ideaId: number): Promise<void> {
  await doc.send(new DeleteCommand({ TableName: TABLE, Key: contentKeys.idea(siteId, ideaId) }));
}
