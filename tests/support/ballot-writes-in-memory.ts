/**
 * The vote round's access pattern (lib/store/ballots/rounds.ts: `readRoundStart`, `commitRound`) as an
 * in-memory double, for unit tests of what writes a round outside a vote (a moderator's review, an
 * import's ballot): the ballot it reads, each commit it makes, and the outcomes to answer in turn.
 *
 *   vi.mock('#lib/store/ballots/rounds', async () => (await import('#tests/support/ballot-writes-in-memory')).roundsDouble);
 *
 * The test imports `roundStore` from this file too (the same module), to set the ballot and outcomes
 * and to read what was committed.
 */
import { vi } from 'vitest';
import type { BallotItem, BallotSeal, BallotVote } from '#lib/store/ballots/ballots';
import type { TallyChange } from '#lib/store/ballots/rounds';

/** What a commit was handed. */
interface RoundWrite {
  siteId: number;
  userId: number;
  readVersion: number | undefined;
  votes: Record<string, BallotVote>;
  seal: BallotSeal;
  voteSeq: number | undefined;
  changes: TallyChange[];
  now: Date;
}

export const roundStore = {
  ballot: undefined as BallotItem | undefined,
  /** The outcomes the next commits answer, first to last; then `committed`. */
  outcomes: [] as Array<Record<string, unknown>>,
  reads: [] as unknown[][],
  commits: [] as RoundWrite[],
  /** Runs as a commit is made (another writer moving the ballot meanwhile). */
  onCommit: undefined as (() => void) | undefined,
};

export const roundsDouble = {
  readRoundStart: vi.fn(async (...args: unknown[]) => {
    roundStore.reads.push(args);
    return { ballot: roundStore.ballot === undefined ? undefined : structuredClone(roundStore.ballot), stored: undefined };
  }),
  commitRound: vi.fn(async (write: RoundWrite) => {
    roundStore.commits.push(write);
    roundStore.onCommit?.();
    return roundStore.outcomes.shift() ?? { kind: 'committed' };
  }),
};
