/** Keys of what belongs to an idea besides its item (lib/store/content/keys.ts): its tally, its place in the order by votes (GSI3) and its index items. */
import { type Key, idFromSk, pad, sitePk } from '#lib/store/db/keys';
import { contentKeys } from '#lib/store/content/keys';

/** The tail of an idea's tally SK (`IDEA#<id>#TALLY`): readers of the `IDEA#` range tell the two apart by it. */
const TALLY_SUFFIX = '#TALLY';
export const isIdeaTallySk = (sk: string): boolean => sk.endsWith(TALLY_SUFFIX);

export const ideaKeys = {
  /**
   * An idea's vote counter (docs/data-model.md "Votes"): right after its idea in SK order, so one Query
   * of the `IDEA#` range reads a page of ideas with their tallies. Written only by the rounds that
   * change a vote on this idea, and by the idea's own writes (budget and theme copies).
   */
  ideaTally: (siteId: number, ideaId: number): Key => {
    const idea = contentKeys.idea(siteId, ideaId);
    return { PK: idea.PK, SK: `${idea.SK}${TALLY_SUFFIX}` };
  },
  /** The idea whose tally key `sk` is (undefined: it is no idea's tally key, e.g. an id written otherwise). */
  ideaOfTallySk: (sk: string): number | undefined => {
    if (!isIdeaTallySk(sk)) return undefined;
    const id = idFromSk(sk.slice(0, -TALLY_SUFFIX.length));
    return Number.isSafeInteger(id) && id > 0 && contentKeys.idea(0, id).SK + TALLY_SUFFIX === sk ? id : undefined;
  },
  /** GSI3: a site's votable ideas by their `yes` count (the tally items carry these keys). */
  ideasByVotes: (siteId: number) => ({ GSI3PK: `VOTES#${siteId}` }),
  /** Tally shards of the design before per-idea tallies (`SK = TALLY#<n>`): read only by the migration. */
  legacyTallyShardPrefix: 'TALLY#',
  /** Every idea index item starts with `IX#`; within one stream the idea id (padded) is the tail. */
  ideaIndexItem: (siteId: number, streamPrefix: string, ideaId: number): Key => ({ PK: sitePk(siteId), SK: `${streamPrefix}${pad(ideaId)}` }),
  ideaTagStream: (tagId: number) => `IX#T#${pad(tagId)}#`,
  ideaStatusStream: (status: string) => `IX#S#${status}#`,
  ideaWordStream: (prefix: string) => `IX#W#${prefix}#`,
  /** Precision 0 is the one cell of the whole world: every idea that has a location. */
  ideaGeoStream: (precision: number, cell: string) => `IX#G#${precision}#${cell}#`,
} as const;
