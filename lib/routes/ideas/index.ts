/** Routes: Ideas, and the map markers of those with a location (discovery). In the order the document lists them. */
import type { Route } from '#lib/routes/route';
import { ideaList } from '#lib/routes/ideas/list';
import { ideaCreate } from '#lib/routes/ideas/create';
import { ideaGet } from '#lib/routes/ideas/get';
import { ideaUpdate } from '#lib/routes/ideas/update';
import { ideaDelete } from '#lib/routes/ideas/delete';
import { ideaMarkerList } from '#lib/routes/ideas/markers';

export const ideasRoutes: Route[] = [ideaList, ideaCreate, ideaGet, ideaUpdate, ideaDelete, ideaMarkerList];
