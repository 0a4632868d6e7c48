/** Routes: Newsletter signups and their confirmation. In the order the document lists them. */
import type { Route } from '#lib/routes/route';
import { newsletterSignupList } from '#lib/routes/newsletter/list';
import { newsletterSignupCreate } from '#lib/routes/newsletter/create';
import { newsletterConfirm } from '#lib/routes/newsletter/confirm';

export const newsletterRoutes: Route[] = [newsletterSignupList, newsletterSignupCreate, newsletterConfirm];
