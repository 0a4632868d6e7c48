/**
 * `npm run verify-votes -- --site N` end to end over the store as an in-memory double
 * (lib/results/verify.ts `verifySiteVotes`): a real log (entries sealed with the chain key, the
 * receipts in tiles of 256, checkpoints signed with the signing key), the ballot range, the tally items
 * and the results snapshot, each read as the store hands them. Each case starts from a site that
 * verifies clean and changes one thing; the report is compared whole, so every problem and note is
 * pinned with its wording and its place. The integration tests run the same audit against DynamoDB
 * Local.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BallotItem, BallotVote } from '#lib/store/ballots/ballots';
import type { SealedEntry } from '#lib/vote-record/entry';
import type { SignedCheckpoint } from '#lib/vote-record/checkpoint';
import type { KeyedBallot } from '#lib/store/ballots/site-ranges';
import type { AuditedTally } from '#lib/store/ideas/tallies';
import type { ResultsHead } from '#lib/store/results/snapshots';
import type { LogEntryItem } from '#lib/store/vote-log/log';
import type { MalformedItem } from '#lib/store/db/codec';

const store = vi.hoisted(() => ({
  ballots: [] as KeyedBallot[],
  tallies: { items: [] as AuditedTally[], malformed: [] as MalformedItem[] },
  entries: { records: [] as LogEntryItem[], malformed: [] as MalformedItem[] },
  tiles: { records: [] as Array<{ level: number; index: number; data: Buffer }>, malformed: [] as MalformedItem[] },
  checkpoints: { records: [] as SignedCheckpoint[], malformed: [] as MalformedItem[] },
  head: undefined as ResultsHead | undefined,
  chunks: undefined as Uint8Array[] | undefined,
}));

vi.mock('#lib/store/ballots/site-ranges', async (importOriginal) => ({ ...(await importOriginal<object>()), readSiteBallotsKeyed: vi.fn(async () => store.ballots) }));
vi.mock('#lib/store/ideas/tallies', async (importOriginal) => ({ ...(await importOriginal<object>()), readSiteTalliesChecked: vi.fn(async () => store.tallies) }));
vi.mock('#lib/store/vote-log/log', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  readAllLogEntriesChecked: vi.fn(async () => store.entries),
  readDataTiles: vi.fn(async () => store.tiles),
  readAllSignedCheckpointsChecked: vi.fn(async () => store.checkpoints),
}));
vi.mock('#lib/store/results/snapshots', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  getResultsHead: vi.fn(async () => store.head),
  readResultsBody: vi.fn(async () => store.chunks),
}));

const { verifySiteVotes } = await import('#lib/results/verify');
const { rankAsRead } = await import('#lib/store/ideas/tallies');
const { ideaKeys } = await import('#lib/store/ideas/keys');
const { ballotKeys } = await import('#lib/store/ballots/keys');
const { sitePk } = await import('#lib/store/db/keys');
const { voteChainKey, voteSigningKey } = await import('#lib/vote-record/keys');
const { signCheckpoint } = await import('#lib/vote-record/checkpoint');
const { batchOrder, entryMac, GENESIS_MAC, sealEntry } = await import('#lib/vote-record/entry');
const { entryItemOf } = await import('#lib/vote-record/entry-item');
const { appendLeaves, EMPTY_FRONTIER, frontierRoot, leafHash } = await import('#lib/vote-record/merkle');
const { TILE_WIDTH, HASH_BYTES } = await import('#lib/vote-record/tiles');
const { packSnapshot } = await import('#lib/results/snapshot');
const { countVotes } = await import('#lib/votes/tally');
const { entryVotes } = await import('#lib/votes/seal');

const SITE = 5;
/** Minutes after noon on a day before the clock of any run of this file. */
const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 12, 0, minute * 60)).toISOString();
const NOW = new Date(at(30));

type Write = { userId: number; votes: Array<[ideaId: number, opinion: string]>; minute: number };

/** The entries of the writes, each the next version of its user's ballot. */
function entriesOf(writes: readonly Write[]): SealedEntry[] {
  const heads = new Map<number, SealedEntry>();
  return writes.map(({ userId, votes, minute }) => {
    const previous = heads.get(userId);
    const entry = sealEntry(voteChainKey(), {
      siteId: SITE,
      userId,
      version: (previous?.version ?? 0) + 1,
      prevMac: previous?.mac ?? GENESIS_MAC,
      votes: votes.map(([ideaId, opinion]) => ({ ideaId, opinion })).sort((a, b) => a.ideaId - b.ideaId),
      writtenAt: at(minute),
    });
    heads.set(userId, entry);
    return entry;
  });
}

const ballotVote = (userId: number, opinion: string, createdAt: string): BallotVote => ({ id: userId, opinion, createdAt });

/** The ballot a user's latest entry leaves in the table. */
function ballotOf(entry: SealedEntry): BallotItem {
  const votes = Object.fromEntries(entry.votes.map((v) => [String(v.ideaId), ballotVote(entry.userId, v.opinion, entry.writtenAt)]));
  return { siteId: SITE, userId: entry.userId, votes, version: entry.version, updatedAt: entry.writtenAt, hash: entry.mac, prevHash: entry.prevMac };
}

/** The ballots of the ballot range (its malformed items left out). */
const ballotsInStore = () => store.ballots.flatMap((item) => ('ballot' in item ? [item.ballot] : []));
const placed = (ballot: BallotItem): KeyedBallot => ({ sk: ballotKeys.ballot(SITE, ballot.userId).SK, ballot });
const tallyKey = (ideaId: number) => {
  const key = ideaKeys.ideaTally(SITE, ideaId);
  return `${key.PK}/${key.SK}`;
};

/** A tally item as the rounds leave it: the ballots' counts, listed in the order by votes at its `yes`. */
const tallyItem = (ideaId: number, tally: Record<string, number>): AuditedTally => ({
  key: tallyKey(ideaId),
  ideaId,
  tally,
  gone: false,
  listed: { inSiteOrder: true, rank: rankAsRead(tally['yes'] ?? 0, ideaId) },
});

/** The tally items that agree with these ballots. */
function talliesOf(ballots: readonly BallotItem[]): AuditedTally[] {
  return [...countVotes(ballots.flatMap((b) => entryVotes(b.votes)))].sort(([a], [b]) => a - b).map(([ideaId, tally]) => tallyItem(ideaId, tally));
}

/** Sequences the entries into checkpoints cut at the given minutes (as the checkpoint job does); the receipts into tiles of 256. */
function sequence(entries: readonly SealedEntry[], cuts: readonly number[], completeFrom = Infinity) {
  const leaves: Buffer[] = [];
  const checkpoints: SignedCheckpoint[] = [];
  let frontier = EMPTY_FRONTIER;
  const users = new Set<number>();
  let done = '';
  cuts.forEach((minute, i) => {
    const cut = at(minute);
    const batch = entries.filter((e) => e.writtenAt > done && e.writtenAt <= cut).sort(batchOrder);
    for (const entry of batch) {
      leaves.push(Buffer.from(entry.mac, 'hex'));
      users.add(entry.userId);
    }
    frontier = appendLeaves(frontier, batch.map((e) => leafHash(Buffer.from(e.mac, 'hex'))));
    const complete = i + 1 >= completeFrom;
    checkpoints.push(
      signCheckpoint({ siteId: SITE, id: i + 1, treeSize: frontier.size, root: frontierRoot(frontier).toString('hex'), cut, ballots: users.size, ...(complete ? { complete } : {}) }, voteSigningKey()),
    );
    done = cut;
  });
  const tiles = [];
  for (let index = 0; index * TILE_WIDTH < leaves.length; index += 1) tiles.push({ level: 0, index, data: Buffer.concat(leaves.slice(index * TILE_WIDTH, (index + 1) * TILE_WIDTH)) });
  return { checkpoints, tiles };
}

/** Puts a site in the store: its entries, the ballots and tallies they leave, the log cut at `cuts`. */
function storeSite(writes: readonly Write[], cuts: readonly number[], completeFrom = Infinity) {
  const entries = entriesOf(writes);
  const latest = new Map<number, SealedEntry>();
  for (const entry of entries) latest.set(entry.userId, entry);
  const ballots = [...latest.values()].map(ballotOf);
  const { checkpoints, tiles } = sequence(entries, cuts, completeFrom);
  store.ballots = ballots.map(placed);
  store.tallies = { items: talliesOf(ballots), malformed: [] };
  store.entries = { records: entries.map(entryItemOf), malformed: [] };
  store.tiles = { records: tiles, malformed: [] };
  store.checkpoints = { records: checkpoints, malformed: [] };
  store.head = undefined;
  store.chunks = undefined;
  return { entries, ballots, checkpoints };
}

/**
 * Three voters: user 1 votes twice, user 2 once, user 3 once and then takes the vote back (an empty
 * ballot). Checkpoint 1 cut at minute 4 holds the first three entries, checkpoint 2 at minute 7 the
 * other two.
 */
const WRITES: Write[] = [
  { userId: 1, votes: [[10, 'yes']], minute: 1 },
  { userId: 2, votes: [[10, 'yes'], [12, 'yes']], minute: 2 },
  { userId: 3, votes: [[11, 'yes']], minute: 3 },
  { userId: 1, votes: [[10, 'yes'], [11, 'no']], minute: 5 },
  { userId: 3, votes: [], minute: 6 },
];
const CUTS = [4, 7];

const keyId = () => store.checkpoints.records.at(-1)!.keyId;
const head2 = () => `checkpoint 2 holds 5 entries of 3 ballot(s), signed by ${keyId()}`;
const COMPLETE_SINCE_2 = 'the log holds every ballot of the site since checkpoint 2';
const NOT_COMPLETE = 'no checkpoint says yet that the log holds every ballot of the site';
const NO_SNAPSHOT = 'no results snapshot yet';

/** A results snapshot as the results job stores it: computed at `computedAt` from ballots read then. */
function storeSnapshot(computedAt: string, ballots: number, ideas: Array<[id: number, yes: number, no: number]>, coveredUntil: string | null = null) {
  const body = { computedAt, ballots, ideas: ideas.map(([id, yes, no], i) => ({ id, title: `idea ${id}`, yes, no, rank: i + 1 })), checkpoint: null };
  const { etag, chunks } = packSnapshot(body);
  store.head = { siteId: SITE, etag, computedAt, coveredUntil, ballots, generation: 'g', chunks: chunks.length };
  store.chunks = chunks;
}
/** What the site's ballots give: 2 ballots with votes (user 3's is empty), idea 10 2 yes, 11 1 no, 12 1 yes. */
const SITE_COUNTS: Array<[number, number, number]> = [
  [10, 2, 0],
  [11, 0, 1],
  [12, 1, 0],
];

beforeEach(() => {
  storeSite(WRITES, CUTS, 2);
});

describe('a site whose log, ballots and tallies agree', () => {
  it('verifies clean: the latest checkpoint, no snapshot yet, the log complete since checkpoint 2', async () => {
    expect(await verifySiteVotes(SITE, NOW)).toEqual({ siteId: SITE, ballots: 3, problems: [], checkpoint: [head2(), NO_SNAPSHOT, COMPLETE_SINCE_2].join('; ') });
  });

  it("verifies clean on the auditor's own clock too", async () => {
    expect((await verifySiteVotes(SITE)).problems).toEqual([]);
  });

  it('with a results snapshot equal to the log: it says so', async () => {
    storeSnapshot(at(20), 2, SITE_COUNTS);
    expect(await verifySiteVotes(SITE, NOW)).toEqual({
      siteId: SITE,
      ballots: 3,
      problems: [],
      checkpoint: [head2(), `the results snapshot of ${at(20)} matches the log`, COMPLETE_SINCE_2].join('; '),
    });
  });

  it('with checkpoints that never said the log holds every ballot: it says none does yet', async () => {
    storeSite(WRITES, CUTS);
    expect((await verifySiteVotes(SITE, NOW)).checkpoint).toBe([head2(), NO_SNAPSHOT, NOT_COMPLETE].join('; '));
  });

  it('with no checkpoint yet: the entries are pending, not problems, within the lag limit', async () => {
    storeSite(WRITES, []);
    expect(await verifySiteVotes(SITE, NOW)).toEqual({
      siteId: SITE,
      ballots: 3,
      problems: [],
      checkpoint: ['no signed checkpoint yet', '5 entries written since the latest checkpoint, not in the log yet', NO_SNAPSHOT, NOT_COMPLETE].join('; '),
    });
  });

  it('with more receipts than a tile holds, the tiles handed in any order: the leaves are read in index order', async () => {
    const voters = TILE_WIDTH + 44;
    const writes = Array.from({ length: voters }, (_, i): Write => ({ userId: i + 1, votes: [[10, 'yes']], minute: 1 + i / voters }));
    storeSite(writes, [2, 3], 1);
    expect(store.tiles.records.map((t) => t.data.length / HASH_BYTES)).toEqual([TILE_WIDTH, 44]);
    store.tiles.records.reverse();
    expect(await verifySiteVotes(SITE, NOW)).toEqual({
      siteId: SITE,
      ballots: voters,
      problems: [],
      checkpoint: [`checkpoint 2 holds ${voters} entries of ${voters} ballot(s), signed by ${keyId()}`, NO_SNAPSHOT, 'the log holds every ballot of the site since checkpoint 1'].join('; '),
    });
  });

  it("a checkpoint kept outside the table: checked against the log, and its `complete` line counts when the table's checkpoints lack it", async () => {
    storeSite(WRITES, CUTS);
    const [first] = sequence(entriesOf(WRITES), [4], 1).checkpoints;
    expect(await verifySiteVotes(SITE, NOW, { pinned: first! })).toEqual({
      siteId: SITE,
      ballots: 3,
      problems: ['checkpoint 2 no longer says the log holds every ballot, as the pinned checkpoint 1 did (signed over a rewritten log head, or the log lost ballots)'],
      checkpoint: [head2(), 'the pinned checkpoint (size 3) is a prefix of the log', NO_SNAPSHOT, 'the log holds every ballot of the site since checkpoint 1'].join('; '),
    });
  });

  it("is held to the auditor's clock: a checkpoint cut after it is dated in the future", async () => {
    expect((await verifySiteVotes(SITE, new Date(at(6)))).problems).toEqual([`checkpoint 2 is dated in the future (${at(7)})`]);
  });
});

describe('items that cannot be read', () => {
  it('are each a problem, by the read they came from, before anything else is compared', async () => {
    const malformed = (what: string) => [{ key: `${sitePk(SITE)}/${what}`, problem: `${what} is not what it should be` }];
    store.tallies.malformed = malformed('IDEA#0000000013#TALLY');
    store.entries.malformed = malformed('VLOG#E#x');
    store.tiles.malformed = malformed('VLOG#T#0#x');
    store.checkpoints.malformed = malformed('VLOG#C#x');
    expect((await verifySiteVotes(SITE, NOW)).problems).toEqual([
      `a malformed item among the tallies: ${sitePk(SITE)}/IDEA#0000000013#TALLY (IDEA#0000000013#TALLY is not what it should be)`,
      `a malformed item in the vote log's entries: ${sitePk(SITE)}/VLOG#E#x (VLOG#E#x is not what it should be)`,
      `a malformed item in the vote log's tiles: ${sitePk(SITE)}/VLOG#T#0#x (VLOG#T#0#x is not what it should be)`,
      `a malformed item in the vote log's checkpoints: ${sitePk(SITE)}/VLOG#C#x (VLOG#C#x is not what it should be)`,
    ]);
  });

  it('a malformed item of the ballot range counts nowhere: not among the ballots, not toward the tallies', async () => {
    const sk = ballotKeys.ballot(SITE, 8).SK;
    store.ballots = [...store.ballots, { sk, malformed: { key: `${sitePk(SITE)}/${sk}`, problem: 'votes expected record' } }];
    expect(await verifySiteVotes(SITE, NOW)).toEqual({
      siteId: SITE,
      ballots: 3,
      problems: [`a malformed item in the ballot range: ${sitePk(SITE)}/${sk} (votes expected record)`],
      checkpoint: [head2(), NO_SNAPSHOT, COMPLETE_SINCE_2].join('; '),
    });
  });
});

describe('the ballots against the log and the tallies', () => {
  it('a copy of a ballot under another key moves the tallies like any ballot: named as out of place, counted among the ballots', async () => {
    const copy = { sk: ballotKeys.ballot(SITE, 99).SK, ballot: ballotsInStore()[0]! };
    store.ballots = [...store.ballots, copy];
    // The writer moved the tallies along: the counts agree with every item of the range.
    store.tallies.items = talliesOf(ballotsInStore());
    expect(await verifySiteVotes(SITE, NOW)).toEqual({
      siteId: SITE,
      ballots: 4,
      problems: [
        `the item ${copy.sk} in the ballot range (user 1) is not a ballot of this site: it is stored under ${copy.sk}, not its user's ballot key`,
        'user 1 has 2 items in the ballot range: one ballot per user',
      ],
      checkpoint: [head2(), NO_SNAPSHOT, COMPLETE_SINCE_2].join('; '),
    });
  });

  it('a tally moved without a ballot: the counter that differs', async () => {
    store.tallies.items = store.tallies.items.map((item) => (item.ideaId === 12 ? tallyItem(12, { yes: 2 }) : item));
    expect((await verifySiteVotes(SITE, NOW)).problems).toEqual(["tally of idea 12 'yes': stored 2, ballots hold 1"]);
  });

  it('a ballot added behind the log once a checkpoint says the log holds every ballot (tallies moved along): a problem; the snapshot is held to the log alone', async () => {
    const forged: BallotItem = { siteId: SITE, userId: 9, votes: { '12': ballotVote(9, 'yes', at(8)) }, version: 1, updatedAt: at(8) };
    store.ballots = [...store.ballots, placed(forged)];
    store.tallies.items = talliesOf(ballotsInStore());
    storeSnapshot(at(20), 2, SITE_COUNTS);
    expect(await verifySiteVotes(SITE, NOW)).toEqual({
      siteId: SITE,
      ballots: 4,
      problems: ['the ballot of user 9 (version 1) has no log entry: written behind the log (checkpoint 2 says the log holds every ballot)'],
      checkpoint: [head2(), `the results snapshot of ${at(20)} matches the log`, COMPLETE_SINCE_2].join('; '),
    });
  });

  it('a forged entry counts nowhere: named by the audit, its ballot not its latest entry, and left out of what the snapshot is held to', async () => {
    const user1 = store.entries.records.filter((e) => e.userId === 1).at(-1)!;
    const fields = { siteId: SITE, userId: 1, version: 3, prevMac: user1.mac, votes: [{ ideaId: 12, opinion: 'yes' }], writtenAt: at(6) };
    const forged = { ...fields, mac: entryMac(Buffer.alloc(32, 1), fields) };
    store.entries.records = [...store.entries.records, entryItemOf(forged)];
    storeSnapshot(at(20), 2, SITE_COUNTS);
    expect((await verifySiteVotes(SITE, NOW)).problems).toEqual([
      `the ballot of user 1, version 3 is not sealed by the chain key: a forged or edited entry (receipt ${forged.mac.slice(0, 16)}...)`,
      `the ballot of user 1, version 3 (written ${at(6)}) is not in the log, though checkpoint 2 covers that time`,
      'the ballot of user 1 (version 2) is not its latest log entry (version 3): written behind the log',
    ]);
  });
});

describe('ballots from before the log began', () => {
  /** User 7 voted before the log began (no seal); user 8 left an empty ballot then. Tallies count user 7's vote. */
  function addOldBallots(updatedAt = at(0)) {
    const old: BallotItem = { siteId: SITE, userId: 7, votes: { '13': ballotVote(7, 'yes', updatedAt) }, version: 3, updatedAt };
    const empty: BallotItem = { siteId: SITE, userId: 8, votes: {}, version: 2, updatedAt };
    store.ballots = [...store.ballots, placed(old), placed(empty)];
    store.tallies.items = talliesOf(ballotsInStore());
  }

  beforeEach(() => {
    storeSite(WRITES, CUTS);
  });

  it('are a note, not a problem, until a checkpoint says the log holds every ballot', async () => {
    addOldBallots();
    expect(await verifySiteVotes(SITE, NOW)).toEqual({
      siteId: SITE,
      ballots: 5,
      problems: [],
      checkpoint: [head2(), NO_SNAPSHOT, '1 ballot(s) from before the vote log (npm run migrate seals them)', NOT_COMPLETE].join('; '),
    });
  });

  it('the snapshot is held to their table state with the log: a snapshot that counts them matches', async () => {
    addOldBallots();
    storeSnapshot(at(20), 3, [...SITE_COUNTS, [13, 1, 0]]);
    expect(await verifySiteVotes(SITE, NOW)).toEqual({
      siteId: SITE,
      ballots: 5,
      problems: [],
      checkpoint: [
        head2(),
        `the results snapshot of ${at(20)} matches the log`,
        'the results snapshot is checked against the table for the ballots not yet in the log',
        '1 ballot(s) from before the vote log (npm run migrate seals them)',
        NOT_COMPLETE,
      ].join('; '),
    });
  });

  it('a snapshot that leaves them out differs from the table', async () => {
    addOldBallots();
    storeSnapshot(at(20), 2, SITE_COUNTS, at(19));
    expect((await verifySiteVotes(SITE, NOW)).problems).toEqual([
      `the results snapshot of ${at(20)} differs from the log: its ballot count is 2, the log gives 3`,
      `the results snapshot of ${at(20)} differs from the log: idea 13 'yes' is 0, the log gives 1`,
    ]);
  });

  it('one last written after the snapshot was computed is not in it: the snapshot is stale by one', async () => {
    addOldBallots(at(25));
    storeSnapshot(at(20), 2, SITE_COUNTS);
    expect((await verifySiteVotes(SITE, NOW)).checkpoint).toBe(
      [
        head2(),
        `the results snapshot of ${at(20)} matches the log`,
        'the results snapshot is stale: 1 entry written since it was computed',
        'the results snapshot is checked against the table for the ballots not yet in the log',
        '1 ballot(s) from before the vote log (npm run migrate seals them)',
        NOT_COMPLETE,
      ].join('; '),
    );
  });

  it('a logged ballot is held to its entry, not to its table state, even when that was edited in place', async () => {
    addOldBallots();
    storeSnapshot(at(20), 3, [...SITE_COUNTS, [13, 1, 0]]);
    // User 2's ballot rewritten in place: another vote, a later version, its seal kept.
    store.ballots = ballotsInStore().map((ballot) =>
      placed(ballot.userId === 2 ? { ...ballot, version: 2, updatedAt: at(10), votes: { ...ballot.votes, '13': ballotVote(2, 'yes', at(10)) } } : ballot),
    );
    store.tallies.items = talliesOf(ballotsInStore());
    expect((await verifySiteVotes(SITE, NOW)).problems).toEqual(['the ballot of user 2 (version 2) is not its latest log entry (version 1): written behind the log']);
  });
});

describe('the tallies as the order by votes lists them', () => {
  const withItem = (ideaId: number, change: (item: AuditedTally) => AuditedTally) => {
    store.tallies.items = store.tallies.items.map((item) => (item.ideaId === ideaId ? change(item) : item));
  };

  it('each votable tally is listed at its own yes count, a count without `yes` at 0; a gone one with no counts left and no place is fine', async () => {
    expect(store.tallies.items.find((item) => item.ideaId === 11)!.tally).toEqual({ no: 1 });
    store.tallies.items = [...store.tallies.items, { key: tallyKey(14), ideaId: 14, tally: { yes: 0 }, gone: true, listed: { inSiteOrder: false, rank: undefined } }];
    expect((await verifySiteVotes(SITE, NOW)).problems).toEqual([]);
  });

  it('a gone tally that keeps its place in the order by votes', async () => {
    withItem(12, (item) => ({ ...item, gone: true }));
    expect((await verifySiteVotes(SITE, NOW)).problems).toEqual([`the tally ${tallyKey(12)} of idea 12 is marked gone yet keeps its place in the order by votes`]);
  });

  it('a votable tally missing from the order by votes', async () => {
    withItem(10, (item) => ({ ...item, listed: { inSiteOrder: false, rank: undefined } }));
    expect((await verifySiteVotes(SITE, NOW)).problems).toEqual([`the tally ${tallyKey(10)} of idea 10 is not in the order by votes: lists and exports show no count for it`]);
  });

  it('a votable tally listed at another count, or at no rank', async () => {
    withItem(10, (item) => ({ ...item, listed: { inSiteOrder: true, rank: rankAsRead(5, 10) } }));
    withItem(11, (item) => ({ ...item, listed: { inSiteOrder: true, rank: rankAsRead(1, 11) } }));
    withItem(12, (item) => ({ ...item, listed: { inSiteOrder: true, rank: undefined } }));
    expect((await verifySiteVotes(SITE, NOW)).problems).toEqual([
      `the tally ${tallyKey(10)} of idea 10 is in the order by votes at rank ${rankAsRead(5, 10)}, not at its 2 'yes'`,
      `the tally ${tallyKey(11)} of idea 11 is in the order by votes at rank ${rankAsRead(1, 11)}, not at its 0 'yes'`,
      `the tally ${tallyKey(12)} of idea 12 is in the order by votes at rank none, not at its 1 'yes'`,
    ]);
  });

  it('a gone tally still holds the counts of the votes its delete cascade has not taken out yet', async () => {
    withItem(12, (item) => ({ ...item, gone: true, tally: { yes: 0 }, listed: { inSiteOrder: false, rank: undefined } }));
    expect((await verifySiteVotes(SITE, NOW)).problems).toEqual(["tally of idea 12 'yes': stored 0, ballots hold 1"]);
  });
});
