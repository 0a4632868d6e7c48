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
 * Pabulib is the exception: its rows are in voter id order across the whole export (the ids are random
 * per export), so every answer reads all the site's ballots and keeps the rows past the cursor's last
 * voter id; its answers are larger (PABULIB_PAGE_TARGET_BYTES) so that they are few.
 *
 * Requests: CSV, ceil(its bytes / 1 MB) Query pages per answer. Pabulib, every answer: ceil(all ballot
 * bytes / 1 MB) Query pages; page 1 adds the ideas and the tallies (one Query each).
 */
import { createHmac, randomBytes } from 'node:crypto';
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import { badRequest } from '#lib/errors';
import { csvRows, type Cell } from '#lib/results/csv';
import { ideaCsvPage } from '#lib/results/idea-export';
import { pabulibDate, pabulibHead, pabulibVoteLines, type PabulibProject, type PabulibVote } from '#lib/results/pabulib';
import { budgetOf, themeOf } from '#lib/results/compute';
import type { Site } from '#lib/sites/site';
import type { BallotItem } from '#lib/store/ballots/ballots';
import { decodeCursor, decodeCursorObject, encodeCursor, encodeCursorObject, type CursorScope } from '#lib/store/db/cursor';
import { sitePk, type Key } from '#lib/store/db/keys';
import { ballotKeys } from '#lib/store/ballots/keys';
import { contentKeys } from '#lib/store/content/keys';
import { readSiteIdeas, siteRangePage, type ExportRange, type SiteIdeaItem } from '#lib/store/ballots/site-ranges';
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

/** Text a Pabulib answer holds (about: it ends with the row that passes this); every answer reads all ballots, so answers are few and large (Lambda's limit is 6 MB). */
const PABULIB_PAGE_TARGET_BYTES = 4 * 1024 * 1024;

/**
 * A Pabulib file is meant to be published, so its voter ids link to nothing: an HMAC of site and user id
 * (16 hex digits) under a key drawn at random for each export on its first page, carried to the next
 * pages sealed inside the cursor (nothing is stored) and gone when the export ends. One voter has one
 * id throughout an export; two exports share none. The CSV export (admins' working file) shows user ids.
 */
const pabulibVoterId = (exportKey: Uint8Array, siteId: number, userId: number): string =>
  createHmac('sha256', exportKey).update(`${siteId}:${userId}`).digest('hex').slice(0, 16);

/** Where a Pabulib export stands: its key, and the last voter id written (null on the first page). */
interface PabulibPosition {
  key: Buffer;
  after: string | null;
}

const EXPORT_KEY_BYTES = 32;
const VOTER_ID = /^[0-9a-f]{16}$/;
const EXPORT_KEY = /^[A-Za-z0-9_-]{43}$/;

function pabulibPosition(cursor: string | undefined, scope: CursorScope): PabulibPosition {
  if (cursor === undefined) return { key: randomBytes(EXPORT_KEY_BYTES), after: null };
  const { key, after, ...rest } = decodeCursorObject(cursor, scope);
  if (typeof key !== 'string' || !EXPORT_KEY.test(key) || typeof after !== 'string' || !VOTER_ID.test(after) || Object.keys(rest).length > 0) {
    throw badRequest('Invalid cursor');
  }
  return { key: Buffer.from(key, 'base64url'), after };
}

/**
 * The VOTES rows of one answer, in voter id order across the whole export: every ballot is read (Query
 * pages of the ballot range), the rows past the last voter id written are sorted, and the answer ends
 * with the row that takes its text past the target. So a row's place says nothing of the ballot's key
 * (the user id), and each voter is on exactly one page, however the ballots change between pages.
 */
async function pabulibVoteRows(siteId: number, position: PabulibPosition, scope: CursorScope, bounds: PageBounds): Promise<{ text: string; voters: number; next: string | null }> {
  const rows: PabulibVote[] = [];
  let voters = 0;
  let start: Key | undefined;
  do {
    const page = await siteRangePage<BallotItem>(siteId, 'ballots', start, bounds.queryLimit);
    for (const ballot of page.items) {
      if (countedVotes(ballot).length === 0) continue; // an emptied ballot, or one of rejected votes only, is no voter
      voters += 1;
      const voterId = pabulibVoterId(position.key, siteId, ballot.userId);
      if (position.after === null || voterId > position.after) rows.push({ voterId, projectIds: approvalsOf(ballot) });
    }
    start = page.last;
  } while (start);
  rows.sort((a, b) => (a.voterId < b.voterId ? -1 : a.voterId > b.voterId ? 1 : 0));
  const lines: string[] = [];
  let bytes = 0;
  let written = 0;
  for (const line of pabulibVoteLines(rows)) {
    lines.push(line);
    bytes += Buffer.byteLength(line, 'utf8');
    written += 1;
    if (bytes >= bounds.bytes) break;
  }
  const next = written < rows.length ? encodeCursorObject({ key: position.key.toString('base64url'), after: rows[written - 1]!.voterId }, scope) : null;
  return { text: lines.join(''), voters, next };
}

/** META, PROJECTS and the VOTES header of a site (docs/results.md "Pabulib mapping"); `voters` as counted from the ballots. */
async function pabulibFirst(site: Site, now: Date, voters: number): Promise<string> {
  const [ideas, tallies] = await Promise.all([readSiteIdeas(site.id), readSiteTallies(site.id)]);
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
  bounds?: PageBounds,
): Promise<ExportPage> {
  access.results.export(caller, site.id);
  const scope = scopeOf(site.id, 'export-votes', query.format);
  if (query.format === 'csv') {
    const page = await pageThrough<BallotItem>(site.id, 'ballots', scope, query.cursor, voteCsv, bounds ?? DEFAULT_BOUNDS);
    const header = query.cursor === undefined ? csvRows([[...VOTE_CSV_COLUMNS]]) : '';
    return { contentType: 'text/csv; charset=utf-8', text: header + page.text, next: nextQuery('csv', page.next) };
  }
  if (!voteTypeRules(site.config.votes.voteType).pabulib) {
    throw badRequest(`Pabulib holds approval ballots; a ${site.config.votes.voteType} site exports its votes with format=csv`);
  }
  const page = await pabulibVoteRows(site.id, pabulibPosition(query.cursor, scope), scope, bounds ?? { bytes: PABULIB_PAGE_TARGET_BYTES });
  const head = query.cursor === undefined ? await pabulibFirst(site, clock(), page.voters) : '';
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
