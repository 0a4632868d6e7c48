/**
 * What the API answers, by component name (`components.schemas` of the OpenAPI document): the
 * records and envelopes of schemas/*.ts. A route declaration names its answer by one of these
 * (lib/routes/route.ts `success.schema`); lib/openapi/components.ts adds what clients send.
 */
import { deletedResponse, errorBody, listEnvelope } from '#schemas/common';
import { siteRecord } from '#schemas/site';
import { ideaRecord } from '#schemas/idea';
import { articleRecord } from '#schemas/article';
import { argumentRecord } from '#schemas/argument';
import { castVotesResponse, voteRecordSchema } from '#schemas/votes';
import { publicUserRecord, userRecord } from '#schemas/user';
import { activityResponse, anonymizationResponse, siteSummary } from '#schemas/user-activity';
import { signupRecord } from '#schemas/newsletter';
import { notificationRecord } from '#schemas/notification';
import { markerRecord } from '#schemas/discovery';
import { tagRecord } from '#schemas/tag';
import { checkpointRecord, consistencyRecord, publicCheckpoint, resultsRecord, userExportResponse, voteReceiptRecord, voteRecordKeyRecord } from '#schemas/results';
import { healthResponse } from '#schemas/health';
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { oauthClientConfig, SECRET_MASK, siteConfigSchema } from '#schemas/site-config';

interface OutputSchema {
  schema: z.core.$ZodType;
  /** What the document shows where the runtime schema says less (a typed site config). */
  shownAs?: z.core.$ZodType;
  description?: string;
}

/**
 * The config as reads show it: each secret is the mask. The request side marks secrets `writeOnly`,
 * which an answer may not carry (a client or fuzzer reading the document would call the mask a
 * violation), so here they are the mask itself.
 */
const maskShown = z.literal(SECRET_MASK).register(z.globalRegistry, { description: 'A secret: every read shows `********`; the value is write-only.' });
const configAsRead = z.extend(siteConfigSchema, {
  basicAuth: z.optional(z.extend(siteConfigSchema.shape.basicAuth._zod.def.innerType, { password: z.optional(maskShown) })),
  oauth: z.optional(z.record(z.string().check(z.maxLength(100)), z.extend(oauthClientConfig, { 'auth-client-secret': z.optional(maskShown) }))),
});

/** A site as the document shows it: its `config` typed (the record's runtime schema keeps it an open object: a redacted read is one too). */
const documentedSite = z.extend(siteRecord, { config: configAsRead });

/** What the API answers. Records may carry more fields than listed (CONTRACT "Records"). */
export const outputComponents = {
  Error: {
    schema: errorBody,
    description: 'Every error answer. `details` (one entry per failing field, `path` in dot form with array indexes in brackets: `extraData.tags[1]`, `[2].ideaId`) comes with ValidationError.',
  },
  Deleted: { schema: deletedResponse, description: 'The answer to every DELETE.' },
  SiteConfigRead: {
    schema: configAsRead,
    description:
      'The site configuration as read: merged with the defaults; public reads leave out `oauth`, `basicAuth`, `cms.dbName`, `notifications`, `anonymize`, `ignoreBruteForce` and `host`; ' +
      'editors and above see all of it, every secret as `********`. Unknown keys come back as stored.',
  },
  Site: {
    schema: siteRecord,
    shownAs: documentedSite,
    description: '`config` is merged with the defaults; public reads omit `oauth`, `basicAuth`, `cms.dbName`, `notifications`, `anonymize`, `ignoreBruteForce` and `host` (editors and above see all but the secrets, which read `********`).',
  },
  SiteList: { schema: listEnvelope(siteRecord), shownAs: listEnvelope(documentedSite) },
  SiteSummary: { schema: siteSummary },
  Idea: { schema: ideaRecord, description: 'Include flags add `yes`/`no` (when votes are viewable, or for moderators), `userVote`, `user`, `argumentsFor`/`argumentsAgainst` and `posterImage`.' },
  IdeaList: { schema: listEnvelope(ideaRecord) },
  Article: { schema: articleRecord },
  ArticleList: { schema: listEnvelope(articleRecord) },
  Argument: { schema: argumentRecord, description: '`withVoteCount=1` adds `yes`; `withUserVote=1` adds `hasUserVoted`.' },
  ArgumentList: { schema: listEnvelope(argumentRecord) },
  Vote: { schema: voteRecordSchema, description: '`userId` is shown to moderators and above (and in the caller\'s own POST answer) only.' },
  VoteList: { schema: listEnvelope(voteRecordSchema) },
  VoteRound: { schema: castVotesResponse, description: 'The caller\'s current votes on the site.' },
  User: { schema: userRecord, description: '`externalUserId` is shown to admins only.' },
  PublicUser: { schema: publicUserRecord, description: 'What others see of a user; callers who reach the user\'s `detailsViewableByRole` also get `firstName`, `lastName` and `extraData`.' },
  UserList: { schema: listEnvelope(userRecord) },
  Activity: { schema: activityResponse, description: 'All five keys are always present; a kind not asked for is an empty array.' },
  AnonymizeReport: { schema: anonymizationResponse, description: 'The records as they were before the anonymization.' },
  NewsletterSignup: { schema: signupRecord, description: '`confirmToken` appears only on unconfirmed records in lists read by admins.' },
  // Lifecycle: the outbox
  Notification: { schema: notificationRecord },
  NotificationList: { schema: listEnvelope(notificationRecord) },
  NewsletterSignupList: { schema: listEnvelope(signupRecord) },
  Tag: { schema: tagRecord },
  TagList: { schema: listEnvelope(tagRecord) },
  IdeaMarker: { schema: markerRecord, description: 'What a map needs of an idea that has a location.' },
  IdeaMarkerList: { schema: listEnvelope(markerRecord) },
  // Results, exports and the vote record
  Results: { schema: resultsRecord, description: '`ideas` ranked by `yes` (ties by id; competition ranks). Budgeting types add `winners` (greedy and Method of Equal Shares with add-one completion) within `votes.maxBudget`; per-theme types add `themes`.' },
  VoteCheckpoint: { schema: checkpointRecord, description: 'A signed checkpoint of the vote log: the RFC 9162 Merkle root over the first `treeSize` entries (every entry written up to `cut`), signed with Ed25519.' },
  SignedCheckpoint: { schema: publicCheckpoint, description: 'The signed text is `participation-api/site/<siteId>/votes`, the tree size, the root in standard base64, then `checkpoint <id>`, `cut <cut>`, `ballots <ballots>`, and `complete` once the log holds every ballot of the site, each line ending in a newline. No field says whether the `complete` line is there: the signature holds over exactly one of the two texts.' },
  VoteReceipt: { schema: voteReceiptRecord, description: 'The receipt\'s leaf in a signed checkpoint, with its inclusion proof.' },
  VoteRecordKey: { schema: voteRecordKeyRecord, description: 'The key that signs the vote checkpoints.' },
  ConsistencyProof: { schema: consistencyRecord, description: 'RFC 9162 2.1.4 consistency proof between two tree sizes.' },
  VoteCheckpointList: { schema: listEnvelope(checkpointRecord) },
  UserExport: { schema: userExportResponse, description: 'Every record the API holds about the person, on every site the same auth-server user is on.' },
  // Health check
  Health: { schema: healthResponse, description: 'The API answers and reaches its database.' },
} satisfies Record<string, OutputSchema>;


export type OutputComponent = keyof typeof outputComponents;
