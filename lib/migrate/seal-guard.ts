/**
 * Whether `npm run migrate` may give a ballot without a seal its first vote log entry. It may while the
 * site's log is still taking in ballots from before it; not once a signed checkpoint says the log holds
 * every ballot of the site: a ballot without a seal is then one written behind the log (a forged
 * ballot), and sealing it would make it part of the record for good. Nor while a checkpoint fails its
 * signature, or while a checkpoint item is malformed: the table no longer shows what the log said. Then the operator runs verify-votes.
 * Read once per site, and only when it has a ballot to seal (one Query per 1 MB of checkpoints).
 */
import { statedCompleteness } from '#lib/vote-record/completeness';
import { votePublicKeys } from '#lib/vote-record/keys';
import { readAllSignedCheckpointsChecked } from '#lib/store/vote-log/log';

/** Why no ballot of the site may be sealed now, or undefined when they may. */
export async function sealRefusal(siteId: number): Promise<string | undefined> {
  const { records, malformed } = await readAllSignedCheckpointsChecked(siteId);
  const check = `run npm run verify-votes -- --site ${siteId}`;
  // A checkpoint item that cannot be read may be one that said complete: nothing is sealed past it.
  if (malformed.length > 0) return `the checkpoint item(s) ${malformed.map((m) => m.key).join(', ')} of the site are malformed: ${check}`;
  const { since, unverified } = statedCompleteness(siteId, records, votePublicKeys());
  if (since !== undefined) return `checkpoint ${since} says the vote log holds every ballot of the site, so this one was written behind the log: ${check}`;
  if (unverified.length > 0) return `checkpoint(s) ${unverified.join(', ')} of the site do not verify: ${check}`;
  return undefined;
}
