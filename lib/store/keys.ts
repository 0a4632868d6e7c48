/**
 * Key builders for every entity of the single table (DESIGN habit 7): each prefix is written here and
 * nowhere else. Everything of a site lives under `PK = SITE#<siteId>`, so one Query reads a site's
 * ideas, ballots or users, and deleting a site is one partition sweep. docs/data-model.md keeps the
 * access-pattern table that goes with these keys.
 *
 * Ids are zero-padded so that the lexical sort order of SK is the numeric order of ids (and ids come
 * from increasing counters, so it is also creation order).
 */

export interface Key {
  PK: string;
  SK: string;
}

const ID_WIDTH = 10;
export const pad = (id: number): string => String(id).padStart(ID_WIDTH, '0');
/** Inverse of the numeric tail of a key such as `IDEA#0000000012`. */
export const idFromSk = (sk: string): number => Number(sk.slice(sk.lastIndexOf('#') + 1));

export const sitePk = (siteId: number) => `SITE#${siteId}`;

/** What a site user owns on GSI1 (`USER#<u>` / `<kind>#<id>`): written, voted, signed up. */
export type OwnedKind = 'IDEA' | 'ARTICLE' | 'ARG' | 'BALLOT' | 'SIGNUP';

export const keys = {
  counter: (type: string): Key => ({ PK: 'COUNTER', SK: type }),
  /** The ids an import from another system may keep (lib/store/import-reservations.ts). */
  importReservation: (source: string): Key => ({ PK: `IMPORT#${source}`, SK: 'RESERVATION' }),

  site: (siteId: number): Key => ({ PK: sitePk(siteId), SK: 'SITE' }),
  /** GSI1: every site, in id order (the site list). */
  siteListEntry: (siteId: number) => ({ GSI1PK: 'SITES', GSI1SK: `SITE#${pad(siteId)}` }),
  siteListPartition: 'SITES',

  idea: (siteId: number, ideaId: number): Key => ({ PK: sitePk(siteId), SK: `IDEA#${pad(ideaId)}` }),
  ideaPrefix: 'IDEA#',

  article: (siteId: number, articleId: number): Key => ({
    PK: sitePk(siteId),
    SK: `ARTICLE#${pad(articleId)}`,
  }),
  articlePrefix: 'ARTICLE#',

  /** Arguments sort under their idea, so one Query lists an idea's arguments. */
  argument: (siteId: number, ideaId: number, argumentId: number): Key => ({
    PK: sitePk(siteId),
    SK: `ARG#${pad(ideaId)}#${pad(argumentId)}`,
  }),
  argumentPrefix: 'ARG#',
  argumentsOfIdeaPrefix: (ideaId: number) => `ARG#${pad(ideaId)}#`,

  /** One ballot per user per site: the user's whole current vote set (see docs/data-model.md). */
  ballot: (siteId: number, userId: number): Key => ({ PK: sitePk(siteId), SK: `BALLOT#${pad(userId)}` }),
  ballotPrefix: 'BALLOT#',

  /**
   * An idea's vote counter (docs/data-model.md "Votes"): right after its idea in SK order, so one Query
   * of the `IDEA#` range reads a page of ideas with their tallies. Written only by the rounds that
   * change a vote on this idea, and by the idea's own writes (budget and theme copies).
   */
  ideaTally: (siteId: number, ideaId: number): Key => ({ PK: sitePk(siteId), SK: `IDEA#${pad(ideaId)}${TALLY_SUFFIX}` }),
  /** GSI3: a site's votable ideas by their `yes` count (the tally items carry these keys). */
  ideasByVotes: (siteId: number) => ({ GSI3PK: `VOTES#${siteId}` }),
  /** Tally shards of the design before issue 17 (`SK = TALLY#<n>`): read only by the migration. */
  legacyTallyShardPrefix: 'TALLY#',

  user: (siteId: number, userId: number): Key => ({ PK: sitePk(siteId), SK: `USER#${pad(userId)}` }),
  userPrefix: 'USER#',
  /** GSI1: every site user linked to one auth-server user (`externalKey` = auth server + its user id). */
  userByExternal: (externalKey: string) => ({ GSI1PK: `EXTUSER#${externalKey}` }),
  /** Uniqueness guard: one site user per auth-server user per site (written with the user, conditionally). */
  userLink: (siteId: number, externalKey: string): Key => ({ PK: sitePk(siteId), SK: `EXTUSER#${externalKey}` }),

  // Role floor (login re-creation): the lowest role a site gave a deleted/anonymized linked person.
  /** `hash` = HMAC of (site, auth server, external id) (lib/store/role-floor.ts), never the external id itself. */
  roleFloor: (siteId: number, hash: string): Key => ({ PK: sitePk(siteId), SK: `ROLEFLOOR#${hash}` }),

  /** GSI1: what one site user wrote or voted (activity, anonymization). */
  ownedBy: (userId: number, kind: OwnedKind, id: number) => ({
    GSI1PK: `USER#${pad(userId)}`,
    GSI1SK: `${kind}#${pad(id)}`,
  }),
  ownedByPartition: (userId: number) => `USER#${pad(userId)}`,
  /** GSI1SK prefix of one kind in a user's `USER#<u>` partition (the `kind` of `ownedBy`). */
  ownedByKindPrefix: (kind: OwnedKind) => `${kind}#`,

  newsletterSignup: (siteId: number, signupId: number): Key => ({
    PK: sitePk(siteId),
    SK: `SIGNUP#${pad(signupId)}`,
  }),
  newsletterSignupPrefix: 'SIGNUP#',
  /** Uniqueness guard: one signup per e-mail per site (conditional put in the same transaction). */
  newsletterEmail: (siteId: number, normalisedEmail: string): Key => ({
    PK: sitePk(siteId),
    SK: `SIGNUPEMAIL#${normalisedEmail}`,
  }),
  newsletterToken: (siteId: number, tokenHash: string): Key => ({
    PK: sitePk(siteId),
    SK: `SIGNUPTOKEN#${tokenHash}`,
  }),

  /** A stored response for an `Idempotency-Key` (expires through the table's TTL attribute `ttl`). */
  idempotency: (siteId: number, scope: string, key: string): Key => ({
    PK: sitePk(siteId),
    SK: `IDEMP#${scope}#${key}`,
  }),

  // Login state and brute-force limits (issue 12 items 6 and 10).
  /** A consumed login `state` (by the hash of its browser nonce); expires through TTL with the state. */
  usedLoginState: (siteId: number, nonceHash: string): Key => ({ PK: sitePk(siteId), SK: `USEDSTATE#${nonceHash}` }),
  /**
   * A fixed one-minute request counter per client address, site and route group. Its own partition
   * per (site, address), so a flood from many addresses never heats the site's partition.
   */
  rateCounter: (siteId: number, address: string, group: string, windowStartEpoch: number): Key => ({
    PK: `RATE#${siteId}#${address}`,
    SK: `${group}#${windowStartEpoch}`,
  }),

  // Lifecycle (issue 13): scheduled jobs find due work through GSI2, a sparse index (docs/lifecycle.md).
  /** One marker per site and job: what the job should look at next and when (GSI2 keys only while due). */
  jobMarker: (siteId: number, job: string): Key => ({ PK: sitePk(siteId), SK: `JOB#${job}` }),
  /** GSI2: the markers of one job, by the time they fall due. */
  jobDue: (job: string, dueAt: string, siteId: number) => ({ GSI2PK: `DUE#${job}`, GSI2SK: `${dueAt}#${pad(siteId)}` }),
  jobDuePartition: (job: string) => `DUE#${job}`,
  /**
   * GSI2: a site's users who are not anonymized, by activity: `A#<lastActivityAt>#<u>` until warned
   * about their inactivity, then `W#<warnedAt>#<u>`. Anonymization removes the keys.
   */
  usersByActivity: (siteId: number, userId: number, state: 'active' | 'warned', at: string) => ({
    GSI2PK: `USERS#${siteId}`,
    GSI2SK: `${state === 'active' ? 'A' : 'W'}#${at}#${pad(userId)}`,
  }),
  usersByActivityPartition: (siteId: number) => `USERS#${siteId}`,
  usersByActivityPrefix: (state: 'active' | 'warned') => (state === 'active' ? 'A#' : 'W#'),

  /** The site's outbox: notifications the service would have mailed (docs/lifecycle.md). */
  notification: (siteId: number, notificationId: number): Key => ({
    PK: sitePk(siteId),
    SK: `NOTIFICATION#${pad(notificationId)}`,
  }),
  notificationPrefix: 'NOTIFICATION#',

  // Discovery (issue 18): tags, their name guards, and the index items of ideas (docs/data-model.md).
  tag: (siteId: number, tagId: number): Key => ({ PK: sitePk(siteId), SK: `TAG#${pad(tagId)}` }),
  tagPrefix: 'TAG#',
  /** Uniqueness guard: one tag per (group, name) per site; both parts URI-encoded so `#` cannot collide. */
  tagName: (siteId: number, group: string, name: string): Key => ({
    PK: sitePk(siteId),
    SK: `TAGNAME#${encodeURIComponent(group)}#${encodeURIComponent(name)}`,
  }),
  /** Every idea index item starts with `IX#`; within one stream the idea id (padded) is the tail. */
  ideaIndexItem: (siteId: number, streamPrefix: string, ideaId: number): Key => ({ PK: sitePk(siteId), SK: `${streamPrefix}${pad(ideaId)}` }),
  ideaTagStream: (tagId: number) => `IX#T#${pad(tagId)}#`,
  ideaStatusStream: (status: string) => `IX#S#${status}#`,
  ideaWordStream: (prefix: string) => `IX#W#${prefix}#`,
  /** Precision 0 is the one cell of the whole world: every idea that has a location. */
  ideaGeoStream: (precision: number, cell: string) => `IX#G#${precision}#${cell}#`,

  // Results and the verifiable vote record (issue 16): published checkpoints, kept (docs/results.md).
  /** One Merkle root over the site's ballot hashes, by id (= publication order). */
  voteCheckpoint: (siteId: number, checkpointId: number): Key => ({ PK: sitePk(siteId), SK: `CHECKPOINT#${pad(checkpointId)}` }),
  voteCheckpointPrefix: 'CHECKPOINT#',

  // Health check (GET /api/health): read, never written.
  healthProbe: { PK: 'HEALTH', SK: 'HEALTH' } as Key,
} as const;

/** The tail of an idea's tally SK (`IDEA#<id>#TALLY`): readers of the `IDEA#` range tell the two apart by it. */
export const TALLY_SUFFIX = '#TALLY';
export const isIdeaTallySk = (sk: string): boolean => sk.endsWith(TALLY_SUFFIX);
