/**
 * Argument item -> CONTRACT record `{id, siteId, ideaId, userId, parentId, sentiment, description,
 * createdAt, updatedAt}`; `yes` and `hasUserVoted` only when asked for. Shared by the argument
 * endpoints and an idea's `includeArguments`.
 */
import type { ArgumentRecordShape } from '#schemas/argument';
import type { ArgumentItem } from '#lib/store/arguments/arguments';

export type { ArgumentItem };

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
