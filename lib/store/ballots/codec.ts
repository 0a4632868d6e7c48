/**
 * The codec of ballots (one per user per site): the ballot's key and its owner's GSI1 entry (the
 * user's `BALLOT#<site>`), and every ballot read checked against its schema; projected reads (the
 * vote list, the vote record's check) against the view of it.
 */
import { defineCodec, recordReader } from '#lib/store/db/codec';
import { ballotKeys } from '#lib/store/ballots/keys';
import { userKeys } from '#lib/store/users/keys';
import { storedBallot, storedBallotView, type StoredBallot } from '#schemas/stored/ballot';

export const ballotCodec = defineCodec<StoredBallot>({
  kind: 'ballot',
  schema: storedBallot,
  keys: (ballot) => ({ ...ballotKeys.ballot(ballot.siteId, ballot.userId), ...userKeys.ownedBy(ballot.userId, 'BALLOT', ballot.siteId) }),
});

export const ballotViewOf = recordReader('ballot', storedBallotView) as (item: Record<string, unknown>) => StoredBallot;
