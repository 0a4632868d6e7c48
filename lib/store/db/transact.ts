/**
 * Writes that must move together (DESIGN habit 8): one TransactWriteItems, all or nothing, at most
 * MAX_TRANSACTION_ACTIONS actions (limits.ts). A condition that fails cancels the whole transaction;
 * which one failed is in the cancellation reasons (failures.ts `failedConditions`), in the order of the
 * items. Transient cancellations (conflicts, throttling) are resent by the retry policy (retry.ts).
 */
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { doc } from '#lib/store/db/client';
import { failedConditions } from '#lib/store/db/failures';

/** One action of a transaction: a Put, Update, Delete or ConditionCheck of one item. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export async function transact(items: readonly TransactItem[]): Promise<void> {
  await doc.send(new TransactWriteCommand({ TransactItems: [...items] }));
}

/**
 * The transaction, answering the positions of the items whose condition failed: none when it
 * committed; otherwise nothing was written. Any other failure is thrown.
 */
export async function transactFailedAt(items: readonly TransactItem[]): Promise<number[]> {
  try {
    await transact(items);
    return [];
  } catch (err) {
    const reasons = failedConditions(err);
    if (!reasons) throw err;
    return reasons.flatMap((reason, i) => (reason.Code === 'ConditionalCheckFailed' ? [i] : []));
  }
}
