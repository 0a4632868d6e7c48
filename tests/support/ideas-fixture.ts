/**
 * Idea items written straight into the table, the shape the ideas feature stores
 * (`PK=SITE#s, SK=keys.idea(...)`), so argument tests do not depend on the idea endpoints.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/client';
import { keys } from '#lib/store/keys';
import { nextId } from '#lib/store/counters';

export async function createIdea(siteId: number, userId: number | null, fields: Record<string, unknown> = {}): Promise<{ id: number }> {
  const id = await nextId('idea');
  const now = new Date().toISOString();
  await doc.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...keys.idea(siteId, id),
        ...(userId != null ? keys.ownedBy(userId, 'IDEA', id) : {}),
        id,
        siteId,
        userId,
        title: `Idea number ${id}`,
        summary: 'A summary that is long enough to pass',
        description: 'A description of the idea. '.repeat(8),
        status: 'OPEN',
        budget: null,
        extraData: {},
        createdAt: now,
        updatedAt: now,
        ...fields,
      },
    }),
  );
  return { id };
}

/** Removes only the idea item (what a half-finished idea delete would leave behind). */
export async function removeIdeaItem(siteId: number, ideaId: number): Promise<void> {
  await doc.send(new DeleteCommand({ TableName: TABLE, Key: keys.idea(siteId, ideaId) }));
}
