/**
 * A Lambda response may not exceed 6 MB (API Gateway then answers 500 instead of our page). A list
 * page of large records (256 KiB of extraData each, or ideas with many arguments) can pass that, so
 * pages are cut to a byte budget and continue from a cursor after the last record kept; CONTRACT
 * allows a page to hold fewer than `pageSize` records for exactly this reason.
 */
import type { ContentPage } from '#lib/store/content/content-items';

/** Room is left for the envelope, the headers and the event wrapper around the body. */
const PAGE_BYTE_BUDGET = 5 * 1024 * 1024;

/**
 * How many of `records` fit in the budget, counting each as it will travel: JSON, then escaped once
 * more as the string `body` of the Lambda response. At least one, so paging always advances.
 */
function countWithinBudget(records: readonly unknown[], budget = PAGE_BYTE_BUDGET): number {
  let used = 0;
  for (let i = 0; i < records.length; i++) {
    used += Buffer.byteLength(JSON.stringify(JSON.stringify(records[i]))) + 1;
    if (used > budget) return Math.max(1, i);
  }
  return records.length;
}

/** A list page cut to the budget; `records[i]` is the record of `page.items[i]`. */
export function fitPage<R>(records: R[], page: ContentPage): { records: R[]; nextCursor: string | null } {
  const kept = countWithinBudget(records);
  if (kept === records.length) return { records, nextCursor: page.nextCursor };
  return { records: records.slice(0, kept), nextCursor: page.cursorAfter(page.items[kept - 1]!) };
}
