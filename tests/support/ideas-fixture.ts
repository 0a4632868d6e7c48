/**
 * Idea items written straight into the table the way the idea create does it: the idea item and its
 * tally marker in one transaction (`PK=SITE#s, SK=keys.idea(...)`), so argument and vote tests do not
 * depend on the idea endpoints.
 */
import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/client';
import { keys } from '#lib/store/keys';
import { nextId } from '#lib/store/counters';
import { registerIdeaItem } from '#lib/store/tallies';

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
  const id = await nextId('idea');
  const now = new Date().toISOString();
  const userId = options.userId ?? null;
  const item = {
    ...keys.idea(siteId, id),
    ...(userId != null ? keys.ownedBy(userId, 'IDEA', id) : {}),
    id,
    siteId,
    userId,
    title: `Idea number ${id}`,
    summary: 'A summary that is long enough to pass',
    description: 'A description of the idea. '.repeat(8),
    status: 'OPEN',
    budget: options.budget ?? null,
    extraData: options.theme === undefined ? {} : { theme: options.theme },
    createdAt: now,
    updatedAt: now,
    ...options.fields,
  };
  await doc.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(PK)' } },
        ...(options.withoutMarker ? [] : [registerIdeaItem(siteId, id)]),
      ],
    }),
  );
  return { id };
}

export const createIdea = (siteId: number, userId: number | null, fields: Record<string, unknown> = {}) =>
  putIdea(siteId, { userId, fields });

/** Removes only the idea item (what a half-finished idea delete would leave behind). */
export async function removeIdeaItem(siteId: number, ideaId: number): Promise<void> {
  await doc.send(new DeleteCommand({ TableName: TABLE, Key: keys.idea(siteId, ideaId) }));
}
