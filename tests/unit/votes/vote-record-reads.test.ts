/**
 * The vote record as anyone reads it (lib/votes/record.ts) with the store replaced by an in-memory
 * double over a small real log: receipts appended to real tiles, real signed checkpoints. Pins that the
 * proofs verify against the checkpoint's root, that a receipt is proved against the first checkpoint
 * that covers it, who sees `ballots` and the record at all, and the 400/404 answers (with their
 * headers) in the CONTRACT's error body. The integration tests run the same code against DynamoDB Local.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Caller, NOBODY } from '#lib/auth/caller';
import { ApiError, RECORD_CUT_HEADER } from '#lib/errors';
import { errorResponder } from '#lib/http/error-handler';
import { withDefaults } from '#lib/sites/config-defaults';
import type { Site } from '#lib/sites/site';
import type { JobMarker } from '#lib/store/jobs/jobs';
import type { LogHead, SignedCheckpointItem } from '#lib/store/vote-log/log';
import type { UserItem } from '#lib/store/users/users';
import { signCheckpoint } from '#lib/vote-record/checkpoint';
import { EMPTY_FRONTIER, type Frontier, frontierRoot, leafHash, verifyConsistency, verifyInclusion } from '#lib/vote-record/merkle';
import { appendToTiles, edgeTiles, type Tile, tileKey } from '#lib/vote-record/tiles';
import { consistencyQuery } from '#schemas/results';
import { parseOrThrow } from '#lib/validation/zod-errors';

const SITE = 4;

const store = vi.hoisted(() => ({
  tiles: new Map<string, { level: number; index: number; data: Buffer }>(),
  receipts: new Map<string, { leafIndex: number; checkpointId: number }>(),
  checkpoints: [] as SignedCheckpointItem[],
  head: undefined as LogHead | undefined,
  marker: undefined as JobMarker | undefined,
  /** Every store call, as `name(args)`, to pin which reads each path makes. */
  calls: [] as string[],
}));

vi.mock('#lib/store/vote-log/log', () => ({
  getLogHead: vi.fn(async (siteId: number) => (store.calls.push(`getLogHead(${siteId})`), store.head)),
  getReceiptIndex: Object.assign(
    vi.fn(async (siteId: number, receipt: string) => (store.calls.push(`getReceiptIndex(${siteId},${receipt})`), store.receipts.get(receipt))),
    { plan: vi.fn((siteId: number, receipt: string) => ({ planned: [siteId, receipt] })) },
  ),
  getSignedCheckpoint: vi.fn(async (siteId: number, id: number) => (store.calls.push(`getSignedCheckpoint(${siteId},${id})`), store.checkpoints.find((c) => c.id === id))),
  latestSignedCheckpoint: vi.fn(async (siteId: number) => (store.calls.push(`latestSignedCheckpoint(${siteId})`), store.checkpoints.at(-1))),
  readLogTiles: vi.fn(async (siteId: number, ids: Array<{ level: number; index: number }>) => {
    store.calls.push(`readLogTiles(${siteId})`);
    return ids.flatMap((id) => store.tiles.get(`${id.level}/${id.index}`) ?? []);
  }),
}));
vi.mock('#lib/store/jobs/jobs', () => ({
  getJobMarker: vi.fn(async (siteId: number, job: string) => (store.calls.push(`getJobMarker(${siteId},${job})`), store.marker)),
}));

const { consistency, latestCheckpoint, receiptProof, receiptReads } = await import('#lib/votes/record');

// ---- a real log: 5 receipts under checkpoint 1, 6 more under checkpoint 2 ----

const { privateKey } = generateKeyPairSync('ed25519');
const receipts = Array.from({ length: 11 }, () => randomBytes(32).toString('hex'));
const CUTS = ['2030-01-01T10:00:00.000Z', '2030-01-01T11:00:00.000Z'];

interface BuiltLog {
  tiles: Map<string, Tile>;
  checkpoints: SignedCheckpointItem[];
  roots: Buffer[];
}

/** Appends each batch as the sequencer does (reading only the edge tiles) and signs a checkpoint after it. */
function buildLog(batches: readonly string[][]): BuiltLog {
  const tiles = new Map<string, Tile>();
  const checkpoints: SignedCheckpointItem[] = [];
  const roots: Buffer[] = [];
  let frontier: Frontier = EMPTY_FRONTIER;
  batches.forEach((batch, i) => {
    const edge = new Map(edgeTiles(frontier.size).map((id) => [tileKey(id), tiles.get(tileKey(id))!]));
    const out = appendToTiles(frontier, edge, batch.map((r) => Buffer.from(r, 'hex')));
    for (const tile of out.tiles) tiles.set(tileKey(tile), tile);
    frontier = out.frontier;
    const root = frontierRoot(frontier);
    roots.push(root);
    const head = { siteId: SITE, id: i + 1, treeSize: frontier.size, root: root.toString('hex'), cut: CUTS[i]!, ballots: frontier.size - 1, complete: true };
    checkpoints.push({ ...signCheckpoint(head, privateKey), createdAt: CUTS[i]! });
  });
  return { tiles, checkpoints, roots };
}

const log = buildLog([receipts.slice(0, 5), receipts.slice(5)]);

const user = (role: 'member' | 'moderator'): Caller => ({ kind: 'user', role, userId: 9, siteId: SITE, user: {} as UserItem });
const SERVICE: Caller = { kind: 'service', role: 'admin', userId: undefined };
const siteWith = (config: { votes?: Record<string, unknown>; project?: Record<string, unknown> } = {}) =>
  ({ id: SITE, name: 's', config: withDefaults({ votes: { isViewable: false, ...config.votes }, project: config.project ?? {} }) }) as unknown as Site;
const hidden = siteWith();
const viewable = siteWith({ votes: { isViewable: true } });
const ended = siteWith({ project: { projectHasEnded: true } });
const endedByDate = siteWith({ project: { endDate: '2020-01-01T00:00:00.000Z' } });

const hashes = (hex: readonly string[]) => hex.map((h) => Buffer.from(h, 'hex'));

/** What the HTTP stack answers for a thrown error (lib/http/error-handler.ts): status, CONTRACT body, headers. */
async function answerOf(promise: Promise<unknown>): Promise<{ statusCode: number; body: Record<string, unknown>; headers: Record<string, string> }> {
  const error = await promise.then(
    () => expect.fail('expected an error'),
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ApiError);
  const request = { error, response: undefined as unknown } as never as { error: unknown; response: { statusCode: number; body: string; headers: Record<string, string> } };
  errorResponder().onError!(request as never);
  const { statusCode, body, headers } = request.response;
  return { statusCode, body: JSON.parse(body) as Record<string, unknown>, headers: headers ?? {} };
}

beforeEach(() => {
  store.tiles = new Map(log.tiles);
  store.receipts = new Map(receipts.map((r, i) => [r, { leafIndex: i, checkpointId: i < 5 ? 1 : 2 }]));
  store.checkpoints = [...log.checkpoints];
  store.head = { siteId: SITE, size: 11, frontier: [], checkpointId: 2, cut: CUTS[1]!, ballots: 10 };
  store.marker = undefined;
  store.calls = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe("a receipt's inclusion proof", () => {
  it('proves the receipt against the first checkpoint that covers it, not the latest; the proof verifies against that root', async () => {
    const answer = await receiptProof(viewable, NOBODY, receipts[2]!);
    const [first] = log.checkpoints;
    expect(answer).toEqual({
      receipt: receipts[2],
      checkpoint: { id: 1, treeSize: 5, root: first!.root, cut: CUTS[0], ballots: 4, signature: first!.signature, keyId: first!.keyId },
      leafIndex: 2,
      proof: expect.any(Array),
    });
    expect(verifyInclusion(leafHash(Buffer.from(receipts[2]!, 'hex')), 2, 5, hashes(answer.proof), log.roots[0]!)).toBe(true);
    // Not a proof in the latest tree: the size and root are the first checkpoint's.
    expect(verifyInclusion(leafHash(Buffer.from(receipts[2]!, 'hex')), 2, 11, hashes(answer.proof), log.roots[1]!)).toBe(false);
    expect(store.calls).toEqual([`getReceiptIndex(${SITE},${receipts[2]})`, `getSignedCheckpoint(${SITE},1)`, `readLogTiles(${SITE})`]);
  });

  it('every receipt of the log is proved in its own checkpoint, first and last leaf included', async () => {
    for (const [i, receipt] of receipts.entries()) {
      const answer = await receiptProof(viewable, NOBODY, receipt);
      const size = i < 5 ? 5 : 11;
      expect({ leafIndex: answer.leafIndex, treeSize: answer.checkpoint.treeSize }).toEqual({ leafIndex: i, treeSize: size });
      expect(verifyInclusion(leafHash(Buffer.from(receipt, 'hex')), i, size, hashes(answer.proof), log.roots[i < 5 ? 0 : 1]!)).toBe(true);
    }
  });

  it('`ballots` only for those who may see the counts: moderators and services, or everyone once votes are viewable or the project ended', async () => {
    const ballotsSeen = async (site: Site, caller: Caller) => 'ballots' in (await receiptProof(site, caller, receipts[7]!)).checkpoint;
    expect(await ballotsSeen(hidden, NOBODY)).toBe(false);
    expect(await ballotsSeen(hidden, user('member'))).toBe(false);
    expect(await ballotsSeen(hidden, user('moderator'))).toBe(true);
    expect(await ballotsSeen(hidden, SERVICE)).toBe(true);
    for (const site of [viewable, ended, endedByDate]) expect(await ballotsSeen(site, NOBODY)).toBe(true);
    // The rest of the checkpoint is the same either way, and the proof still verifies.
    const withoutCount = await receiptProof(hidden, NOBODY, receipts[7]!);
    const { ballots, ...rest } = (await receiptProof(hidden, user('moderator'), receipts[7]!)).checkpoint as { ballots: number };
    expect(ballots).toBe(10);
    expect(withoutCount.checkpoint).toEqual(rest);
    expect(verifyInclusion(leafHash(Buffer.from(receipts[7]!, 'hex')), 7, 11, hashes(withoutCount.proof), log.roots[1]!)).toBe(true);
  });

  it('the receipt is read with the site (its planned read names the site and the receipt)', () => {
    expect(receiptReads({ siteId: SITE, params: { receipt: receipts[0]! } })).toEqual({ planned: [SITE, receipts[0]] });
  });
});

describe('a receipt no checkpoint covers: 404', () => {
  const unknown = 'ab'.repeat(32);

  it('to those who may see counts: the cut in the header and the message, Retry-After until the next checkpoint is due', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T11:30:00.000Z'));
    store.marker = { siteId: SITE, job: 'vote-checkpoints', dueAt: '2030-01-01T12:00:00.500Z', cursor: 0, indexKey: '' } as JobMarker;
    const answer = await answerOf(receiptProof(viewable, NOBODY, unknown));
    expect(answer.statusCode).toBe(404);
    expect(answer.body).toEqual({
      status: 404,
      error: 'NotFound',
      message: `Receipt ${unknown} is not in a checkpoint of site ${SITE}: the latest checkpoint covers the votes cast up to ${CUTS[1]}; the next is due at 2030-01-01T12:00:00.500Z`,
    });
    // 1800.5 s, rounded up.
    expect(answer.headers).toMatchObject({ [RECORD_CUT_HEADER]: CUTS[1], 'Retry-After': '1801' });
    expect(store.calls).toEqual([`getReceiptIndex(${SITE},${unknown})`, `getLogHead(${SITE})`, `getJobMarker(${SITE},vote-checkpoints)`]);
  });

  it('a next checkpoint due in under a minute (or overdue) says to retry in 60 s; none due leaves Retry-After out', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T11:30:00.000Z'));
    for (const dueAt of ['2030-01-01T11:30:10.000Z', '2030-01-01T11:00:00.000Z']) {
      store.marker = { siteId: SITE, job: 'vote-checkpoints', dueAt, cursor: 0, indexKey: '' } as JobMarker;
      expect((await answerOf(receiptProof(ended, user('member'), unknown))).headers['Retry-After']).toBe('60');
    }
    store.marker = { siteId: SITE, job: 'vote-checkpoints', dueAt: null, cursor: 0, indexKey: '' } as JobMarker;
    const answer = await answerOf(receiptProof(ended, user('member'), unknown));
    expect(answer.headers['Retry-After']).toBeUndefined();
    expect(answer.headers[RECORD_CUT_HEADER]).toBe(CUTS[1]);
    expect(answer.body.message).toBe(`Receipt ${unknown} is not in a checkpoint of site ${SITE}: the latest checkpoint covers the votes cast up to ${CUTS[1]}`);
  });

  it('before the first checkpoint: no cut header, and the message says there is none', async () => {
    for (const head of [undefined, { siteId: SITE, size: 0, frontier: [], checkpointId: 0, cut: '', ballots: 0 }]) {
      store.head = head;
      store.checkpoints = [];
      const answer = await answerOf(receiptProof(hidden, user('moderator'), receipts[0]!));
      expect(answer.body).toEqual({ status: 404, error: 'NotFound', message: `Receipt ${receipts[0]} is not in a checkpoint of site ${SITE}: the site has no checkpoint yet` });
      expect(answer.headers[RECORD_CUT_HEADER]).toBeUndefined();
    }
  });

  it('while the latest checkpoint is being indexed: retry in 60 s, no cut (its receipts are in it, not yet findable)', async () => {
    store.head = { ...store.head!, indexing: [3, 5] };
    const answer = await answerOf(receiptProof(viewable, NOBODY, unknown));
    expect(answer.body).toEqual({ status: 404, error: 'NotFound', message: `Receipt ${unknown} is not in a checkpoint of site ${SITE} yet: the latest checkpoint is being indexed` });
    expect(answer.headers['Retry-After']).toBe('60');
    expect(answer.headers[RECORD_CUT_HEADER]).toBeUndefined();
    // An indexing range run to its end is done: the cut is told again.
    store.head = { ...store.head, indexing: [5, 5] };
    expect((await answerOf(receiptProof(viewable, NOBODY, unknown))).headers[RECORD_CUT_HEADER]).toBe(CUTS[1]);
  });

  it('to those who may not see counts: a bare 404, no cut, no schedule, and no read of the head or the job', async () => {
    store.marker = { siteId: SITE, job: 'vote-checkpoints', dueAt: '2030-01-01T12:00:00.000Z', cursor: 0, indexKey: '' } as JobMarker;
    for (const caller of [NOBODY, user('member')]) {
      store.calls = [];
      const answer = await answerOf(receiptProof(hidden, caller, unknown));
      expect(answer.body).toEqual({ status: 404, error: 'NotFound', message: `Receipt ${unknown} is not in a checkpoint of site ${SITE} yet` });
      expect(answer.headers[RECORD_CUT_HEADER]).toBeUndefined();
      expect(answer.headers['Retry-After']).toBeUndefined();
      expect(store.calls).toEqual([`getReceiptIndex(${SITE},${unknown})`]);
    }
  });

  it('a receipt indexed under a checkpoint that is not there is not covered either', async () => {
    store.receipts.set(unknown, { leafIndex: 0, checkpointId: 3 });
    const answer = await answerOf(receiptProof(viewable, NOBODY, unknown));
    expect(answer.statusCode).toBe(404);
    expect(answer.body.message).toMatch(/is not in a checkpoint/);
  });

  it('a text that is no receipt is not looked up: 404 without a read of the index', async () => {
    for (const text of ['ab'.repeat(31), 'AB'.repeat(32), 'zz'.repeat(32), `${'ab'.repeat(32)}0`]) {
      store.calls = [];
      const answer = await answerOf(receiptProof(hidden, NOBODY, text));
      expect(answer.body).toEqual({ status: 404, error: 'NotFound', message: `Receipt ${text} is not in a checkpoint of site ${SITE} yet` });
      expect(store.calls).toEqual([]);
    }
  });
});

describe('the latest signed checkpoint', () => {
  it('is the newest, with exactly the public fields (no site, no `complete`, no creation time)', async () => {
    const latest = log.checkpoints[1]!;
    expect(await latestCheckpoint(viewable, NOBODY)).toEqual({
      id: 2,
      treeSize: 11,
      root: log.roots[1]!.toString('hex'),
      cut: CUTS[1],
      ballots: 10,
      signature: latest.signature,
      keyId: latest.keyId,
    });
  });

  it('before the first: 404 in the CONTRACT body', async () => {
    store.checkpoints = [];
    expect(await answerOf(latestCheckpoint(viewable, NOBODY))).toMatchObject({
      statusCode: 404,
      body: { status: 404, error: 'NotFound', message: `Site ${SITE} has no signed checkpoint yet` },
    });
  });
});

describe('who may read the latest checkpoint and consistency proofs', () => {
  const reads = {
    checkpoint: (site: Site, caller: Caller) => latestCheckpoint(site, caller),
    consistency: (site: Site, caller: Caller) => consistency(site, caller, 5, 11),
  };

  it.each(Object.entries(reads))('%s: while counts are hidden, 401 for nobody, 403 for a member, read by moderators and services', async (_name, read) => {
    expect(await answerOf(read(hidden, NOBODY))).toMatchObject({ statusCode: 401, body: { status: 401, error: 'Unauthorized' } });
    expect(await answerOf(read(hidden, user('member')))).toMatchObject({
      statusCode: 403,
      body: { status: 403, error: 'Forbidden', message: 'The vote record of this site is not public while its vote counts are hidden' },
    });
    // Refused before any read of the store.
    expect(store.calls).toEqual([]);
    await expect(read(hidden, user('moderator'))).resolves.toBeDefined();
    await expect(read(hidden, SERVICE)).resolves.toBeDefined();
  });

  it.each(Object.entries(reads))('%s: everyone once votes are viewable or the project has ended (flag or end date)', async (_name, read) => {
    for (const site of [viewable, ended, endedByDate]) await expect(read(site, NOBODY)).resolves.toBeDefined();
  });
});

describe('the consistency proof between two sizes', () => {
  it('proves the larger tree extends the smaller, against both roots', async () => {
    const answer = await consistency(viewable, NOBODY, 5, 11);
    expect(answer).toEqual({ from: 5, to: 11, proof: expect.any(Array) });
    expect(verifyConsistency(5, 11, log.roots[0]!, log.roots[1]!, hashes(answer.proof))).toBe(true);
    expect(verifyConsistency(5, 11, log.roots[1]!, log.roots[0]!, hashes(answer.proof))).toBe(false);
    expect(store.calls).toEqual([`latestSignedCheckpoint(${SITE})`, `readLogTiles(${SITE})`]);
  });

  it('any pair within the latest checkpoint, the same size included, verifies', async () => {
    const rootOf = (size: number) => frontierRoot(appendToTiles(EMPTY_FRONTIER, new Map(), hashes(receipts.slice(0, size))).frontier);
    for (const [from, to] of [[1, 1], [1, 11], [3, 7], [4, 11], [11, 11]] as const) {
      const answer = await consistency(viewable, NOBODY, from, to);
      expect(verifyConsistency(from, to, rootOf(from), rootOf(to), hashes(answer.proof)), `${from}..${to}`).toBe(true);
    }
  });

  it('a size beyond the latest checkpoint, or no checkpoint at all: 404', async () => {
    expect(await answerOf(consistency(viewable, NOBODY, 5, 12))).toMatchObject({
      statusCode: 404,
      body: { status: 404, error: 'NotFound', message: `Site ${SITE} has no signed checkpoint of 12 entries or more` },
    });
    store.checkpoints = [];
    expect(await answerOf(consistency(viewable, NOBODY, 1, 1))).toMatchObject({ statusCode: 404, body: { error: 'NotFound' } });
  });

  it('`from` below 1 or above `to`: 400 in the CONTRACT body, before any tile is read', async () => {
    for (const [from, to] of [[0, 5], [-1, 5], [6, 5]] as const) {
      store.calls = [];
      expect(await answerOf(consistency(viewable, NOBODY, from, to))).toEqual({
        statusCode: 400,
        body: { status: 400, error: 'BadRequest', message: '`from` must be at least 1 and at most `to`' },
        headers: expect.any(Object),
      });
      expect(store.calls).toEqual([`latestSignedCheckpoint(${SITE})`]);
    }
  });

  it('malformed sizes in the query are a 400 ValidationError naming the field, as the route parses them (lib/request/setup.ts)', () => {
    const parse = (query: Record<string, string>) => parseOrThrow(consistencyQuery, query, 'query');
    expect(parse({ from: '2', to: '11' })).toEqual({ from: 2, to: 11 });
    for (const [query, path] of [[{ from: 'x', to: '11' }, 'from'], [{ from: '2' }, 'to'], [{ from: '2', to: '1.5' }, 'to']] as const) {
      let thrown: unknown;
      try {
        parse(query);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect({ status: (thrown as ApiError).status, error: (thrown as ApiError).error }).toEqual({ status: 400, error: 'ValidationError' });
      expect((thrown as ApiError).details?.map((d) => d.path)).toEqual([path]);
    }
  });
});
