/** A log entry as the table stores it (votes as [ideaId, opinion] pairs, lib/store/vote-log.ts) and as it is sealed. */
import type { SealedEntry } from '#lib/vote-record/entry';
import type { LogEntryItem } from '#lib/store/vote-log/log';

export const entryItemOf = ({ rejected, ...entry }: SealedEntry): LogEntryItem => ({
  ...entry,
  votes: entry.votes.map((v): [number, string] => [v.ideaId, v.opinion]),
  ...(rejected && rejected.length > 0 ? { rejected: rejected.map((v): [number, string, number | null] => [v.ideaId, v.opinion, v.by]) } : {}),
});

export const sealedOf = ({ rejected, ...item }: LogEntryItem): SealedEntry => ({
  ...item,
  votes: item.votes.map(([ideaId, opinion]) => ({ ideaId, opinion })),
  ...(rejected ? { rejected: rejected.map(([ideaId, opinion, by]) => ({ ideaId, opinion, by })) } : {}),
});
