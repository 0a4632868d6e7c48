import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { voteReceiptGet } from '#lib/routes/results/vote-record';
import { receiptProof, receiptReads } from '#lib/votes/record';

/** The receipt's place in the log joins the site in the request's first read: 3 requests in all. */
export const handler = apiHandler({ ...voteReceiptGet, prefetch: receiptReads }, async ({ site, caller, params }) =>
  ok(await receiptProof(site, caller, params.receipt)),
);
