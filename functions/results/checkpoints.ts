import * as access from '#lib/auth/access';
import { apiHandler } from '#lib/http/handler';
import { voteCheckpointList } from '#lib/routes/results/checkpoints';
import { list } from '#lib/http/response';
import { listVoteCheckpoints } from '#lib/votes/checkpoints';

export const handler = apiHandler(
  { ...voteCheckpointList, authorize: (caller) => access.results.checkpoints(caller) },
  async ({ site, caller, query }) => {
    const page = await listVoteCheckpoints(site, caller, query);
    return list(page.records, query.pageSize, page.nextCursor);
  },
);
