import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { voteRecordConsistency } from '#lib/routes/results/vote-record';
import { consistency } from '#lib/votes/record';

export const handler = apiHandler(voteRecordConsistency, async ({ site, query }) => ok(await consistency(site.id, query.from, query.to)));
