/**
 * The bench's sites: an idea site of any size with what the include flags read (an author per idea
 * among up to 100 users, arguments on every idea, votes spread over the ideas), built with the fast
 * seeder, plus a few helpers the sections share.
 */
import { createSite } from '#tests/support/fixtures';
import type { SiteConfigInput } from '#schemas/site-config';
import { handler as castVotes } from '../../functions/votes/cast.ts';
import { call, expectStatus } from '../lambda-call.ts';
import { seedArguments, seedIdeas, seedTags, seedUsers, type SeededUser } from './seed.ts';

/** Open voting that counts (`count`, replace, up to 100 ideas a round), public counts, newsletter on. */
export const BENCH_CONFIG: SiteConfigInput = {
  allowedDomains: ['bench.example.org'],
  votes: { isActive: true, isViewable: true, voteType: 'count', withExisting: 'replace', maxIdeas: 100, requiredUserRole: 'member' },
  newslettersignup: { isActive: true },
};

export const ALL_IDEA_FLAGS = {
  includeArguments: '1',
  includePosterImage: '1',
  includeUser: '1',
  includeVoteCount: '1',
  includeUserVote: '1',
};

export interface IdeaSite {
  siteId: number;
  /** In creation order. */
  ideaIds: number[];
  authors: SeededUser[];
  /** A moderator with a ballot of 100 votes (`includeUserVote` has something to show). */
  moderator: SeededUser;
  /** A member with no votes yet (vote rounds). */
  member: SeededUser;
  argumentsPerIdea: number;
  /** Discovery: the site's ten tags (each idea carries one). */
  tagIds: number[];
}

/** Every `step`-th idea: spread over the whole id range (and so over every tally shard). */
export const spread = (ideaIds: readonly number[], count: number, offset = 0): number[] => {
  const step = Math.max(1, Math.floor(ideaIds.length / count));
  return Array.from({ length: Math.min(count, ideaIds.length) }, (_, i) => ideaIds[(offset + i * step) % ideaIds.length]!);
};

export async function castRound(siteId: number, voter: SeededUser, ideaIds: readonly number[]) {
  const result = await call(castVotes, {
    method: 'POST',
    path: '/api/site/{siteId}/vote',
    params: { siteId },
    body: ideaIds.map((ideaId) => ({ ideaId })),
    token: voter.token,
  });
  return expectStatus(result, 200, `vote round of ${ideaIds.length}`);
}

/**
 * A site of `ideas` ideas with `argumentsPerIdea` arguments each and votes: the moderator and four
 * voters each cast one round of 100 ideas spread over the site (through the real vote handler, so
 * ballots and tallies agree).
 */
export async function ideaSite(ideas: number, argumentsPerIdea = 2, config: SiteConfigInput = BENCH_CONFIG): Promise<IdeaSite> {
  const { id: siteId } = await createSite(config, `Bench site of ${ideas} ideas`);
  const [moderator] = await seedUsers(siteId, 1, 'moderator');
  const [member, ...voters] = await seedUsers(siteId, 5, 'member');
  const authors = await seedUsers(siteId, Math.min(100, ideas), 'member');
  const tagIds = await seedTags(siteId);
  const ideaIds = await seedIdeas(siteId, ideas, authors.map((a) => a.id), tagIds);
  await seedArguments(siteId, ideaIds, argumentsPerIdea, authors.map((a) => a.id));
  await castRound(siteId, moderator!, spread(ideaIds, 100));
  for (const [i, voter] of voters.entries()) await castRound(siteId, voter, spread(ideaIds, 100, i * 7 + 3));
  return { siteId, ideaIds, authors, moderator: moderator!, member: member!, argumentsPerIdea, tagIds };
}
