/**
 * Test data for the voting tests: idea items written straight to the table the way the idea create
 * does it (the idea item and its tally marker in one transaction), idea deletion through the idea
 * delete's own store call, and helpers that read ballots and tallies back to check they agree.
 */
import { expect } from 'vitest';
import { sitePk } from '#lib/store/db/keys';
import { ballotKeys } from '#lib/store/ballots/keys';
import { queryAll } from '#lib/store/db/query';
import { readSiteTallies } from '#lib/store/ideas/tallies';
import { deleteIdeaAndRelated } from '#lib/ideas/delete';
import type { BallotItem } from '#lib/store/ballots/ballots';
import { countVotes } from '#lib/votes/index';
import type { SiteConfigInput } from '#schemas/site-config';
import type { VoteRecord } from '#schemas/votes';
import { createSite } from '#tests/support/fixtures';
import { putIdea, type IdeaFixture } from '#tests/support/ideas-fixture';
import { invoke, type InvokeResult } from '#tests/support/invoke';
import { handler as castHandler } from '../../functions/votes/cast.ts';

type IdeaOptions = Omit<IdeaFixture, 'userId' | 'fields'> & { userId?: number };

/** An idea as the idea create writes it (owned by user 1 unless told otherwise). */
export const createIdea = (siteId: number, options: IdeaOptions = {}) => putIdea(siteId, { ...options, userId: options.userId ?? 1 });

/** Ids that tests destructure (`const [a, b] = ...`) without undefined checks. */
type IdList = number[] & Record<0 | 1 | 2 | 3 | 4, number>;

/** `n` ideas, created 25 at a time (more at once starves DynamoDB Local); ids in ascending order. */
export async function createIdeas(siteId: number, n: number, options: IdeaOptions = {}): Promise<IdList> {
  const ids: number[] = [];
  for (let done = 0; done < n; done += 25) {
    const batch = Array.from({ length: Math.min(25, n - done) }, () => createIdea(siteId, options).then((i) => i.id));
    ids.push(...(await Promise.all(batch)));
  }
  return ids.sort((a, b) => a - b) as IdList;
}

/**
 * Deletes an idea through the idea delete's own store call (tombstone and tally marker in one
 * transaction, then arguments, ballots, index items and the item), not a copy of its steps that could
 * drift from it.
 */
export async function deleteIdea(siteId: number, ideaId: number): Promise<void> {
  expect(await deleteIdeaAndRelated(siteId, ideaId)).toBe(true);
}

/** A site with voting open and the given `votes` config. */
export async function votingSite(votes: NonNullable<SiteConfigInput['votes']> = {}, config: SiteConfigInput = {}) {
  return createSite({ ...config, votes: { isActive: true, ...votes } });
}

export function castVotes(siteId: number, token: string | undefined, body: unknown, headers: Record<string, string> = {}): Promise<InvokeResult<VoteRecord[]>> {
  return invoke<VoteRecord[]>(castHandler, {
    method: 'POST',
    path: '/api/site/{siteId}/vote',
    params: { siteId },
    body,
    headers,
    ...(token ? { token } : {}),
  });
}

export async function allBallots(siteId: number): Promise<BallotItem[]> {
  return queryAll<BallotItem>({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': sitePk(siteId), ':prefix': ballotKeys.ballotPrefix },
    ConsistentRead: true,
  });
}

/** The tallies counted from the ballots' contents (a vote a moderator rejected counts nowhere), as `{ideaId: {opinion: n}}`. */
async function talliesFromBallots(siteId: number): Promise<Record<number, Record<string, number>>> {
  const ballots = await allBallots(siteId);
  const votes = ballots.flatMap((b) => Object.entries(b.votes).filter(([, v]) => !v.review?.rejected).map(([ideaId, v]) => ({ ideaId: Number(ideaId), opinion: v.opinion })));
  return Object.fromEntries([...countVotes(votes)].map(([ideaId, t]) => [ideaId, { ...t }]));
}

/** The stored tallies, dropping zero counters and ideas without votes. */
export async function storedTallies(siteId: number): Promise<Record<number, Record<string, number>>> {
  const out: Record<number, Record<string, number>> = {};
  for (const [ideaId, tally] of await readSiteTallies(siteId, { consistent: true })) {
    const nonZero = Object.fromEntries(Object.entries(tally).filter(([, n]) => n !== 0));
    if (Object.keys(nonZero).length > 0) out[ideaId] = nonZero;
  }
  return out;
}

/** The invariant of the voting engine: stored tallies equal exactly what the ballots hold. */
export async function expectTalliesMatchBallots(siteId: number): Promise<Record<number, Record<string, number>>> {
  const fromBallots = await talliesFromBallots(siteId);
  expect(await storedTallies(siteId)).toEqual(fromBallots);
  return fromBallots;
}
