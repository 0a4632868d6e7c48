/** Direct store access the hostile suite needs beyond the fixtures. */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { userKeys } from '#lib/store/users/keys';

/** Removes a user item (what a deleted user leaves behind: tokens that name nobody). */
export async function removeUser(siteId: number, userId: number): Promise<void> {
  await doc.send(new DeleteCommand({ TableName: TABLE, Key: userKeys.user(siteId, userId) }));
}
