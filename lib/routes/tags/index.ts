/** Routes: Tags of a site (discovery). In the order the document lists them. */
import type { Route } from '#lib/routes/route';
import { tagList } from '#lib/routes/tags/list';
import { tagCreate } from '#lib/routes/tags/create';
import { tagUpdate } from '#lib/routes/tags/update';
import { tagDelete } from '#lib/routes/tags/delete';

export const tagsRoutes: Route[] = [tagList, tagCreate, tagUpdate, tagDelete];
