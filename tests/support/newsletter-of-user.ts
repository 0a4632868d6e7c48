/**
 * Test-only reads of a user's newsletter signups (through GSI1, the owner index), and a sweep that
 * deletes them with the store's own deleteSignup (what anonymization uses), so tests can check that
 * guards and tokens go with each signup.
 */
import { GSI1 } from '#lib/store/db/client';
import { signupKeys } from '#lib/store/newsletter/keys';
import { userKeys } from '#lib/store/users/keys';
import { deleteSignup, type SignupItem } from '#lib/store/newsletter/newsletter';
import { queryAll } from '#lib/store/db/query';

export async function findSignupsOfUser(userId: number): Promise<SignupItem[]> {
  const items = await queryAll<Record<string, unknown>>({
    IndexName: GSI1,
    KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :prefix)',
    ExpressionAttributeValues: { ':pk': userKeys.ownedByPartition(userId), ':prefix': signupKeys.newsletterSignupPrefix },
  });
  return items.map(({ PK: _pk, SK: _sk, GSI1PK: _g1, GSI1SK: _g2, ...rest }) => rest as unknown as SignupItem);
}

export async function deleteSignupsOfUser(userId: number): Promise<SignupItem[]> {
  const items = await findSignupsOfUser(userId);
  for (const item of items) await deleteSignup(item);
  return items;
}
