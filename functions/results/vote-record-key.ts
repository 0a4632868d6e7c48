import { apiHandler } from '#lib/http/handler';
import { ok } from '#lib/http/response';
import { voteRecordKey } from '#lib/routes/results/vote-record';
import { voteRecordKey as publishedVoteRecordKey } from '#lib/votes/record';

export const handler = apiHandler(voteRecordKey, async () => ok(publishedVoteRecordKey()));
