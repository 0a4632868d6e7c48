/** The site item (`SITE#<s>` / `SITE`): lib/store/sites/sites.ts. */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import type { SiteConfigInput } from '#schemas/site-config';
import { isPlainObject, keepingUnnamed, storedInstant, storedInt } from '#schemas/stored/read';

export const storedSite = keepingUnnamed(
  z.object({
    id: storedInt,
    name: z.string(),
    // Absent on a site written without them; the domain reads absent as null (lib/sites/site.ts).
    title: z._default(z.nullable(z.string()), null),
    domain: z._default(z.nullable(z.string()), null),
    // Checked in full on every write (schemas/site-config.ts). Every request reads its site, so a read
    // checks the object, not each of its settings.
    config: z.custom<SiteConfigInput>(isPlainObject, { message: 'must be an object' }),
    createdAt: storedInstant,
    updatedAt: storedInstant,
  }),
);
export type StoredSite = z.output<typeof storedSite>;
