/** Ideas and articles (`IDEA#<id>` / `ARTICLE#<id>`), one shape: lib/store/content-items.ts. */
import * as z from 'zod';
import { contentStatus } from '#schemas/content-item';
import { keepingUnnamed, storedInstant, storedInt } from '#schemas/stored/read';

const contentItemShape = z.object({
  id: storedInt,
  siteId: storedInt,
  userId: storedInt.nullable(),
  title: z.string(),
  summary: z.string(),
  description: z.string(),
  status: contentStatus,
  budget: z.number().nullable(),
  extraData: z.record(z.string(), z.unknown()),
  createdAt: storedInstant,
  updatedAt: storedInstant,
  /** Optimistic concurrency: every write increments it and is conditioned on the value it read. */
  version: storedInt,
  /** Ideas only (issue 18); absent on older items (read as [] and null). */
  tags: z.array(storedInt).optional(),
  location: z.object({ lat: z.number(), lng: z.number() }).nullable().optional(),
});

export const storedContentItem = keepingUnnamed(contentItemShape);
export type StoredContentItem = z.output<typeof storedContentItem>;

/** The few fields arguments read of their idea (a projection; `status` may be absent on old items). */
export const storedContentRef = contentItemShape.pick({ id: true, userId: true, status: true }).partial({ status: true });
