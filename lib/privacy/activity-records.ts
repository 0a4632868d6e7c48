/**
 * What a site user owns -> the records activity and anonymization answer with: ideas and articles as
 * their CONTRACT records, arguments as theirs, the ballot's votes as vote records (with `userId`, which
 * the owner and moderators may see, and `siteId`, since the answer spans sites) and sites as
 * `{id, name, title}`.
 */
import { toArgumentRecord } from '#lib/arguments/record';
import { toContentRecord } from '#lib/content/record';
import { toIdeaRecord } from '#lib/ideas/record';
import type { OwnedItems } from '#lib/store/users/owned-items';
import type { BallotItem } from '#lib/store/ballots/ballots';
import { toVoteRecord, votesOfBallot } from '#lib/votes/records';
import type { ActivityResponse, ActivityVote, SiteSummary } from '#schemas/user-activity';

function voteRecordsOf(ballot: BallotItem | undefined): ActivityVote[] {
  if (!ballot) return [];
  return votesOfBallot(ballot.votes).map((vote) => ({
    ...(toVoteRecord(vote, ballot.userId, true) as ActivityVote),
    siteId: ballot.siteId,
  }));
}

export const siteSummaryOf = (site: { id: number; name: string; title?: string | null }): SiteSummary => ({
  id: site.id,
  name: site.name,
  title: site.title ?? null,
});

/** The parts of one site user's items that were asked for, as records (votes only when `withVotes`). */
export function ownedRecords(owned: OwnedItems, withVotes: boolean): Omit<ActivityResponse, 'sites'> {
  return {
    ideas: owned.ideas.map(toIdeaRecord),
    articles: owned.articles.map(toContentRecord),
    arguments: owned.arguments.map((item) => toArgumentRecord(item)),
    votes: withVotes ? voteRecordsOf(owned.ballot) : [],
  };
}

/** Concatenates per-site parts (in the order given). */
export function mergeRecords(parts: Omit<ActivityResponse, 'sites'>[]): Omit<ActivityResponse, 'sites'> {
  return {
    ideas: parts.flatMap((p) => p.ideas),
    articles: parts.flatMap((p) => p.articles),
    arguments: parts.flatMap((p) => p.arguments),
    votes: parts.flatMap((p) => p.votes),
  };
}
