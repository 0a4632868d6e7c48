/** The errors of scripts/secrets.ts and what of them it prints. */
import { SSMServiceException } from '@aws-sdk/client-ssm';
import { WeakSecretError } from '#lib/config/secret-values';
import { RotationError } from '#lib/vote-record/key-rotation';

/** A command used wrongly, or a state it cannot act on; its message says what to do. */
export class UsageError extends Error {}

/**
 * What is printed of an error. Ours (a usage error, a refused value, a stopped rotation) and the
 * store's (its answer names parameters, never values) say what is wrong; any other is printed by its
 * kind only: a parser's message quotes the text it read (a SyntaxError of JSON.parse shows the start
 * of a stored key), and a stack adds nothing an operator can act on.
 */
export function printable(error: unknown): string {
  if (error instanceof UsageError || error instanceof WeakSecretError || error instanceof RotationError || error instanceof SSMServiceException) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  const kind = error instanceof Error ? error.name : typeof error;
  return `an unexpected ${kind}${typeof code === 'string' && /^[A-Z_]{2,40}$/.test(code) ? ` (${code})` : ''}; its message is not printed, as it may quote a stored value`;
}
