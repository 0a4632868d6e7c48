/** Tags (`TAG#<t>`) of a site: lib/store/tags/tags.ts. */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { keepingUnnamed, storedInstant, storedInt } from '#schemas/stored/read';

const tagShape = z.object({
  id: storedInt,
  siteId: storedInt,
  name: z.string(),
  group: z.nullable(z.string()),
  createdAt: storedInstant,
  updatedAt: storedInstant,
  /** The guard's (group, name) key parts, as normalised by the domain. */
  nameKey: z.object({ group: z.string(), name: z.string() }),
  /** Set while the tag is being deleted (a tombstone). */
  deletingAt: z.optional(z.string()),
});

export const storedTag = keepingUnnamed(tagShape);
export type StoredTag = z.output<typeof storedTag>;

/** What the idea writes check of their tags (a projection): the id, and whether it is a tombstone. */
export const storedTagLiveness = z.pick(tagShape, { id: true, deletingAt: true });
