/** The projection of ideas that results and exports read (lib/store/site-reads.ts): each field checked. */
import * as z from 'zod';
import { keepingUnnamed, storedInstant, storedInt } from '#schemas/stored/read';

export const storedSiteIdea = keepingUnnamed(
  z.object({
    id: storedInt,
    title: z.string(),
    status: z.string(),
    budget: z.number().nullable().optional(),
    extraData: z.object({ theme: z.unknown().optional() }).optional(),
    createdAt: storedInstant,
  }),
);
export type StoredSiteIdea = z.output<typeof storedSiteIdea>;
