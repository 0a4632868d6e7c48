import { apiHandler } from '#lib/http/handler';
import { tagList } from '#lib/routes/tags/list';
import { list } from '#lib/http/response';
import { listTags } from '#lib/tags/service';

export const handler = apiHandler(tagList, async ({ site, query }) => {
  const page = await listTags(site, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
