/** Arguments (`ARG#<idea>#<id>`), with their votes on the item: lib/store/arguments/arguments.ts. */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { storedInstant, storedInt } from '#schemas/stored/read';

/** Loose in its type too: list reads project a subset, and the votes are optional. */
export const storedArgument = z.looseObject({
  id: storedInt,
  siteId: storedInt,
  ideaId: storedInt,
  userId: z.nullable(storedInt),
  parentId: z.nullable(storedInt),
  sentiment: z.enum(['for', 'against']),
  description: z.string(),
  createdAt: storedInstant,
  updatedAt: storedInstant,
  /** Number of argument votes. */
  yes: z.optional(storedInt),
  /** Who voted (a DynamoDB number set): one vote per user, toggled atomically. Never returned. */
  voterIds: z.optional(z.set(storedInt)),
});
export type StoredArgument = z.output<typeof storedArgument>;
