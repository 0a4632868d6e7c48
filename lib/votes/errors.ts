/**
 * The 400 a rejected vote round gets. The details carry one entry per problem; the top-level message
 * repeats the first few so a client that only shows `message` still tells the voter what to fix.
 */
import { validationError, type ApiError, type ErrorDetail } from '#lib/errors';

const SHOWN = 3;

export function invalidRound(details: ErrorDetail[]): ApiError {
  const head = details.slice(0, SHOWN).map((d) => d.message);
  const rest = details.length - head.length;
  const message = head.join('; ') + (rest > 0 ? `; and ${rest} more` : '');
  return validationError(details, message || 'Vote round is invalid');
}
