/** Routes: Users of a site, their activity, anonymization and data export. In the order the document lists them. */
import type { Route } from '#lib/routes/route';
import { userList } from '#lib/routes/users/list';
import { userCreate } from '#lib/routes/users/create';
import { userGet } from '#lib/routes/users/get';
import { userUpdate } from '#lib/routes/users/update';
import { userDelete } from '#lib/routes/users/delete';
import { userActivity } from '#lib/routes/users/activity';
import { userWillAnonymize, userWillAnonymizePut } from '#lib/routes/users/will-anonymize';
import { userWillAnonymizeAll, userWillAnonymizeAllPut } from '#lib/routes/users/will-anonymize-all';
import { userDoAnonymize } from '#lib/routes/users/do-anonymize';
import { userDoAnonymizeAll } from '#lib/routes/users/do-anonymize-all';
import { userExport } from '#lib/routes/users/export';

export const usersRoutes: Route[] = [userList, userCreate, userGet, userUpdate, userDelete, userActivity, userWillAnonymize, userWillAnonymizePut, userWillAnonymizeAll, userWillAnonymizeAllPut, userDoAnonymize, userDoAnonymizeAll, userExport];
