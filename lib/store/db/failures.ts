/**
 * The one failure classifier of the store (DESIGN habit 13): what a DynamoDB or SDK error means for
 * the caller. Every retry decision (lib/store/db/retry.ts) and every "did my condition fail?" check reads
 * this, so AWS error names and cancellation codes are spelled here and nowhere else.
 *
 *   condition-failed  a ConditionExpression was false (a transaction: at least one reason says so);
 *                     the write's own business, never retried blindly
 *   conflict          another transaction held an item (TransactionConflict and its cousins): nothing
 *                     was written, the same request may be sent again
 *   throttled         the table or a partition is over its capacity: send again later
 *   connection        the request or its answer was lost on the way (timeouts, resets, 5xx of the service)
 *   other             a bug or a refused request: never retried, never answered as the client's fault
 */
export interface CancellationReason {
  Code?: string;
  Message?: string;
  Item?: Record<string, unknown>;
}

type Failure =
  | { kind: 'condition-failed'; reasons: CancellationReason[] }
  | { kind: 'conflict' }
  | { kind: 'throttled' }
  | { kind: 'connection' }
  | { kind: 'other' };

const THROTTLING_ERRORS = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'Throttling']);
const THROTTLING_REASONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);
const CONFLICT_ERRORS = new Set(['TransactionConflictException', 'TransactionInProgressException']);
const CONNECTION_ERRORS = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'InternalServerError', 'ServiceUnavailable', 'NetworkingError']);
const CONNECTION_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNABORTED', 'UND_ERR_SOCKET']);

/** The cancellation reasons of a cancelled transaction (empty for any other error). */
const cancellationReasons = (err: unknown): CancellationReason[] =>
  ((err as { CancellationReasons?: CancellationReason[] } | undefined)?.CancellationReasons ?? []) as CancellationReason[];

export function classifyFailure(err: unknown): Failure {
  const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  const name = e?.name ?? '';
  if (name === 'ConditionalCheckFailedException') return { kind: 'condition-failed', reasons: [] };
  if (name === 'TransactionCanceledException') {
    const reasons = cancellationReasons(err);
    if (reasons.some((r) => r.Code === 'ConditionalCheckFailed')) return { kind: 'condition-failed', reasons };
    if (reasons.some((r) => r.Code !== undefined && THROTTLING_REASONS.has(r.Code))) return { kind: 'throttled' };
    if (reasons.some((r) => r.Code === 'TransactionConflict')) return { kind: 'conflict' };
    return { kind: 'other' };
  }
  if (CONFLICT_ERRORS.has(name)) return { kind: 'conflict' };
  if (THROTTLING_ERRORS.has(name)) return { kind: 'throttled' };
  if (CONNECTION_ERRORS.has(name) || (e?.code !== undefined && CONNECTION_CODES.has(e.code))) return { kind: 'connection' };
  const status = e?.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500) return { kind: 'connection' };
  return { kind: 'other' };
}

/** True when the write's own condition failed (a plain ConditionalCheckFailed or one reason of a transaction). */
export const conditionFailed = (err: unknown): boolean => classifyFailure(err).kind === 'condition-failed';

/** The condition-failed reasons of a cancelled transaction, or undefined when `err` is anything else. */
export function failedConditions(err: unknown): CancellationReason[] | undefined {
  const failure = classifyFailure(err);
  return failure.kind === 'condition-failed' && (err as Error).name === 'TransactionCanceledException' ? failure.reasons : undefined;
}

/** True when the same request may simply be sent again (nothing of it was applied). */
export const isTransient = (failure: Failure): boolean => failure.kind === 'conflict' || failure.kind === 'throttled' || failure.kind === 'connection';
