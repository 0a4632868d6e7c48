/** The projection of ideas that results and exports read (lib/store/ballots/site-ranges.ts): each field checked. */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { keepingUnnamed, storedInstant, storedInt } from '#schemas/stored/read';

export const storedSiteIdea = keepingUnnamed(
  z.object({
    id: storedInt,
    title: z.string(),
    status: z.string(),
    budget: z.optional(z.nullable(z.number())),
    extraData: z.optional(z.object({ theme: z.optional(z.unknown()) })),
    createdAt: storedInstant,
  }),
);
export type StoredSiteIdea = z.output<typeof storedSiteIdea>;
