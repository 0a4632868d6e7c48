/**
 * Newsletter signups. Three kinds of item live under the site partition (so a site delete sweeps them):
 *
 *   SIGNUP#<id>              the signup (GSI1 `USER#<u>` / `SIGNUP#<id>` when a logged-in user made it)
 *   SIGNUPEMAIL#<email>      uniqueness guard: one signup per normalised e-mail per site
 *   SIGNUPTOKEN#<sha256>     confirm token lookup -> signup id; exists only while the signup is unconfirmed
 *
 * The three are written and removed together in transactions, so a guard or token never outlives its
 * signup and a signup never exists without its guard.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { sitePk } from '#lib/store/db/keys';
import { signupKeys } from '#lib/store/newsletter/keys';
import { queryPage, type Page, type PageRequest } from '#lib/store/db/query';
import { type StoredSignup } from '#schemas/stored/newsletter';
import { update, withCondition } from '#lib/store/db/update';
import { signupCodec, signupEmailCodec, signupTokenCodec } from '#lib/store/newsletter/codec';
import { transact, transactFailedAt, type TransactItem } from '#lib/store/db/transact';
import { IdTaken } from '#lib/store/db/ids';

export type SignupItem = StoredSignup;


const strip = signupCodec.fromItem;

/**
 * Runs a transaction; returns the index of the first action whose condition failed, or -1 when it
 * committed. A `TransactionConflict` (another transaction on one of the items was in flight) says
 * nothing about the outcome, and DynamoDB may cancel both sides of a conflict: the store's retry
 * policy (lib/store/db/retry.ts) sends it again until the conditions decide, which is what makes
 * "exactly one of N concurrent signups wins" hold.
 */
const transactSignup = async (items: TransactItem[]): Promise<number> => (await transactFailedAt(items))[0] ?? -1;

/**
 * Writes a new signup with its e-mail guard and (when unconfirmed) its token item in ONE transaction.
 * @returns false when the e-mail is already signed up on the site; `IdTaken` when the id is taken.
 */
export async function putNewSignup(item: SignupItem): Promise<boolean> {
  const { siteId, id } = item;
  const writes: TransactItem[] = [
    {
      Put: {
        TableName: TABLE,
        Item: signupCodec.toItem(item),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: TABLE,
        Item: signupEmailCodec.toItem({ signupId: id }, siteId, item.emailKey),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
  if (item.tokenHash !== undefined) {
    writes.push({
      Put: {
        TableName: TABLE,
        Item: signupTokenCodec.toItem({ signupId: id }, siteId, item.tokenHash),
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    });
  }
  const failed = await transactSignup(writes);
  if (failed === 1) return false;
  if (failed === 0) throw new IdTaken(id);
  // The token hash is fresh; a clash there is a bug, not a client error.
  if (failed >= 0) throw new Error(`Newsletter signup ${id}: unexpected condition failure on action ${failed}`);
  return true;
}

/** One Query page of a site's signups in id order; `confirmed` narrows with a filter (a page may be short). */
export async function listSignups(
  siteId: number,
  filter: { confirmed?: boolean | undefined },
  page: PageRequest,
): Promise<Page<SignupItem>> {
  const pk = sitePk(siteId);
  const result = await queryPage<Record<string, unknown>>(
    {
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ...(filter.confirmed === undefined
        ? { ExpressionAttributeValues: { ':pk': pk, ':prefix': signupKeys.newsletterSignupPrefix } }
        : {
            FilterExpression: '#confirmed = :confirmed',
            ExpressionAttributeNames: { '#confirmed': 'confirmed' },
            ExpressionAttributeValues: { ':pk': pk, ':prefix': signupKeys.newsletterSignupPrefix, ':confirmed': filter.confirmed },
          }),
    },
    page,
    { values: { PK: pk }, skPrefix: signupKeys.newsletterSignupPrefix },
    { siteId, list: 'newsletter-signups', options: { confirmed: filter.confirmed } },
  );
  return { items: result.items.map(strip), nextCursor: result.nextCursor };
}

export async function getSignup(siteId: number, signupId: number): Promise<SignupItem | undefined> {
  const out = await doc.send(
    new GetCommand({ TableName: TABLE, Key: signupKeys.newsletterSignup(siteId, signupId), ConsistentRead: true }),
  );
  return out.Item ? strip(out.Item) : undefined;
}

/** The signup id a token hash points to, while that token is still unused. */
export async function signupIdByTokenHash(siteId: number, tokenHash: string): Promise<number | undefined> {
  const out = await doc.send(
    new GetCommand({ TableName: TABLE, Key: signupKeys.newsletterToken(siteId, tokenHash), ConsistentRead: true }),
  );
  return out.Item ? signupTokenCodec.fromItem(out.Item).signupId : undefined;
}

/**
 * Confirms a signup and consumes its token in one transaction. The token item must still exist, so of
 * two concurrent confirms with the same token exactly one succeeds.
 * @returns false when the token was used (or the signup removed) meanwhile.
 */
export async function confirmSignup(siteId: number, signupId: number, tokenHash: string, now: string): Promise<boolean> {
  const failed = await transactSignup([
    {
      Delete: {
        TableName: TABLE,
        Key: signupKeys.newsletterToken(siteId, tokenHash),
        ConditionExpression: 'attribute_exists(PK) AND signupId = :id',
        ExpressionAttributeValues: { ':id': signupId },
      },
    },
    {
      Update: {
        TableName: TABLE,
        Key: signupKeys.newsletterSignup(siteId, signupId),
        ...withCondition(update({ set: { confirmed: true, confirmedAt: now }, remove: ['tokenSalt', 'tokenHash'] }), {
          expression: 'attribute_exists(PK) AND #confirmed = :false AND #hash = :hash',
          names: { '#confirmed': 'confirmed', '#hash': 'tokenHash' },
          values: { ':false': false, ':hash': tokenHash },
        }),
      },
    },
  ]);
  return failed < 0;
}


/**
 * Deletes a signup with its e-mail guard and token item in one transaction (the guard would otherwise
 * block the e-mail on the site forever). Deleting what is already gone is not an error, so it can be
 * retried.
 */
export async function deleteSignup(item: Pick<SignupItem, 'siteId' | 'id' | 'emailKey' | 'tokenHash'>): Promise<void> {
  const deletes: TransactItem[] = [
    { Delete: { TableName: TABLE, Key: signupKeys.newsletterSignup(item.siteId, item.id) } },
    {
      // Only this signup's guard: a later signup with the same e-mail owns its own guard.
      Delete: {
        TableName: TABLE,
        Key: signupKeys.newsletterEmail(item.siteId, item.emailKey),
        ConditionExpression: 'attribute_not_exists(PK) OR signupId = :id',
        ExpressionAttributeValues: { ':id': item.id },
      },
    },
  ];
  if (item.tokenHash !== undefined) {
    deletes.push({ Delete: { TableName: TABLE, Key: signupKeys.newsletterToken(item.siteId, item.tokenHash) } });
  }
  // A guard owned by another signup means this one was deleted before (with its token) and the e-mail
  // signed up again since: nothing is left to delete.
  await transact(deletes);
}

