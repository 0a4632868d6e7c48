/**
 * `GET .../export/votes?format=pabulib|csv` and `GET .../export/ideas?format=csv` (CONTRACT "Decided
 * details, results and exports"): admin and service token; text, paged.
 *
 * Paging: an answer reads Query pages of the site's ballot (or idea) range, each at most 1 MB of
 * items read, and stops adding pages once its text has passed PAGE_TARGET_BYTES; the text of one Query
 * page is about the size of what it read (a CSV row per vote is no longer than the vote in the
 * ballot map), so an answer stays near 1-3 MB, far below Lambda's 6 MB (also once JSON-escaped for
 * the proxy payload), whatever the number of ballots. The next page is a sealed cursor (bound to the
 * site, the list and the format) in `?cursor=` and a `Link: <...>; rel="next"` header; the first page
 * carries the header (CSV header row; Pabulib META, PROJECTS and the VOTES header), so the pages
 * concatenated are the whole file.
 *
 * Requests: page 1 of Pabulib reads the ideas, the tallies (one BatchGet) and counts the voting
 * ballots (a COUNT Query, one page per 1 MB); every page then reads ceil(its bytes / 1 MB) Query pages.
 */
import { createHmac } from 'node:crypto';
import * as access from '#lib/auth/access';
import { purposeKey } from '#lib/crypto/derive-key';
import type { Caller } from '#lib/auth/caller';
import { badRequest } from '#lib/errors';
import { csvRows, type Cell } from '#lib/results/csv';
import { ideaCsvPage } from '#lib/results/idea-export';
import { pabulibDate, pabulibHead, pabulibVoteLines, type PabulibProject } from '#lib/results/pabulib';
import { budgetOf, themeOf } from '#lib/results/compute';
import type { Site } from '#lib/sites/site';
import type { BallotItem } from '#lib/store/ballots/ballots';
import { decodeCursor, encodeCursor, type CursorScope } from '#lib/store/db/cursor';
import { sitePk, type Key } from '#lib/store/db/keys';
import { ballotKeys } from '#lib/store/ballots/keys';
import { contentKeys } from '#lib/store/content/keys';
import { countVotingBallots, readSiteIdeas, siteRangePage, type ExportRange, type SiteIdeaItem } from '#lib/store/ballots/site-ranges';
import { readSiteTallies } from '#lib/store/ideas/tallies';
import { votesOfBallot } from '#lib/votes/records';
import type { Tally } from '#lib/votes/types';
import { voteTypeRules } from '#schemas/vote-types';

/** An answer stops reading Query pages once its text is this long (see above). */
const PAGE_TARGET_BYTES = 1024 * 1024;

const VOTE_CSV_COLUMNS = ['id', 'userId', 'ideaId', 'opinion', 'createdAt'] as const;

/** How an answer is cut: the text target, and (tests only) a cap on the items per Query page. */
interface PageBounds {
  bytes: number;
  queryLimit?: number;
}

const DEFAULT_BOUNDS: PageBounds = { bytes: PAGE_TARGET_BYTES };

interface ExportPage {
  contentType: string;
  text: string;
  /** The query string of the next page (`format=...&cursor=...`), null at the end. */
  next: string | null;
}

const APPROVAL = 'yes';

const scopeOf = (siteId: number, list: string, format: string): CursorScope => ({ siteId, list, query: { format } });

/** Reads Query pages from the cursor's position until the text passes the target; returns text and the next position. */
async function pageThrough<T>(
  siteId: number,
  range: ExportRange,
  scope: CursorScope,
  cursor: string | undefined,
  write: (items: T[]) => string,
  bounds: PageBounds,
): Promise<{ text: string; next: string | null }> {
  const prefix = range === 'ballots' ? ballotKeys.ballotPrefix : contentKeys.ideaPrefix;
  let start: Key | undefined = decodeCursor(cursor, scope, { values: { PK: sitePk(siteId) }, skPrefix: prefix, keyAttributes: ['PK', 'SK'] }) as
    | Key
    | undefined;
  const parts: string[] = [];
  let bytes = 0;
  do {
    const page = await siteRangePage<T>(siteId, range, start, bounds.queryLimit);
    const text = write(page.items);
    parts.push(text);
    bytes += Buffer.byteLength(text, 'utf8');
    start = page.last;
  } while (start && bytes < bounds.bytes);
  const next = encodeCursor(start as Record<string, unknown> | undefined, scope);
  return { text: parts.join(''), next };
}

const nextQuery = (format: string, cursor: string | null) =>
  cursor === null ? null : `format=${format}&cursor=${encodeURIComponent(cursor)}`;

function voteCsv(ballots: BallotItem[]): string {
  const rows: Cell[][] = ballots.flatMap((ballot) =>
    countedVotes(ballot).map((vote) => [vote.id, ballot.userId, vote.ideaId, vote.opinion, vote.createdAt]),
  );
  return csvRows(rows);
}

/** The ballot's votes that count: a vote a moderator rejected is in no export. */
const countedVotes = (ballot: BallotItem) => votesOfBallot(ballot.votes).filter((vote) => !vote.review?.rejected);

const approvalsOf = (ballot: BallotItem) => countedVotes(ballot).filter((v) => v.opinion === APPROVAL).map((v) => v.ideaId);

/**
 * A Pabulib file is meant to be published: its voter ids are opaque (an HMAC of site and user id under
 * a key derived from the server secret, 16 hex digits), stable across pages and exports of the same
 * site, and say nothing about user ids. The CSV export (admins' working file) shows user ids.
 */
export const pabulibVoterId = (siteId: number, userId: number): string =>
  createHmac('sha256', purposeKey('pabulibVoter')).update(`${siteId}:${userId}`).digest('hex').slice(0, 16);

function pabulibVotes(siteId: number) {
  return (ballots: BallotItem[]): string => {
    const voting = ballots.filter((ballot) => countedVotes(ballot).length > 0);
    // Rows in pseudonym order, not ballot-key (user id) order: a row's place tells nothing of who signed up when.
    const rows = voting.map((ballot) => ({ voterId: pabulibVoterId(siteId, ballot.userId), projectIds: approvalsOf(ballot) })).sort((a, b) => (a.voterId < b.voterId ? -1 : 1));
    return [...pabulibVoteLines(rows)].join('');
  };
}

/** META, PROJECTS and the VOTES header of a site (docs/results.md "Pabulib mapping"). */
async function pabulibFirst(site: Site, now: Date): Promise<string> {
  const [ideas, tallies, voters] = await Promise.all([readSiteIdeas(site.id), readSiteTallies(site.id), countVotingBallots(site.id)]);
  const votes = site.config.votes;
  const projects: PabulibProject[] = ideas.map((idea) => {
    const theme = themeOf(idea);
    return {
      id: idea.id,
      cost: budgetOf(idea) ?? 0,
      votes: tallies.get(idea.id)?.[APPROVAL] ?? 0,
      name: idea.title,
      ...(theme !== null ? { category: [theme] } : {}),
    };
  });
  const totalCost = projects.reduce((sum, p) => sum + p.cost, 0);
  const begin = votes.isActiveFrom ?? (site as { createdAt?: string }).createdAt ?? now.toISOString();
  const end = votes.isActiveTo ?? now.toISOString();
  const head = pabulibHead(
    {
      description: site.title ?? site.name,
      country: '',
      unit: site.name,
      instance: String(site.id),
      num_votes: voters,
      budget: votes.maxBudget ?? totalCost,
      vote_type: 'approval',
      rule: 'unknown',
      date_begin: safeDate(begin, now),
      date_end: safeDate(end, now),
      extra: { min_length: votes.minIdeas, max_length: votes.maxIdeas, vote_type_api: votes.voteType },
    },
    projects,
  );
  return [...head].join('');
}

const safeDate = (iso: string, now: Date) => {
  try {
    return pabulibDate(iso);
  } catch {
    return pabulibDate(now.toISOString());
  }
};

export async function exportVotes(
  site: Site,
  caller: Caller,
  query: { format: 'pabulib' | 'csv'; cursor?: string | undefined },
  clock: () => Date = () => new Date(),
  bounds: PageBounds = DEFAULT_BOUNDS,
): Promise<ExportPage> {
  access.results.export(caller, site.id);
  const scope = scopeOf(site.id, 'export-votes', query.format);
  if (query.format === 'csv') {
    const page = await pageThrough<BallotItem>(site.id, 'ballots', scope, query.cursor, voteCsv, bounds);
    const header = query.cursor === undefined ? csvRows([[...VOTE_CSV_COLUMNS]]) : '';
    return { contentType: 'text/csv; charset=utf-8', text: header + page.text, next: nextQuery('csv', page.next) };
  }
  if (!voteTypeRules(site.config.votes.voteType).pabulib) {
    throw badRequest(`Pabulib holds approval ballots; a ${site.config.votes.voteType} site exports its votes with format=csv`);
  }
  const [head, page] = await Promise.all([
    query.cursor === undefined ? pabulibFirst(site, clock()) : Promise.resolve(''),
    pageThrough<BallotItem>(site.id, 'ballots', scope, query.cursor, pabulibVotes(site.id), bounds),
  ]);
  return { contentType: 'text/plain; charset=utf-8', text: head + page.text, next: nextQuery('pabulib', page.next) };
}

export async function exportIdeas(
  site: Site,
  caller: Caller,
  query: { format: 'csv'; cursor?: string | undefined },
  bounds: PageBounds = DEFAULT_BOUNDS,
): Promise<ExportPage> {
  access.results.export(caller, site.id);
  const scope = scopeOf(site.id, 'export-ideas', query.format);
  // The tallies of every votable idea: a Query of GSI3, which holds only tally items.
  const tallies: Tally = await readSiteTallies(site.id);
  let first = query.cursor === undefined;
  const page = await pageThrough<SiteIdeaItem>(site.id, 'ideas', scope, query.cursor, (ideas) => {
    const text = ideaCsvPage(
      ideas.map((idea) => ({ id: idea.id, title: idea.title, status: idea.status, budget: budgetOf(idea), theme: themeOf(idea), createdAt: idea.createdAt })),
      tallies,
      first,
    );
    first = false;
    return text;
  }, bounds);
  return { contentType: 'text/csv; charset=utf-8', text: page.text, next: nextQuery('csv', page.next) };
}
