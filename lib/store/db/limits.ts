/**
 * DynamoDB's own limits that the store's requests keep to (declared once; no side effects, so rules
 * outside lib/store may size their plans by them without loading the client).
 */

/** Actions in one TransactWriteItems (every transaction of the store keeps to it). */
export const MAX_TRANSACTION_ACTIONS = 100;

/** Keys in one BatchGetItem: more keys are more requests (sent in parallel). */
export const MAX_BATCH_GET_KEYS = 100;
