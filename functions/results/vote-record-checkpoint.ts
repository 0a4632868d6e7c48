import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { voteRecordCheckpoint } from '#lib/routes/results/vote-record';
import { latestCheckpoint } from '#lib/votes/record';

export const handler = apiHandler(voteRecordCheckpoint, async ({ site, caller }) => ok(await latestCheckpoint(site, caller)));
