/**
 * What a site's signed checkpoints say of its log holding every ballot of the site (the `complete`
 * line, lib/vote-record/checkpoint.ts), as a writer of the log must know it before adding a ballot's
 * first entry: `npm run migrate` seals ballots from before the log only while no checkpoint says the
 * log is complete, and not while a checkpoint fails its signature (then what the log said can no
 * longer be read from the table, and verify-votes has the last word). Pure: the caller reads the
 * checkpoints and passes the published keys.
 */
import { signedForm, type SignedCheckpoint } from '#lib/vote-record/checkpoint';
import { signerOf, type KeySet } from '#lib/vote-record/key-set';

interface StatedCompleteness {
  /** The first checkpoint that says the log holds every ballot. */
  since: number | undefined;
  /** Checkpoints whose signature does not hold in either form (or that name a key not published). */
  unverified: number[];
}

export function statedCompleteness(siteId: number, checkpoints: readonly SignedCheckpoint[], keys: KeySet): StatedCompleteness {
  let since: number | undefined;
  const unverified: number[] = [];
  for (const cp of [...checkpoints].sort((a, b) => a.id - b.id)) {
    const signer = signerOf(keys, cp);
    const form = cp.siteId === siteId && 'key' in signer ? signedForm(cp, signer.key) : undefined;
    if (!form) unverified.push(cp.id);
    else if (form === 'complete' && since === undefined) since = cp.id;
  }
  return { since, unverified };
}
