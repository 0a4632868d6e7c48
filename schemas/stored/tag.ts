/** Tags (`TAG#<t>`) of a site: lib/store/tags.ts. */
import * as z from 'zod';
import { keepingUnnamed, storedInstant, storedInt } from '#schemas/stored/read';

const tagShape = z.object({
  id: storedInt,
  siteId: storedInt,
  name: z.string(),
  group: z.string().nullable(),
  createdAt: storedInstant,
  updatedAt: storedInstant,
  /** The guard's (group, name) key parts, as normalised by the domain. */
  nameKey: z.object({ group: z.string(), name: z.string() }),
  /** Set while the tag is being deleted (a tombstone). */
  deletingAt: z.string().optional(),
});

export const storedTag = keepingUnnamed(tagShape);
export type StoredTag = z.output<typeof storedTag>;

/** What the idea writes check of their tags (a projection): the id, and whether it is a tombstone. */
export const storedTagLiveness = tagShape.pick({ id: true, deletingAt: true });
