/** Ideas and articles (`IDEA#<id>` / `ARTICLE#<id>`), one shape: lib/store/content/content-items.ts. */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { contentStatus } from '#schemas/content-item';
import { keepingUnnamed, storedInstant, storedInt } from '#schemas/stored/read';

const contentItemShape = z.object({
  id: storedInt,
  siteId: storedInt,
  userId: z.nullable(storedInt),
  title: z.string(),
  summary: z.string(),
  description: z.string(),
  status: contentStatus,
  budget: z.nullable(z.number()),
  extraData: z.record(z.string(), z.unknown()),
  createdAt: storedInstant,
  updatedAt: storedInstant,
  /** Optimistic concurrency: every write increments it and is conditioned on the value it read. */
  version: storedInt,
  /** Ideas only; absent on older items (read as [] and null). */
  tags: z.optional(z.array(storedInt)),
  location: z.optional(z.nullable(z.object({ lat: z.number(), lng: z.number() }))),
});

export const storedContentItem = keepingUnnamed(contentItemShape);

/** The few fields arguments read of their idea (a projection; `status` may be absent on old items). */
export const storedContentRef = z.partial(z.pick(contentItemShape, { id: true, userId: true, status: true }), { status: true });
