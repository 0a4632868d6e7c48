/** Routes: Articles: ideas without votes and arguments. In the order the document lists them. */
import type { Route } from '#lib/routes/route';
import { articleList } from '#lib/routes/articles/list';
import { articleCreate } from '#lib/routes/articles/create';
import { articleGet } from '#lib/routes/articles/get';
import { articleUpdate } from '#lib/routes/articles/update';
import { articleDelete } from '#lib/routes/articles/delete';

export const articlesRoutes: Route[] = [articleList, articleCreate, articleGet, articleUpdate, articleDelete];
