/** The vote record's public routes (docs/results.md "The vote record"). */
import type { Route } from '#lib/routes/route';
import { siteParams } from '#schemas/common';
import { consistencyQuery, receiptParams } from '#schemas/results';

export const voteReceiptGet = {
  operationId: 'voteReceiptGet',
  method: 'GET',
  path: '/api/site/{siteId}/vote-receipt/{receipt}',
  handler: 'functions/results/vote-receipt',
  params: receiptParams,
  tag: 'Results',
  summary: "A vote receipt's inclusion proof",
  description:
    'The receipt (a vote record\'s `receipt`: its ballot entry\'s mac, 64 hex digits) in the first signed checkpoint that covers it: `leafIndex` and the RFC 9162 inclusion `proof` (sibling hashes from the leaf up) for the leaf `SHA-256(0x00 || receipt)`. 404 until a checkpoint covers it: to callers who may see the site\'s counts, that answer says how far the record goes (header `Vote-Record-Cut`, the time up to which the latest checkpoint covers votes; absent before the first and while the latest is being indexed) and when the next checkpoint is due (`Retry-After`, and both in the message), so a receipt written before the cut and still missing was left out. The receipt tells nothing about the ballot. While the site\'s vote counts are hidden (`votes.isViewable` false, the project running), the checkpoint comes without `ballots` for anyone but moderators: its root is then checked through the latest checkpoint once that is public.',
  access: 'everyone',
  dataAccess: 'read',
  auth: 'optional',
  success: { status: 200, schema: 'VoteReceipt' },
} satisfies Route;

export const voteRecordKey = {
  operationId: 'voteRecordKey',
  method: 'GET',
  path: '/api/vote-record/key',
  handler: 'functions/results/vote-record-key',
  tag: 'Results',
  summary: 'The public keys of the vote checkpoints',
  description:
    'Ed25519 (RFC 8032): each key raw in standard base64 and as a JWK, under its `keyId`, the id a signed checkpoint names. The top-level fields are the current key\'s; `keys` holds every key a checkpoint may name: `current` (signs now), `next` (published before it signs, during a rotation) and `retired` (signed checkpoints cut up to its `retiredAt`, kept for ever). A verifier checks each checkpoint with the key it names and refuses an id that is not listed.',
  access: 'everyone',
  dataAccess: 'publicKey',
  auth: 'none',
  success: { status: 200, schema: 'VoteRecordKey' },
} satisfies Route;

export const voteRecordCheckpoint = {
  operationId: 'voteRecordCheckpoint',
  method: 'GET',
  path: '/api/site/{siteId}/vote-record/checkpoint',
  handler: 'functions/results/vote-record-checkpoint',
  params: siteParams,
  tag: 'Results',
  summary: 'The latest signed checkpoint of the vote log',
  description:
    'What a voter, a witness or the city keeps to check later receipts and checkpoints against (`npm run verify-votes -- --receipt ... --checkpoint-url ...`). 404 before the first. Its `ballots` and `treeSize` count voters and rounds, so it follows the results\' rule: everyone when `votes.isViewable` or once the project has ended, else moderators and above.',
  access: 'everyone when votes are viewable or the project has ended; else moderators and above',
  dataAccess: 'read',
  auth: 'optional',
  success: { status: 200, schema: 'SignedCheckpoint' },
  errors: [403],
} satisfies Route;

export const voteRecordConsistency = {
  operationId: 'voteRecordConsistency',
  method: 'GET',
  path: '/api/site/{siteId}/vote-record/consistency',
  handler: 'functions/results/vote-record-consistency',
  params: siteParams,
  query: consistencyQuery,
  tag: 'Results',
  summary: 'The consistency proof between two tree sizes',
  description:
    'RFC 9162 2.1.4: the hashes that show the log of `to` entries extends the log of `from` entries, nothing rewritten, removed or reordered. `to` at most the latest checkpoint\'s size. Who may read it: as the latest checkpoint.',
  access: 'everyone when votes are viewable or the project has ended; else moderators and above',
  dataAccess: 'read',
  auth: 'optional',
  success: { status: 200, schema: 'ConsistencyProof' },
  errors: [403],
} satisfies Route;
