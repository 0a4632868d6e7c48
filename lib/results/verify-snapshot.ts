/**
 * The stored results snapshot held to the verified log: its ballot count and every idea's yes/no
 * counts must be what the log's entries give as of the snapshot's computation. The snapshot is read
 * from ballots at `computedAt`; a round stamped within the settle window before it (`coveredUntil`,
 * `computedAt`] may or may not have committed by then, so each count must lie within what the ballots
 * could give with each such round in or out (a note when it does without equalling the log's state at
 * `computedAt`; a problem when it lies outside). Ranks and budget winners also depend on
 * the ideas (budgets, themes) as they were then, which the table does not keep: they are not checked.
 */
import { CorruptRecordError } from '#lib/errors';
import { unpackSnapshot } from '#lib/results/snapshot';
import { SETTLE_MS, type ResultsSnapshotBody } from '#lib/results/compute';
import { getResultsHead, readResultsBody } from '#lib/store/results/snapshots';
import type { EntryVote, SealedEntry } from '#lib/vote-record/entry';
import { countVotes } from '#lib/votes/tally';

interface SnapshotCounts {
  ballots: number;
  /** `<ideaId> <opinion>` -> count, zero counts left out. */
  counts: Map<string, number>;
}

/** The counts the log's entries give at `at`: each ballot's latest version written by then, empty ballots left out. */
function countsAsOf(entries: readonly SealedEntry[], at: string): SnapshotCounts {
  const latest = new Map<number, SealedEntry>();
  for (const entry of entries) {
    if (entry.writtenAt > at) continue;
    const before = latest.get(entry.userId);
    if (!before || entry.version > before.version) latest.set(entry.userId, entry);
  }
  const ballots = [...latest.values()].map((entry) => entry.votes).filter((votes) => votes.length > 0);
  const counts = new Map<string, number>();
  for (const [ideaId, byOpinion] of countVotes(ballots.flat())) {
    for (const [opinion, n] of Object.entries(byOpinion)) if (n !== 0) counts.set(`${ideaId} ${opinion}`, n);
  }
  return { ballots: ballots.length, counts };
}

/** The snapshot body's counts, in the same form. */
function countsOfSnapshot(body: Pick<ResultsSnapshotBody, 'ballots' | 'ideas'>): SnapshotCounts {
  const counts = new Map<string, number>();
  for (const idea of body.ideas) {
    if (idea.yes !== 0) counts.set(`${idea.id} yes`, idea.yes);
    if (idea.no !== 0) counts.set(`${idea.id} no`, idea.no);
  }
  return { ballots: body.ballots, counts };
}

/** Differences between the snapshot's counts and the log's, one line each. */
function snapshotDifferences(snapshot: SnapshotCounts, log: SnapshotCounts): string[] {
  const lines: string[] = [];
  if (snapshot.ballots !== log.ballots) lines.push(`it says ${snapshot.ballots} ballot(s), the log holds ${log.ballots}`);
  for (const key of [...new Set([...snapshot.counts.keys(), ...log.counts.keys()])].sort()) {
    const [ideaId, opinion] = key.split(' ');
    const a = snapshot.counts.get(key) ?? 0;
    const b = log.counts.get(key) ?? 0;
    if (a !== b) lines.push(`idea ${ideaId} '${opinion}': it says ${a}, the log holds ${b}`);
  }
  return lines;
}

/** `<ideaId> <opinion>` -> 1 for each vote of a ballot version. */
const keysOf = (votes: readonly EntryVote[]) => votes.map((vote) => `${vote.ideaId} ${vote.opinion}`);

/**
 * The range each count can take when every ballot may stand at its version as of `from` or at any
 * version written in (`from`, `to`]: what a read at `to` may have seen when rounds stamped after
 * `from` had not all committed yet.
 */
function countRanges(entries: readonly SealedEntry[], from: string, to: string): Map<string, [number, number]> {
  const perBallot = new Map<number, SealedEntry[]>();
  for (const entry of entries) if (entry.writtenAt <= to) perBallot.set(entry.userId, [...(perBallot.get(entry.userId) ?? []), entry]);
  const ranges = new Map<string, [number, number]>();
  const add = (key: string, low: number, high: number) => {
    const [a, b] = ranges.get(key) ?? [0, 0];
    ranges.set(key, [a + low, b + high]);
  };
  for (const list of perBallot.values()) {
    list.sort((a, b) => a.version - b.version);
    const settled = list.filter((entry) => entry.writtenAt <= from).at(-1);
    const candidates = [settled?.votes ?? [], ...list.filter((entry) => entry.writtenAt > from).map((entry) => entry.votes)];
    const keys = new Set(candidates.flatMap(keysOf));
    for (const key of keys) {
      const held = candidates.map((votes) => (keysOf(votes).includes(key) ? 1 : 0));
      add(key, Math.min(...held), Math.max(...held));
    }
    const voted = candidates.map((votes) => (votes.length > 0 ? 1 : 0));
    add(BALLOTS, Math.min(...voted), Math.max(...voted));
  }
  return ranges;
}

const BALLOTS = 'ballots';

/** Whether the snapshot's counts are the log's; `problems` when they cannot be, `notes` on what was checked. */
export function checkSnapshotCounts(
  body: Pick<ResultsSnapshotBody, 'ballots' | 'ideas' | 'computedAt'>,
  coveredUntil: string,
  entries: readonly SealedEntry[],
): { problems: string[]; notes: string[] } {
  const snapshot = countsOfSnapshot(body);
  const of = `the results snapshot of ${body.computedAt}`;
  if (snapshotDifferences(snapshot, countsAsOf(entries, body.computedAt)).length === 0) return { problems: [], notes: [`${of} matches the log`] };
  const ranges = countRanges(entries, coveredUntil, body.computedAt);
  const problems: string[] = [];
  const outside = (key: string, value: number, label: string) => {
    const [low, high] = ranges.get(key) ?? [0, 0];
    if (value < low || value > high) problems.push(`${of} differs from the log: ${label} is ${value}, the log gives ${low === high ? low : `${low} to ${high}`}`);
  };
  outside(BALLOTS, snapshot.ballots, 'its ballot count');
  for (const key of [...new Set([...snapshot.counts.keys(), ...ranges.keys()])].sort()) {
    if (key === BALLOTS) continue;
    const [ideaId, opinion] = key.split(' ');
    outside(key, snapshot.counts.get(key) ?? 0, `idea ${ideaId} '${opinion}'`);
  }
  if (problems.length > 0) return { problems, notes: [] };
  return { problems: [], notes: [`${of} is within what the log allows for the rounds still committing while it was computed`] };
}

/**
 * More chunks than any body has: a results body is answered whole by GET /results, so it stays under
 * Lambda's 6 MB (at most 20 chunks of 300 KB gzipped); a head naming more was written by someone
 * else, and reading its chunk keys would take the verifier's memory.
 */
const MAX_CHUNKS = 1_000;

const isCount = (value: unknown): value is number => Number.isSafeInteger(value);

/** Whether an unpacked body has what the check reads, in the types it reads them in. */
function isCheckableBody(body: unknown): body is Pick<ResultsSnapshotBody, 'ballots' | 'ideas' | 'computedAt'> {
  if (typeof body !== 'object' || body === null) return false;
  const { ballots, ideas, computedAt } = body as Record<string, unknown>;
  return (
    isCount(ballots) &&
    typeof computedAt === 'string' &&
    !Number.isNaN(Date.parse(computedAt)) &&
    Array.isArray(ideas) &&
    ideas.every((idea: unknown) => typeof idea === 'object' && idea !== null && isCount((idea as Record<string, unknown>).id) && isCount((idea as Record<string, unknown>).yes) && isCount((idea as Record<string, unknown>).no))
  );
}

/**
 * Reads the stored snapshot and checks it; a note when there is none. A malformed item of it is a problem, never an exception.
 * `fromTable`: some of `entries` are ballots from before the log, as the table holds them (said in a note when the counts are checked).
 */
export async function verifyResultsSnapshot(siteId: number, entries: readonly SealedEntry[], options: { fromTable?: boolean } = {}): Promise<{ problems: string[]; notes: string[] }> {
  let head: Awaited<ReturnType<typeof getResultsHead>>;
  let chunks: Uint8Array[] | undefined;
  try {
    head = await getResultsHead(siteId);
    if (!head) return { problems: [], notes: ['no results snapshot yet'] };
    if (head.chunks > MAX_CHUNKS) return { problems: [`the results snapshot's head names ${head.chunks} chunks, more than a body can have`], notes: [] };
    chunks = await readResultsBody(head);
  } catch (err) {
    if (err instanceof CorruptRecordError) return { problems: [`the results snapshot cannot be read: ${err.message}`], notes: [] };
    throw err;
  }
  if (!chunks) return { problems: ['the results snapshot has a chunk missing'], notes: [] };
  let body: unknown;
  try {
    body = unpackSnapshot(chunks);
  } catch {
    return { problems: ['the results snapshot cannot be read'], notes: [] };
  }
  if (!isCheckableBody(body)) return { problems: ['the results snapshot cannot be read: its body lacks the ballot count, the time or the counts of its ideas'], notes: [] };
  const problems: string[] = [];
  if (head.ballots !== body.ballots) problems.push(`the results snapshot's head says ${head.ballots} ballot(s), its body ${body.ballots}`);
  const checked = checkSnapshotCounts(body, head.coveredUntil ?? new Date(Date.parse(body.computedAt) - SETTLE_MS).toISOString(), entries);
  const newer = entries.filter((entry) => entry.writtenAt > body.computedAt).length;
  if (newer > 0) checked.notes.push(`the results snapshot is stale: ${newer} entr${newer === 1 ? 'y' : 'ies'} written since it was computed`);
  if (options.fromTable) checked.notes.push('the results snapshot is checked against the table for the ballots not yet in the log');
  return { problems: [...problems, ...checked.problems], notes: checked.notes };
}
