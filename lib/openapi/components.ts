/**
 * The named schemas of the OpenAPI document (`components.schemas`), taken from schemas/*.ts. Request
 * bodies are converted as zod INPUT (what a client sends: before transforms and defaults), records as
 * OUTPUT (what the API answers). A schema registered here is emitted once and referenced by `$ref`
 * wherever it appears, also inside other components (a list envelope refers to its record).
 * A route's body is documented by the component whose schema is the very object the route declares
 * (lib/routes): the handler validates with it, so the document cannot show another one.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { DEFAULT_CONFIG } from '#lib/sites/config-defaults';
import { castVoteSchema, castVotesBody, MAX_ROUND_ENTRIES } from '#schemas/votes';
import { deletedResponse, errorBody, listEnvelope } from '#schemas/common';
import { contentBodySchema, contentUpdateSchema } from '#schemas/content-item';
import { createIdeaBody } from '#lib/routes/ideas/create';
import { updateIdeaBody } from '#lib/routes/ideas/update';
import { createArticleBody } from '#lib/routes/articles/create';
import { updateArticleBody } from '#lib/routes/articles/update';
import { createSiteBody, patchSiteBody, siteRecord, updateSiteBody } from '#schemas/site';
import { siteConfigSchema } from '#schemas/site-config';
import { ideaRecord } from '#schemas/idea';
import { articleRecord } from '#schemas/article';
import { argumentRecord, createArgumentBody, updateArgumentBody } from '#schemas/argument';
import { castVotesResponse, voteRecordSchema } from '#schemas/votes';
import { createUserBody, publicUserRecord, updateUserBody, userRecord } from '#schemas/user';
import { activityResponse, anonymizationResponse, siteSummary } from '#schemas/user-activity';
import { confirmBody, createSignupBody, signupRecord } from '#schemas/newsletter';
import { notificationRecord } from '#schemas/notification';
import { ideaDiscoveryFields, markerRecord } from '#schemas/discovery';
import { createTagBody, tagRecord, updateTagBody } from '#schemas/tag';
import { checkpointRecord, resultsRecord, userExportResponse } from '#schemas/results';
import { healthResponse } from '#schemas/health';

interface Component {
  schema: z.core.$ZodType;
  /**
   * What a client sends, where zod cannot show it from `schema` itself: a body the domain checks
   * against the site's rules (the edge takes any JSON object; shown with the default limits), or one
   * read through a preprocess. `schema` stays the one the route declares and the handler validates with.
   */
  shownAs?: z.core.$ZodType;
  description?: string;
}

const limitsNote = (kind: 'ideas' | 'articles') => {
  const l = DEFAULT_CONFIG[kind];
  return (
    `Lengths (in characters) are the site's \`config.${kind}\` limits; defaults: title ${l.titleMinLength}-${l.titleMaxLength}, ` +
    `summary ${l.summaryMinLength}-${l.summaryMaxLength}, description ${l.descriptionMinLength}-${l.descriptionMaxLength}. ` +
    `\`extraData\` is checked against \`config.${kind}.extraData\` when \`extraDataMustBeDefined\` is true; a key sent as null is removed. ` +
    '`status`, `budget` and `userId` may be set by moderators and above only (403 otherwise).'
  );
};

/** An argument's description as the document shows it: the default limits, said to be the site's to change. */
const { descriptionMinLength, descriptionMaxLength } = DEFAULT_CONFIG.arguments;
const argumentDescription = z.string().register(z.globalRegistry, {
  minLength: descriptionMinLength,
  maxLength: descriptionMaxLength,
  description:
    `${descriptionMinLength}-${descriptionMaxLength} characters (after trimming white space at both ends) by default; ` +
    'each site sets its own (`config.arguments.descriptionMinLength` / `descriptionMaxLength`).',
});

/**
 * One vote as the document shows it: `opinion` is one of the site's `votes.voteValues` (the defaults
 * listed), and absent means `yes`. No JSON Schema `default`: generators (openapi-typescript's default
 * mode) make a field with one required, and a client may leave it out.
 */
const documentedVote = z.object({
  ideaId: castVoteSchema.shape.ideaId,
  opinion: z.optional(z.enum(DEFAULT_CONFIG.votes.voteValues.map((v) => v.value) as [string, ...string[]])).register(z.globalRegistry, {
    description: "One of the site's `votes.voteValues` (by default `yes` or `no`); absent: `yes`.",
  }),
});

/** A site as the document shows it: its `config` typed (the record's runtime schema keeps it an open object: a redacted read is one too). */
const documentedSite = z.extend(siteRecord, { config: siteConfigSchema });

const discoveryNote =
  '`tags`: ids of tags of the site (an unknown one is a 400 at `tags[i]`), at most 20; `location`: `{lat, lng}` in WGS84 degrees, or null. ' +
  'The owner (under the edit rule) and moderators set both.';

/** What clients send. */
export const inputComponents = {
  SiteConfig: { schema: siteConfigSchema, description: 'The site configuration. Every key is optional; unknown keys are kept. Read back merged with the defaults.' },
  CreateSiteBody: { schema: createSiteBody },
  UpdateSiteBody: {
    schema: updateSiteBody,
    description: 'PUT: absent fields stay, but `config`, when sent, replaces the stored config as a whole (a key not sent is removed). To change some settings only, PATCH a merge patch.',
  },
  SitePatchBody: {
    schema: patchSiteBody,
    description:
      'A JSON Merge Patch (RFC 7396) of the site: only the keys sent change; in `config` objects merge key by key at any depth, `null` removes a key, arrays and other values replace. ' +
      'The merged config must be a valid `SiteConfig`.',
  },
  CreateIdeaBody: {
    schema: createIdeaBody,
    shownAs: z.extend(contentBodySchema(DEFAULT_CONFIG.ideas, { configKey: 'ideas' }), ideaDiscoveryFields.shape),
    description: `${limitsNote('ideas')} ${discoveryNote}`,
  },
  UpdateIdeaBody: {
    schema: updateIdeaBody,
    shownAs: z.extend(contentUpdateSchema(DEFAULT_CONFIG.ideas, { configKey: 'ideas' }), ideaDiscoveryFields.shape),
    description: `Partial: absent fields stay; extraData merges key by key. ${limitsNote('ideas')} ${discoveryNote}`,
  },
  CreateArticleBody: { schema: createArticleBody, shownAs: contentBodySchema(DEFAULT_CONFIG.articles, { configKey: 'articles' }), description: limitsNote('articles') },
  UpdateArticleBody: { schema: updateArticleBody, shownAs: contentUpdateSchema(DEFAULT_CONFIG.articles, { configKey: 'articles' }), description: `Partial: absent fields stay; extraData merges key by key. ${limitsNote('articles')}` },
  CreateArgumentBody: {
    schema: createArgumentBody,
    shownAs: z.extend(createArgumentBody, { description: argumentDescription }),
    description: '`userId`: moderators only.',
  },
  UpdateArgumentBody: {
    schema: updateArgumentBody,
    shownAs: z.extend(updateArgumentBody, { description: z.optional(argumentDescription) }),
    description: 'Partial: absent fields stay. `userId`: moderators only.',
  },
  VoteInput: { schema: castVoteSchema, shownAs: documentedVote, description: 'One vote of a round.' },
  VoteRoundBody: {
    // A preprocess makes a single vote a round of one; JSON Schema can only show the two forms.
    schema: castVotesBody,
    shownAs: z.union([documentedVote, z.array(documentedVote).check(z.minLength(1), z.maxLength(MAX_ROUND_ENTRIES))]),
    description: 'A round: an array of votes, or a single vote (a round of one). All-or-nothing.',
  },
  CreateUserBody: { schema: createUserBody, description: '`role` may not be above the caller\'s own. `nickName` is kept only when `users.allowUseOfNicknames`.' },
  UpdateUserBody: { schema: updateUserBody, description: 'Partial: absent fields stay; extraData merges key by key. `role` may not be above the caller\'s own.' },
  NewsletterSignupBody: { schema: createSignupBody },
  CreateTagBody: { schema: createTagBody, description: '`name`: 1-64 characters (trimmed), unique per site and `group` (case-insensitive). `group`: optional, at most 64 characters.' },
  UpdateTagBody: { schema: updateTagBody, description: 'Partial: absent fields stay.' },
  ConfirmBody: { schema: confirmBody },
} satisfies Record<string, Component>;

/** What the API answers. Records may carry more fields than listed (CONTRACT "Records"). */
export const outputComponents = {
  Error: {
    schema: errorBody,
    description: 'Every error answer. `details` (one entry per failing field, `path` in dot form with array indexes in brackets: `extraData.tags[1]`, `[2].ideaId`) comes with ValidationError.',
  },
  Deleted: { schema: deletedResponse, description: 'The answer to every DELETE.' },
  SiteConfigRead: {
    schema: siteConfigSchema,
    description:
      'The site configuration as read: merged with the defaults; public reads leave out `oauth`, `basicAuth`, `cms.dbName`, `notifications`, `anonymize`, `ignoreBruteForce` and `host`; ' +
      'editors and above see all of it, every secret (`writeOnly`) as `********`. Unknown keys come back as stored.',
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
  // Results, exports and the vote record (issue 16)
  Results: { schema: resultsRecord, description: '`ideas` ranked by `yes` (ties by id; competition ranks). Budgeting types add `winners` (greedy and Method of Equal Shares with add-one completion) within `votes.maxBudget`; per-theme types add `themes`.' },
  VoteCheckpoint: { schema: checkpointRecord, description: 'A Merkle root (RFC 6962, hex SHA-256) over the chain hashes of all ballots, sorted by ballot key, as they were at `createdAt`.' },
  VoteCheckpointList: { schema: listEnvelope(checkpointRecord) },
  UserExport: { schema: userExportResponse, description: 'Every record the API holds about the person, on every site the same auth-server user is on.' },
  // Health check
  Health: { schema: healthResponse, description: 'The API answers and reaches its database.' },
} satisfies Record<string, Component>;

export type InputComponent = keyof typeof inputComponents;
export type OutputComponent = keyof typeof outputComponents;
