/**
 * `npm run verify-votes -- --site N` (CONTRACT: exit 0 when every tally, ballot chain
 * and the latest checkpoint agree, 1 and a report otherwise). What it checks, exactly:
 *
 * 1. Tallies: the counts recomputed from the ballots equal the stored tally shards, per idea and
 *    opinion (a counter at 0 and a missing one are the same).
 * 2. Ballot chains: each ballot carries a hash, and it equals the chain hash of (its `prevHash`, its
 *    version, its votes); a first state (version 1) must link to GENESIS. Only the latest state of a
 *    ballot is stored, so an earlier state is vouched for by the checkpoints that hold it, not here.
 * 3. The latest checkpoint: the ballots as they were at its `createdAt` are rebuilt (a ballot written
 *    since then contributes its `prevHash` when its previous state is older than the checkpoint, and
 *    nothing when it did not exist yet), and their Merkle root and count must equal the checkpoint's.
 *    When a ballot changed twice or more since the checkpoint, its state then is no longer stored:
 *    the checkpoint is reported "not checkable" (not a failure; run the job, then verify again).
 */
import { ballotStateHash, GENESIS, merkleRoot, type BallotLeaf } from '#lib/crypto/merkle';
import type { BallotItem } from '#lib/store/ballots/ballots';
import { readSiteBallots } from '#lib/store/ballots/site-ranges';
import { readSiteTallies } from '#lib/store/ideas/tallies';
import { latestCheckpoint, type CheckpointItem } from '#lib/store/checkpoints/checkpoints';
import { ballotLeafKey, hashedVotes } from '#lib/votes/seal';
import { countVotes } from '#lib/votes/tally';
import type { Tally } from '#lib/votes/types';

export interface VerifyReport {
  siteId: number;
  ballots: number;
  /** Empty when everything agrees. */
  problems: string[];
  /** What was found about the latest checkpoint. */
  checkpoint: string;
}

export function compareTallies(counted: Tally, stored: Tally): string[] {
  const problems: string[] = [];
  const ideaIds = [...new Set([...counted.keys(), ...stored.keys()])].sort((a, b) => a - b);
  for (const ideaId of ideaIds) {
    const a = counted.get(ideaId) ?? {};
    const b = stored.get(ideaId) ?? {};
    for (const opinion of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const fromBallots = a[opinion] ?? 0;
      const inTally = b[opinion] ?? 0;
      if (fromBallots !== inTally) problems.push(`tally of idea ${ideaId} '${opinion}': stored ${inTally}, ballots hold ${fromBallots}`);
    }
  }
  return problems;
}

export function checkBallot(ballot: BallotItem): string | undefined {
  const who = `ballot of user ${ballot.userId}`;
  if (typeof ballot.hash !== 'string') return `${who} (version ${ballot.version}) carries no hash`;
  const previousHash = ballot.prevHash ?? GENESIS;
  if (ballot.version === 1 && previousHash !== GENESIS) return `${who}: version 1 does not start the chain`;
  let expected: string;
  try {
    expected = ballotStateHash({ key: ballotLeafKey(ballot.userId), version: ballot.version, previousHash, votes: hashedVotes(ballot.votes) });
  } catch (err) {
    return `${who}: cannot be hashed (${(err as Error).message})`;
  }
  return expected === ballot.hash ? undefined : `${who} (version ${ballot.version}): its hash does not match its votes`;
}

/** The leaves of the ballots as they were at `at`, or the user id of a ballot whose state then is gone. */
export function leavesAt(ballots: readonly BallotItem[], at: string): { leaves: BallotLeaf[] } | { unknown: number } {
  const leaves: BallotLeaf[] = [];
  for (const ballot of ballots) {
    const key = ballotLeafKey(ballot.userId);
    if (ballot.updatedAt <= at) leaves.push({ key, hash: ballot.hash ?? GENESIS });
    else if (ballot.version === 1 || ballot.prevUpdatedAt === undefined) {
      if (ballot.version !== 1) return { unknown: ballot.userId };
      // Created after the checkpoint: not under it.
    } else if (ballot.prevUpdatedAt <= at) leaves.push({ key, hash: ballot.prevHash ?? GENESIS });
    else return { unknown: ballot.userId };
  }
  return { leaves };
}

export function checkCheckpoint(checkpoint: CheckpointItem | undefined, ballots: readonly BallotItem[]): { problem?: string; note: string } {
  if (!checkpoint) return { note: 'no checkpoint yet' };
  const at = leavesAt(ballots, checkpoint.createdAt);
  if ('unknown' in at) {
    return { note: `checkpoint ${checkpoint.id} not checkable: the ballot of user ${at.unknown} changed more than once since ${checkpoint.createdAt}` };
  }
  const root = merkleRoot(at.leaves);
  if (root !== checkpoint.root || at.leaves.length !== checkpoint.ballots) {
    return {
      problem: `checkpoint ${checkpoint.id} (${checkpoint.createdAt}): published root ${checkpoint.root} over ${checkpoint.ballots} ballot(s), the ballots give ${root} over ${at.leaves.length}`,
      note: `checkpoint ${checkpoint.id} does not match`,
    };
  }
  return { note: `checkpoint ${checkpoint.id} matches (${checkpoint.ballots} ballot(s))` };
}

export async function verifySiteVotes(siteId: number): Promise<VerifyReport> {
  const [ballots, stored, checkpoint] = await Promise.all([readSiteBallots(siteId, 'all', true), readSiteTallies(siteId, { consistent: true }), latestCheckpoint(siteId)]);
  const counted = countVotes(ballots.flatMap((ballot) => hashedVotes(ballot.votes)));
  const problems = [...compareTallies(counted, stored)];
  for (const ballot of ballots) {
    const problem = checkBallot(ballot);
    if (problem) problems.push(problem);
  }
  const cp = checkCheckpoint(checkpoint, ballots);
  if (cp.problem) problems.push(cp.problem);
  return { siteId, ballots: ballots.length, problems, checkpoint: cp.note };
}

export function formatVerifyReport(report: VerifyReport): string {
  const head = `site ${report.siteId}: ${report.ballots} ballot(s); ${report.checkpoint}`;
  if (report.problems.length === 0) return `${head}\nOK: tallies, ballot chains and the latest checkpoint agree`;
  return [head, `${report.problems.length} problem(s):`, ...report.problems.map((p) => `  - ${p}`)].join('\n');
}
