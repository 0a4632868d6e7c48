/**
 * Whether a site's vote log holds every ballot of the site, for the `complete` line of the checkpoint
 * the job signs next (lib/vote-record/checkpoint.ts). Once a checkpoint says so, every later one does
 * (carried in the log head, so a complete site costs nothing more); verify-votes then reports a ballot
 * without entries as written behind the log, and `npm run migrate` refuses to seal one.
 *
 * Until then, each checkpoint looks on through the site's ballots for one without a seal: a ballot
 * from before the log (or a ballot a writer put in the table without it), which `npm run migrate`
 * seals. Every write since the log began seals its ballot in the same transaction, so a site created
 * since has none and is complete at its first checkpoint. The look is one consistent Query of at most
 * SCAN_BALLOTS ballots (and 1 MB) per checkpoint, resumed where the previous checkpoint stopped: a
 * site with n ballots from before the log is complete about n / SCAN_BALLOTS checkpoints after
 * `npm run migrate` sealed them. An item without a seal under a key that is not its user's ballot key
 * is no ballot (no write puts one there, and migrate cannot seal it): it does not hold the look back,
 * and the job reports it as a problem to fix (verify-votes reports it too). Nor is an item without a
 * seal under its user's key that does not match the ballot's schema (malformed: migrate refuses it).
 */
import { searchUnsealedBallot } from '#lib/store/ballots/unsealed';
import type { LogHead } from '#lib/store/vote-log/log';

/** Ballots read per checkpoint at most while a site is not yet complete. */
const SCAN_BALLOTS = 1_000;

interface Completeness {
  complete: boolean;
  /** Where the next checkpoint's look goes on from ('' once complete, or from the first ballot). */
  sealScan: string;
  /** A ballot without a seal was found (`npm run migrate` seals it). */
  unsealedFound: boolean;
  /** Keys of items without a seal in the ballot range that are not their user's ballot (a problem to fix; they hold nothing back). */
  misplaced: string[];
  /** Items without a seal under a user's ballot key that are malformed (`PK/SK (problem)`): no ballot either, a problem to fix. */
  malformed: string[];
}

export async function completenessOf(siteId: number, head: Pick<LogHead, 'complete' | 'sealScan'>, scanBallots = SCAN_BALLOTS): Promise<Completeness> {
  if (head.complete === true) return { complete: true, sealScan: '', unsealedFound: false, misplaced: [], malformed: [] };
  const search = await searchUnsealedBallot(siteId, head.sealScan ?? '', scanBallots);
  const misplaced = search.misplaced;
  const malformed = search.malformed.map(({ key, problem }) => `${key} (${problem})`);
  if (search.kind === 'none') return { complete: true, sealScan: '', unsealedFound: false, misplaced, malformed };
  if (search.kind === 'found') return { complete: false, sealScan: search.at, unsealedFound: true, misplaced, malformed };
  return { complete: false, sealScan: search.from, unsealedFound: false, misplaced, malformed };
}
