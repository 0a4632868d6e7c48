import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { voteRecordConsistency } from '#lib/routes/results/vote-record';
import { consistency } from '#lib/votes/record';

export const handler = apiHandler(voteRecordConsistency, async ({ site, caller, query }) => ok(await consistency(site, caller, query.from, query.to)));
