/**
 * OpenStad's list answers: a bare array of the whole list, or with `page` its envelope
 * `{metadata: {page, pageSize, pageCount, totalCount, links}, records}` (openstad-api's
 * middleware/pagination.js, links included); its idea sorts and `filters[...]` / `exclude[...]`,
 * applied to the whole list, which the adapter reads anyway to answer whole.
 */
type Rec = Record<string, unknown>;

/** The sorts the main API serves itself (the rest are OpenStad's, applied here). */
export const MAIN_SORTS = new Set(['createdate_asc', 'createdate_desc', 'votes_asc', 'votes_desc', 'distance']);

const time = (record: Rec, key: string) => Date.parse(String(record[key] ?? '')) || 0;
const num = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** OpenStad's default order ("date_desc"): ACCEPTED, OPEN, BUSY, then the rest, DENIED last; newest first within. */
const STATUS_WEIGHT: Record<string, number> = { ACCEPTED: 4, OPEN: 3, BUSY: 2, DENIED: 0 };
const statusWeight = (record: Rec) => STATUS_WEIGHT[String(record['status'])] ?? 1;

/**
 * Sorts ideas as OpenStad's `sort` did; a sort it did not know is its default (`date_desc`).
 * Two of its sorts are mended here: `title` and `budget_asc|desc` fell back to other orders in
 * openstad-api, while its CMS offers them by those names. `ranking` needs the counts: without them
 * (hidden from this caller) it is the default order.
 */
export function sortIdeas(records: Rec[], sort: string | undefined, random: () => number = Math.random): Rec[] {
  const list = [...records];
  switch (sort) {
    case undefined:
    case 'createdate_asc':
    case 'createdate_desc':
    case 'votes_asc':
    case 'votes_desc':
    case 'distance':
      return list; // in the main API's order
    case 'random':
      for (let i = list.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [list[i], list[j]] = [list[j]!, list[i]!];
      }
      return list;
    case 'title':
      return list.sort((a, b) => String(a['title']).localeCompare(String(b['title']), 'nl'));
    case 'budget_asc':
    case 'budget_desc': {
      const dir = sort === 'budget_asc' ? 1 : -1;
      return list.sort((a, b) => {
        const x = num(a['budget']);
        const y = num(b['budget']);
        if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
        return dir * (x - y);
      });
    }
    case 'date_asc':
      return list.sort((a, b) => time(a, 'createdAt') - time(b, 'createdAt'));
    case 'ranking':
    case 'rankinginverse':
      if (list.some((r) => num(r['yes']) === undefined)) return sortIdeas(list, 'date_desc');
      list.sort((a, b) => rank(b) - rank(a));
      return sort === 'ranking' ? list : list.reverse();
    default:
      return list.sort((a, b) => statusWeight(b) - statusWeight(a) || time(b, 'createdAt') - time(a, 'createdAt'));
  }
}

const rank = (r: Rec) => (r['status'] === 'DENIED' ? -10000 : (num(r['yes']) ?? 0) - (num(r['no']) ?? 0));

/** A filter key reads the record's own field (`id`, `title`) or its extraData (`theme`, `area`, ...). */
const valueOf = (record: Rec, key: string): unknown => {
  if (key === 'id' || key === 'title' || key === 'status') return record[key];
  const extra = record['extraData'];
  return typeof extra === 'object' && extra !== null ? (extra as Rec)[key] : undefined;
};

/** Keeps the records matching every include filter (any of its values) and none of the exclude values. */
export function filterRecords(records: Rec[], include: ReadonlyMap<string, string[]>, exclude: ReadonlyMap<string, string[]>): Rec[] {
  if (include.size === 0 && exclude.size === 0) return records;
  return records.filter((record) => {
    for (const [key, values] of include) if (values.length > 0 && !values.includes(String(valueOf(record, key)))) return false;
    for (const [key, values] of exclude) if (values.includes(String(valueOf(record, key)))) return false;
    return true;
  });
}

/** openstad-api's page envelope, its links built from the request's own path and query. */
export function pageEnvelope(records: unknown[], page: number, pageSize: number, url: { path: string; query: string | undefined }) {
  const totalCount = records.length;
  const pageCount = Math.ceil(totalCount / pageSize);
  const linkTo = (p: number) => {
    const params = new URLSearchParams(url.query ?? '');
    params.set('page', String(p));
    params.set('pageSize', String(pageSize));
    return `${url.path}?${params.toString()}`;
  };
  const links: Record<string, string> = { self: linkTo(page), first: linkTo(0), last: linkTo(Math.max(0, pageCount - 1)) };
  if (page > 0) links['previous'] = linkTo(page - 1);
  if (page < pageCount - 1) links['next'] = linkTo(page + 1);
  return {
    metadata: { page, pageSize, pageCount, totalCount, links },
    records: records.slice(page * pageSize, (page + 1) * pageSize),
  };
}
