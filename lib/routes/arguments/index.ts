/** Routes: Arguments for and against ideas, and votes on arguments. In the order the document lists them. */
import type { Route } from '#lib/routes/route';
import { argumentListSite } from '#lib/routes/arguments/list-site';
import { argumentList } from '#lib/routes/arguments/list';
import { argumentCreate } from '#lib/routes/arguments/create';
import { argumentGet } from '#lib/routes/arguments/get';
import { argumentUpdate } from '#lib/routes/arguments/update';
import { argumentDelete } from '#lib/routes/arguments/delete';
import { argumentVote } from '#lib/routes/arguments/vote';

export const argumentsRoutes: Route[] = [argumentListSite, argumentList, argumentCreate, argumentGet, argumentUpdate, argumentDelete, argumentVote];
