import { apiHandler } from '#lib/http/handler';
import { userList } from '#lib/routes/users/list';
import { list } from '#lib/http/response';
import { listUsers } from '#lib/users/service';

export const handler = apiHandler(userList, async ({ site, caller, query }) => {
  const page = await listUsers(site, caller, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
