/** Shared fixtures for the voting rule tests. */
import { expect } from 'vitest';
import { ApiError } from '#lib/errors';
import type { BallotVote, IdeaForVote, VotesConfig } from '#lib/votes/types';
import { parseOrThrow } from '#lib/validation/zod-errors';
import { invalidRound } from '#lib/votes/errors';
import { castVotesBody, type CastVote } from '#schemas/votes';

/** The CONTRACT defaults for `config.votes`, with overrides. */
export function votesConfig(overrides: Partial<VotesConfig> = {}): VotesConfig {
  return {
    isViewable: false,
    isActive: true,
    isActiveFrom: null,
    isActiveTo: null,
    requiredUserRole: 'member',
    withExisting: 'error',
    voteType: 'likes',
    voteValues: [
      { label: 'Voor', value: 'yes' },
      { label: 'Tegen', value: 'no' },
    ],
    minIdeas: 1,
    maxIdeas: 100,
    ...overrides,
  };
}

export function ideaMap(...ideas: Array<Partial<IdeaForVote> & { id: number }>): Map<number, IdeaForVote> {
  return new Map(ideas.map((i) => [i.id, { budget: null, theme: null, ...i }]));
}

let nextId = 1000;
export function held(ideaId: number, opinion = 'yes'): BallotVote {
  nextId += 1;
  return { id: nextId, ideaId, opinion, createdAt: '2024-01-01T00:00:00.000Z' };
}

/** Runs `fn`, expects an ApiError with this status and name, and returns it for further checks. */
export function expectApiError(fn: () => unknown, status: number, error: string, paths?: string[]): ApiError {
  let thrown: unknown;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  expect(thrown, 'expected an ApiError to be thrown').toBeInstanceOf(ApiError);
  const apiError = thrown as ApiError;
  expect({ status: apiError.status, error: apiError.error }).toEqual({ status, error });
  if (paths) expect((apiError.details ?? []).map((d) => d.path)).toEqual(paths);
  return apiError;
}

/** A vote set as sorted `ideaId:opinion` strings, for order-free comparison. */
export const asPairs = (votes: Iterable<{ ideaId: number; opinion: string }>) =>
  [...votes].map((v) => `${v.ideaId}:${v.opinion}`).sort();

/** A tally as a plain, comparable object. */
export const plainTally = (tally: Map<number, Record<string, number>>) =>
  Object.fromEntries([...tally].sort(([a], [b]) => a - b).map(([id, perOpinion]) => [id, { ...perOpinion }]));

/**
 * What the POST /vote route does with a body (lib/http/handler.ts): the edge schema, one detail per
 * field, and the vote round's own 400 (invalidRound).
 */
export function validateVoteRoundBody(body: unknown): CastVote[] {
  return parseOrThrow(castVotesBody, body, 'body', '', invalidRound);
}
