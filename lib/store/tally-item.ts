/**
 * The per-idea tally item (issue 17, docs/data-model.md "Votes"): the one declaration of its layout,
 * read by the vote round (write side) and by idea lists and results (read side).
 *
 *   PK = SITE#<s>   SK = IDEA#<id>#TALLY      right after its idea, so one Query over `IDEA#` reads both
 *   ideaId                                   the idea
 *   budget, theme                            copies of the idea's `budget` and `extraData.theme`, kept by
 *                                            the idea's own writes: what the vote rules need, so a round
 *                                            reads tally items and never the (large) idea items
 *   n_<opinion>                              current votes with that opinion (absent = 0)
 *   deleting                                 set while the idea is being deleted: rounds may not add to it
 *   GSI3PK = VOTES#<s>, GSI3SK = rank        the vote order: rank = yes * RANK_SCALE + ideaId, exact in
 *                                            DynamoDB's 38-digit numbers and moved by the same ADD as n_yes
 *
 * The item stays far below 1 KB (2 write units per transactional write) and never grows with the site.
 */
import { IDEA_TALLY_SUFFIX, keys } from '#lib/store/keys';

export type Tally = Record<string, number>;

/** Multiplier of `yes` in the vote-order rank: ideaIds stay below it (10 digits, as in keys' padding). */
export const RANK_SCALE = 10_000_000_000n;

/** The attribute holding the count of one opinion. */
export const opinionAttribute = (opinion: string) => `n_${opinion}`;
const OPINION_ATTRIBUTE = /^n_(.+)$/s;

/** The vote-order rank of an idea with `yes` votes, as a decimal string (beyond 2^53: never a JS number). */
export const voteRank = (yes: number, ideaId: number): string => (BigInt(yes) * RANK_SCALE + BigInt(ideaId)).toString();

export interface TallyItem {
  ideaId: number;
  budget: number | null;
  theme: string | null;
  tally: Tally;
  deleting: boolean;
}

/** Is this SK a tally item (and not the idea before it)? */
export const isTallySk = (sk: string): boolean => sk.endsWith(IDEA_TALLY_SUFFIX);

/** The item as first written with its idea (no votes yet). */
export function newTallyItem(siteId: number, ideaId: number, budget: number | null, theme: string | null): Record<string, unknown> {
  return {
    ...keys.ideaTally(siteId, ideaId),
    ideaId,
    budget,
    theme,
    GSI3PK: keys.votesOrderPartition(siteId),
    GSI3SK: ideaId, // voteRank(0, ideaId)
  };
}

/** Reads a stored tally item; undefined when it is not one (what it reads is checked, never cast). */
export function tallyFromItem(item: Record<string, unknown>): TallyItem | undefined {
  const ideaId = item['ideaId'];
  if (typeof item['SK'] === 'string' && !isTallySk(item['SK'])) return undefined;
  if (typeof ideaId !== 'number' || !Number.isSafeInteger(ideaId)) return undefined;
  const budget = item['budget'];
  const theme = item['theme'];
  const tally: Tally = {};
  for (const [name, value] of Object.entries(item)) {
    const match = OPINION_ATTRIBUTE.exec(name);
    if (match && typeof value === 'number' && Number.isFinite(value)) tally[match[1]!] = value;
  }
  return {
    ideaId,
    budget: typeof budget === 'number' ? budget : null,
    theme: typeof theme === 'string' ? theme : null,
    tally,
    deleting: item['deleting'] !== undefined,
  };
}
