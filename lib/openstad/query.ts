/**
 * OpenStad's query strings, read leniently (as openstad-api did with express's qs parser): nested keys
 * (`filters[theme]=x`, `exclude[theme][0]=x`, `tags[0]=1`, `search[criteria][0][title]=x`), empty
 * values ignored, and a value the main API would refuse dropped instead of answered with a 400. What
 * the main API takes goes to it; what only OpenStad had (`page`, its sorts, extraData filters) stays
 * with the adapter.
 */
import type * as z from 'zod/mini';

export interface OpenStadQuery {
  /** Flat parameters for the main API (before the lenient check against its schema). */
  main: Record<string, string>;
  /** 0-based page, when asked for (then the answer is the page envelope). */
  page: number | undefined;
  pageSize: number;
  sort: string | undefined;
  /** extraData / field filters by key: include (any of the values) and exclude. */
  filters: Map<string, string[]>;
  exclude: Map<string, string[]>;
}

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 500;

/** `a[b][c]` -> ['a', 'b', 'c']. */
const pathOf = (key: string): string[] => {
  const head = /^[^[]*/.exec(key)![0];
  return [head, ...[...key.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!)];
};

const wholeNumber = (value: string | undefined): number | undefined =>
  value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : undefined;

export function readOpenStadQuery(rawQueryString: string | undefined): OpenStadQuery {
  const params = new URLSearchParams(rawQueryString ?? '');
  const main: Record<string, string> = {};
  const filters = new Map<string, string[]>();
  const exclude = new Map<string, string[]>();
  const tags: string[] = [];
  const search: string[] = [];
  for (const [key, raw] of params) {
    const value = raw.trim();
    if (value === '') continue;
    const [head, second, , fourth] = pathOf(key);
    if (head === 'filters' || head === 'exclude') {
      if (!second) continue;
      const into = head === 'filters' ? filters : exclude;
      into.set(second, [...(into.get(second) ?? []), ...value.split(',').map((v) => v.trim()).filter(Boolean)]);
    } else if (head === 'tags') {
      tags.push(...value.split(',').map((v) => v.trim()).filter(Boolean));
    } else if (head === 'search') {
      // `search=words`, or OpenStad's criteria: search[criteria][0][title|text|summary|description]=words
      if (second === undefined || (second === 'criteria' && fourth !== undefined)) search.push(value);
    } else if (second === undefined) {
      main[head!] = value;
    }
  }
  if (tags.length > 0) main['tags'] = tags.join(',');
  if (search.length > 0) main['search'] = search.join(' ');
  const page = wholeNumber(main['page']);
  const size = wholeNumber(main['pageSize']);
  const sort = main['sort'];
  delete main['page'];
  delete main['pageSize'];
  delete main['sort'];
  delete main['cursor'];
  return {
    main,
    page,
    pageSize: size !== undefined && size >= 1 ? Math.min(size, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE,
    sort,
    filters,
    exclude,
  };
}

/**
 * The parameters the main route accepts: each one its schema refuses is read as OpenStad would (a
 * flag given any other non-empty value is on), else left out.
 */
export function lenientQuery(schema: z.core.$ZodType | undefined, query: Record<string, string>): Record<string, string> {
  if (!schema) return query;
  const failing = (candidate: Record<string, string>): Set<string> | undefined => {
    const parsed = (schema as unknown as { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } }).safeParse(candidate);
    return parsed.success ? undefined : new Set((parsed.error?.issues ?? []).map((issue) => String(issue.path[0] ?? '')));
  };
  const out = { ...query };
  for (let round = 0; round <= Object.keys(query).length; round++) {
    const keys = failing(out);
    if (!keys) return out;
    if (keys.has('')) return {};
    for (const key of keys) {
      const value = out[key];
      // A flag (a key that takes `true`) given any other non-empty value is on; anything else goes.
      const isFlag = value !== undefined && value !== '0' && value.toLowerCase() !== 'false' && !failing({ ...out, [key]: 'true' })?.has(key);
      if (isFlag) out[key] = '1';
      else Reflect.deleteProperty(out, key);
    }
  }
  return {};
}
