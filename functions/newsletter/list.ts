import { apiHandler } from '#lib/http/handler';
import { newsletterSignupList } from '#lib/routes/newsletter/list';
import { list } from '#lib/http/response';
import { listSignups } from '#lib/newsletter/service';

export const handler = apiHandler(newsletterSignupList, async ({ site, caller, query }) => {
  const page = await listSignups(caller, site, query);
  return list(page.records, query.pageSize, page.nextCursor);
});
