/**
 * The cases of the side-by-side table, each as the same call on both sides. Where the two APIs differ in
 * wire details the request says so per side: OpenStad pages only with `page` (without it a list has
 * no limit), and answers a new argument with 200 where we answer 201.
 */
import type { Request } from './http.ts';
import { spread } from '../world.ts';
import type { SiteWorld, World } from './world.ts';

export type Side = 'ours' | 'theirs';
export const SIDES: readonly Side[] = ['ours', 'theirs'];

export interface Case {
  name: string;
  /** The next request of this case on one side. A vote round rotates through disjoint rounds, so every call changes the ballot. */
  next: (side: Side) => Request;
  /** The least time a round of one call per side takes: the rest is waited out, untimed. */
  pauseMs?: number;
}

type Worlds = Record<Side, World>;

const FLAGS = 'includeVoteCount=1&includeUserVote=1';

function listPath(side: Side, site: SiteWorld, sort: 'createdate_desc' | 'votes_desc', pageSize: number): string {
  return `/api/site/${site.siteId}/idea?${FLAGS}&sort=${sort}&pageSize=${pageSize}${side === 'theirs' ? '&page=0' : ''}`;
}

const list = (name: string, w: Worlds, site: 'small' | 'large', sort: 'createdate_desc' | 'votes_desc', pageSize: number): Case => ({
  name,
  next: (side) => ({ path: listPath(side, w[side][site], sort, pageSize), auth: w[side][site].lister, status: 200 }),
});

/**
 * A vote round that replaces the voter's last one: it rotates through disjoint sets of `size` ideas
 * spread over the site. Several sets and a pause, because OpenStad v1 keeps a replaced vote as a row
 * with `deletedAt` (seconds) under a unique (ideaId, userId, deletedAt) index: the same vote replaced
 * twice within one second is its 500 "Validation error". Each set comes back after more than a second.
 */
function voteRound(name: string, w: Worlds, size: number, voter: 'roundVoter' | 'singleVoter'): Case {
  const turn: Record<Side, number> = { ours: 0, theirs: 0 };
  const sets = Math.min(10, Math.floor(w.ours.small.ideaIds.length / size));
  return {
    name,
    pauseMs: Math.ceil(1100 / sets),
    next: (side) => {
      const s = w[side].small;
      const ideas = spread(s.ideaIds, size, turn[side]++ % sets);
      return { method: 'POST', path: `/api/site/${s.siteId}/vote`, auth: s[voter], body: ideas.map((ideaId) => ({ ideaId, opinion: 'yes' })), status: 200 };
    },
  };
}

const LIST_100 = 'list 100 ideas + vote count + user vote';
export const BY_VOTES_SMALL = 'page of 100 by votes, 100-idea site';
/** The same call as LIST_100, timed again next to its large-site twin for the growth figure. */
export const BY_DATE_SMALL = 'page of 100 by date, 100-idea site';
export const byVotesLarge = (n: number) => `page of 100 by votes, ${n.toLocaleString('en-US')}-idea site`;
export const byDateLarge = (n: number) => `page of 100 by date, ${n.toLocaleString('en-US')}-idea site`;

export function latencyCases(w: Worlds, largeIdeas: number): Case[] {
  return [
    list(LIST_100, w, 'small', 'createdate_desc', 100),
    {
      name: 'one idea + vote count + user vote + 50 arguments',
      next: (side) => {
        const s = w[side].small;
        return { path: `/api/site/${s.siteId}/idea/${s.detailIdeaId}?${FLAGS}&includeArguments=1`, auth: s.lister, status: 200 };
      },
    },
    list('list 10 ideas, same flags', w, 'small', 'createdate_desc', 10),
    voteRound('vote round of 20 replacing 20', w, 20, 'roundVoter'),
    voteRound('vote round of 1', w, 1, 'singleVoter'),
    {
      name: 'create an argument',
      next: (side) => {
        const s = w[side].small;
        return {
          method: 'POST',
          path: `/api/site/${s.siteId}/idea/${s.ideaIds[2]}/argument`,
          auth: s.arguer,
          body: { sentiment: 'for', description: 'A bench argument: a reason of a realistic length, a sentence or two long.' },
          status: side === 'ours' ? 201 : 200,
        };
      },
    },
    { name: 'GET one site', next: (side) => ({ path: `/api/site/${w[side].small.siteId}`, status: 200 }) },
    list(BY_VOTES_SMALL, w, 'small', 'votes_desc', 100),
    list(byVotesLarge(largeIdeas), w, 'large', 'votes_desc', 100),
    list(BY_DATE_SMALL, w, 'small', 'createdate_desc', 100),
    list(byDateLarge(largeIdeas), w, 'large', 'createdate_desc', 100),
  ];
}

/** Throughput: the same read again and again, `inFlight` at a time. */
export function loadCases(w: Worlds): Case[] {
  return [
    list('10-idea list, same flags', w, 'small', 'createdate_desc', 10),
    { name: 'GET one site', next: (side) => ({ path: `/api/site/${w[side].small.siteId}`, status: 200 }) },
  ];
}
