/**
 * A writer for the Pabulib `.pb` format (pabulib.org; "The .pb File Format", the format description that
 * equalshares.net's compute tool ships as pb_file_format.md): three sections, META, PROJECTS and VOTES,
 * each a title line, a header line and semicolon-separated rows, quoted like CSV where a value contains
 * `;` or `"` (done by csv-stringify). Line breaks inside a text value become spaces, since readers of
 * the format go line by line.
 *
 * Streaming-friendly: every function yields lines (each ending in "\n"), so a paged export can write
 * `pabulibHead` (META, PROJECTS and the VOTES header) on its first page and `pabulibVoteLines` for each
 * page of ballots after that; `pabulibFile` chains them for a whole file.
 *
 * Mapping (docs/results.md): one project per idea (`project_id` = idea id, `cost` = budget, `votes`,
 * `name` = title, `category` = theme), one voter per ballot (`voter_id` = an opaque id the caller
 * chooses, `vote` = the approved idea ids), `vote_type` approval (budgeting and count sites).
 */
import { stringify } from 'csv-stringify/sync';

export type PabulibRule = 'greedy' | 'equalshares' | 'equalshares/add1' | 'unknown';

/** The mandatory META keys except `num_projects` (counted from the projects), plus optional ones. */
export interface PabulibMeta {
  description: string;
  country: string;
  unit: string;
  instance: string;
  num_votes: number;
  budget: number;
  vote_type: 'approval';
  rule: PabulibRule;
  /** `dd.mm.yyyy` (see `pabulibDate`) or a year. */
  date_begin: string;
  date_end: string;
  /** Optional keys of the format (min_length, max_length, min_sum_cost, max_sum_cost, currency, subunit, comment, ...), in this order. */
  extra?: Record<string, string | number>;
}

export interface PabulibProject {
  id: number;
  cost: number;
  votes?: number;
  name?: string;
  /** Categories, written comma-separated. */
  category?: readonly string[];
  selected?: 0 | 1;
}

export interface PabulibVote {
  voterId: string;
  projectIds: readonly number[];
}

const REQUIRED_ORDER = [
  'description',
  'country',
  'unit',
  'instance',
  'num_projects',
  'num_votes',
  'budget',
  'vote_type',
  'rule',
  'date_begin',
  'date_end',
] as const;

const OPTIONAL_PROJECT_COLUMNS = ['votes', 'name', 'category', 'selected'] as const;

const oneLine = (value: string | number): string | number => (typeof value === 'string' ? value.replace(/\r\n|\r|\n/g, ' ') : value);

/** One `;`-separated line, quoted where needed. */
function line(cells: readonly (string | number)[]): string {
  return stringify([cells.map(oneLine)], { delimiter: ';', record_delimiter: 'unix' });
}

/** `dd.mm.yyyy` of an ISO date-time, in UTC. */
export function pabulibDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a date: ${iso}`);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCDate())}.${two(date.getUTCMonth() + 1)}.${date.getUTCFullYear()}`;
}

/** META, PROJECTS and the VOTES title and header: the first page of a paged export. */
export function* pabulibHead(meta: PabulibMeta, projects: readonly PabulibProject[]): Generator<string> {
  const values: Record<(typeof REQUIRED_ORDER)[number], string | number> = { ...meta, num_projects: projects.length };
  yield 'META\n';
  yield line(['key', 'value']);
  for (const key of REQUIRED_ORDER) yield line([key, values[key]]);
  for (const [key, value] of Object.entries(meta.extra ?? {})) {
    if ((REQUIRED_ORDER as readonly string[]).includes(key)) throw new RangeError(`META key ${key} is set twice`);
    yield line([key, value]);
  }

  const optional = OPTIONAL_PROJECT_COLUMNS.filter((column) => projects.some((project) => project[column] !== undefined));
  yield 'PROJECTS\n';
  yield line(['project_id', 'cost', ...optional]);
  for (const project of [...projects].sort((a, b) => a.id - b.id)) {
    const cells = optional.map((column) => {
      const value = project[column];
      if (value === undefined) return '';
      return Array.isArray(value) ? value.join(',') : (value as string | number);
    });
    yield line([project.id, project.cost, ...cells]);
  }

  yield 'VOTES\n';
  yield line(['voter_id', 'vote']);
}

/** VOTES rows, one per ballot, idea ids ascending; a page at a time. */
export function* pabulibVoteLines(votes: Iterable<PabulibVote>): Generator<string> {
  for (const vote of votes) {
    const ids = [...new Set(vote.projectIds)].sort((a, b) => a - b);
    yield line([vote.voterId, ids.join(',')]);
  }
}

/** A whole `.pb` file; `meta.num_votes` must be the number of votes given. */
export function* pabulibFile(meta: PabulibMeta, projects: readonly PabulibProject[], votes: readonly PabulibVote[]): Generator<string> {
  if (meta.num_votes !== votes.length) throw new RangeError(`num_votes is ${meta.num_votes} but ${votes.length} votes were given`);
  yield* pabulibHead(meta, projects);
  yield* pabulibVoteLines(votes);
}
