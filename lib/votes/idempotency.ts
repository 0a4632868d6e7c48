/**
 * `Idempotency-Key` on POST /vote: a client that retries a round after a timeout gets the first answer
 * back and nothing is written twice. The key is scoped to the voter (`vote#<userId>`), so two users
 * cannot collide or read each other's answer; the first request's body hash is stored with the
 * answer, so reusing a key for another round is a 409 instead of a silent replay of the wrong answer.
 */
import { createHash } from 'node:crypto';
import { badRequest } from '#lib/errors';
import type { CastVote } from '#lib/votes/types';
import { idempotencyKeySchema } from '#schemas/votes';

/** How long a stored answer is replayed (the table's TTL removes it afterwards). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

export const idempotencyScope = (userId: number) => `vote#${userId}`;

/** The key from the (lower-cased) request headers; undefined when absent, 400 when malformed. */
export function idempotencyKeyOf(headers: Record<string, string | undefined>): string | undefined {
  const value = headers['idempotency-key'];
  if (value === undefined) return undefined;
  const parsed = idempotencyKeySchema.safeParse(value);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid Idempotency-Key');
  return parsed.data;
}

/**
 * Hash of the round as validated (defaults applied), so `{ideaId: 1}` and `{ideaId: 1, opinion: "yes"}`
 * count as the same request; order matters, as it does for the body a client would resend.
 */
export function roundHash(round: readonly CastVote[]): string {
  const canonical = JSON.stringify(round.map((entry) => [entry.ideaId, entry.opinion]));
  return createHash('sha256').update(canonical).digest('base64url');
}
