import * as access from '#lib/auth/access';
import { apiHandler } from '#lib/http/handler';
import { list } from '#lib/http/response';
import { listVoteCheckpoints } from '#lib/votes/checkpoints';
import { siteParams } from '#schemas/common';
import { listCheckpointsQuery } from '#schemas/results';

export const handler = apiHandler(
  { params: siteParams, query: listCheckpointsQuery, authorize: (caller) => access.results.checkpoints(caller) },
  async ({ site, caller, query }) => {
    const page = await listVoteCheckpoints(site, caller, query);
    return list(page.records, query.pageSize, page.nextCursor);
  },
);
