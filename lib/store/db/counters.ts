/**
 * The retired id counters: one item per type (`PK=COUNTER, SK=<type>`) whose value is the highest id
 * of that type handed out before ids were made from time (lib/store/db/ids.ts; user ids too, since
 * they are timed to the second). No create writes them any more; an import's id reservation reads
 * them and raises them (lib/store/imports/reservations.ts), so that the ids an import keeps (all
 * below COUNTER_IDS_BELOW) never meet an id of this deployment or of another import.
 */
import type { Key } from '#lib/store/db/keys';

/** The counter item of one id type. */
export const counterKey = (type: CounterType): Key => ({ PK: 'COUNTER', SK: type });

/** The types whose ids an import may keep. */
export type CounterType = 'site' | 'idea' | 'article' | 'argument' | 'user' | 'signup' | 'tag';
