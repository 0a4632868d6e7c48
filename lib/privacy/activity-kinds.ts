/**
 * Which kinds an activity request asks for (spec "User": when none of the four flags is given, all
 * are true), and the GSI1 item kinds that answer them. Pure.
 */
import { type OwnedKind } from '#lib/store/users/keys';
import type { ActivityQuery } from '#schemas/user-activity';

interface Kinds {
  ideas: boolean;
  articles: boolean;
  arguments: boolean;
  votes: boolean;
}

/** When none of the four flags is given, all are on; otherwise each given flag decides and the rest are off. */
export function kindsAsked(query: Partial<ActivityQuery>): Kinds {
  const given = [query.includeIdeas, query.includeArticles, query.includeArguments, query.includeVotes];
  if (given.every((flag) => flag === undefined)) return { ideas: true, articles: true, arguments: true, votes: true };
  return {
    ideas: query.includeIdeas === true,
    articles: query.includeArticles === true,
    arguments: query.includeArguments === true,
    votes: query.includeVotes === true,
  };
}

export const ownedKindsOf = (kinds: Kinds): OwnedKind[] => [
  ...(kinds.ideas ? (['IDEA'] as const) : []),
  ...(kinds.articles ? (['ARTICLE'] as const) : []),
  ...(kinds.arguments ? (['ARG'] as const) : []),
  ...(kinds.votes ? (['BALLOT'] as const) : []),
];
