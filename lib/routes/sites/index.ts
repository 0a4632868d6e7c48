/** Routes: Sites and their configuration. In the order the document lists them. */
import type { Route } from '#lib/routes/route';
import { siteList } from '#lib/routes/sites/list';
import { siteCreate } from '#lib/routes/sites/create';
import { siteGet } from '#lib/routes/sites/get';
import { siteUpdate } from '#lib/routes/sites/update';
import { sitePatch } from '#lib/routes/sites/patch';
import { siteDelete } from '#lib/routes/sites/delete';

export const sitesRoutes: Route[] = [siteList, siteCreate, siteGet, siteUpdate, sitePatch, siteDelete];
