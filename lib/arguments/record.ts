/**
 * Argument item -> CONTRACT record `{id, siteId, ideaId, userId, parentId, sentiment, description,
 * createdAt, updatedAt}`; `yes` and `hasUserVoted` only when asked for. Shared by the argument
 * endpoints and an idea's `includeArguments`.
 */
import type { ArgumentRecordShape } from '#schemas/argument';

export interface ArgumentItem {
  id: number;
  siteId: number;
  ideaId: number;
  userId: number | null;
  parentId: number | null;
  sentiment: 'for' | 'against';
  description: string;
  createdAt: string;
  updatedAt: string;
  /** Number of argument votes. */
  yes?: number;
  /** Who voted (a DynamoDB number set): one vote per user, toggled atomically. Never returned. */
  voterIds?: Set<number>;
  [key: string]: unknown;
}

/** The CONTRACT record, as schemas/argument.ts describes it (handlers, tests and OpenAPI share it). */
export type ArgumentRecord = ArgumentRecordShape;

export function toArgumentRecord(
  item: ArgumentItem,
  options: { withVoteCount?: boolean; withUserVoteOf?: number | null } = {},
): ArgumentRecord {
  const record: ArgumentRecord = {
    id: item.id,
    siteId: item.siteId,
    ideaId: item.ideaId,
    userId: item.userId ?? null,
    parentId: item.parentId ?? null,
    sentiment: item.sentiment,
    description: item.description,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
  if (options.withVoteCount) record.yes = item.yes ?? 0;
  if (options.withUserVoteOf !== undefined) {
    record.hasUserVoted = options.withUserVoteOf != null && (item.voterIds?.has(options.withUserVoteOf) ?? false);
  }
  return record;
}
