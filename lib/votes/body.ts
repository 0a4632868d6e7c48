/**
 * The POST /vote body: an array of `{ideaId, opinion}` or a single object (a round of one, CONTRACT
 * "Vote"). Only the shape is checked here; whether the ideas exist and the opinions are allowed is
 * for planRound, which knows the site.
 */
import * as z from 'zod';
import { errorPath, type ErrorDetail } from '#lib/errors';
import { invalidRound } from '#lib/votes/errors';
import type { CastVote } from '#lib/votes/types';

/** Upper bound of one round, so a single request cannot ask for an unbounded amount of work. */
export const MAX_ROUND_ENTRIES = 500;
export const MAX_OPINION_LENGTH = 64;

const ideaIdMessage = 'ideaId must be a positive integer';
const opinionMessage = `opinion must be a non-empty string of at most ${MAX_OPINION_LENGTH} characters`;

/**
 * One entry. Ids are JSON integers only (CONTRACT: ids in bodies are integers; the string `"12"` is not
 * accepted). `z.int()` also bounds them to the safe-integer range. Unknown keys are dropped.
 */
export const castVoteSchema = z.object({
  ideaId: z.int({ error: ideaIdMessage }).positive({ error: ideaIdMessage }),
  opinion: z
    .string({ error: opinionMessage })
    .min(1, { error: opinionMessage })
    .max(MAX_OPINION_LENGTH, { error: opinionMessage })
    .default('yes'),
});

export const voteRoundSchema = z.array(castVoteSchema);

export type CastVoteBody = z.infer<typeof castVoteSchema>;

export function validateVoteRoundBody(body: unknown): CastVote[] {
  const entries = Array.isArray(body) ? body : typeof body === 'object' && body !== null ? [body] : null;
  if (entries === null) {
    throw invalidRound([{ path: '', message: 'Body must be a vote {ideaId, opinion} or an array of votes' }]);
  }
  if (entries.length === 0) throw invalidRound([{ path: '', message: 'A vote round needs at least one vote' }]);
  // Checked before the entries so an oversized body costs no per-entry work.
  if (entries.length > MAX_ROUND_ENTRIES) {
    throw invalidRound([
      { path: '', message: `A vote round holds at most ${MAX_ROUND_ENTRIES} votes; this one holds ${entries.length}` },
    ]);
  }

  const result = voteRoundSchema.safeParse(entries);
  if (result.success) return result.data;

  // One detail per failing field: zod may report several issues for one value (e.g. -1.5).
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const issue of result.error.issues) {
    const path = errorPath(issue.path);
    if (seen.has(path)) continue;
    seen.add(path);
    const message = issue.path.length === 1 ? 'Each vote must be an object {ideaId, opinion}' : issue.message;
    details.push({ path, message });
  }
  throw invalidRound(details);
}
