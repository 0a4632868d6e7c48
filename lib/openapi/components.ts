/**
 * The named schemas of the OpenAPI document (`components.schemas`), taken from schemas/*.ts: here what
 * clients send, converted as zod INPUT (before transforms and defaults); what the API answers is
 * lib/routes/outputs.ts (route declarations name their answer by it), converted as OUTPUT. A schema
 * registered here is emitted once and referenced by `$ref` wherever it appears, also inside other
 * components (a list envelope refers to its record).
 * A route's body is documented by the component whose schema is the very object the route declares
 * (lib/routes): the handler validates with it, so the document cannot show another one.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { DEFAULT_CONFIG } from '#lib/sites/config-defaults';
import { castVoteSchema, castVotesBody, MAX_ROUND_ENTRIES, reviewVoteBody } from '#schemas/votes';
import { contentBodySchema, contentUpdateSchema } from '#schemas/content-item';
import { createIdeaBody } from '#lib/routes/ideas/create';
import { updateIdeaBody } from '#lib/routes/ideas/update';
import { createArticleBody } from '#lib/routes/articles/create';
import { updateArticleBody } from '#lib/routes/articles/update';
import { createSiteBody, patchSiteBody, updateSiteBody } from '#schemas/site';
import { siteConfigSchema } from '#schemas/site-config';
import { createArgumentBody, updateArgumentBody } from '#schemas/argument';
import { createUserBody, updateUserBody } from '#schemas/user';
import { confirmBody, createSignupBody } from '#schemas/newsletter';
import { ideaDiscoveryFields } from '#schemas/discovery';
import { createTagBody, updateTagBody } from '#schemas/tag';

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
  ReviewVoteBody: { schema: reviewVoteBody, description: 'Partial: without `rejected` nothing changes. `true` rejects (under ballot types: the whole ballot), `false` reinstates.' },
  CreateUserBody: { schema: createUserBody, description: '`role` may not be above the caller\'s own. `nickName` is kept only when `users.allowUseOfNicknames`.' },
  UpdateUserBody: { schema: updateUserBody, description: 'Partial: absent fields stay; extraData merges key by key. `role` may not be above the caller\'s own.' },
  NewsletterSignupBody: { schema: createSignupBody },
  CreateTagBody: { schema: createTagBody, description: '`name`: 1-64 characters (trimmed), unique per site and `group` (case-insensitive). `group`: optional, at most 64 characters.' },
  UpdateTagBody: { schema: updateTagBody, description: 'Partial: absent fields stay.' },
  ConfirmBody: { schema: confirmBody },
} satisfies Record<string, Component>;

export type InputComponent = keyof typeof inputComponents;
