/** A log entry as the table stores it (votes as [ideaId, opinion] pairs, lib/store/vote-log.ts) and as it is sealed. */
import type { SealedEntry } from '#lib/vote-record/entry';
import type { LogEntryItem } from '#lib/store/vote-log/log';

export const entryItemOf = (entry: SealedEntry): LogEntryItem => ({ ...entry, votes: entry.votes.map((v): [number, string] => [v.ideaId, v.opinion]) });

export const sealedOf = (item: LogEntryItem): SealedEntry => ({ ...item, votes: item.votes.map(([ideaId, opinion]) => ({ ideaId, opinion })) });
