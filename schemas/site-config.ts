/**
 * The site configuration (`site.config`): one schema for every key of the spec's config table.
 * Every object is loose (unknown keys are kept, as OpenStad keeps them) and every key optional: the
 * stored config is what the admin sent; defaults are merged on read (lib/sites/config-defaults.ts).
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { extraDataDefinitionsSchema as extraDataDefinitions } from '#schemas/extra-data-definition';
import { parseIsoInstant } from '#schemas/iso-date';
import { VOTE_TYPE_NAMES } from '#schemas/vote-types';

const str = z.string().check(z.maxLength(10_000));
const int = z.int();
const nonNegInt = z.int().check(z.minimum(0));
const bool = z.boolean();
const strings = z.array(z.string().check(z.maxLength(2048))).check(z.maxLength(1000));
// The voting rule's own parser (schemas/iso-date.ts): a date accepted here is a date the rule reads.
const isoDate = z
  .string()
  .check(z.refine((s) => parseIsoInstant(s) !== null, 'must be an ISO 8601 date or date-time, e.g. 2024-06-15 or 2024-06-15T12:00:00Z'));

/**
 * A secret of the site (CONTRACT "Decided details, security"): write-only for every caller. Marking a
 * key with this schema is the one declaration of it: reads mask it, a write that sends the mask back
 * keeps the stored value (lib/sites/secrets.ts finds every key so marked), and the document shows it
 * as `writeOnly`.
 */
export const SECRET_MASK = '********';
/** `sentTo`: the sibling keys naming where the API sends the secret (lib/sites/secrets.ts keeps it only while they stay). */
const secret = (sentTo: readonly string[] = []) =>
  z.string().check(z.maxLength(10_000)).register(z.globalRegistry, {
    writeOnly: true,
    ...(sentTo.length > 0 ? { 'x-sent-to': sentTo } : {}),
    description:
      `Write-only: every read shows \`${SECRET_MASK}\`; sending \`${SECRET_MASK}\` back keeps the stored value` +
      (sentTo.length > 0 ? ` while ${sentTo.map((key) => `\`${key}\``).join(', ')} stays as stored (changed: send the secret again, else 400).` : '.'),
  });

const loose = <T extends z.core.$ZodLooseShape>(shape: T) => z.optional(z.looseObject(shape));

const feedbackEmail = loose({ from: z.optional(str), subject: z.optional(str), inzendingPath: z.optional(str), template: z.optional(str) });

const lengthLimits = {
  titleMinLength: z.optional(nonNegInt),
  titleMaxLength: z.optional(nonNegInt),
  summaryMinLength: z.optional(nonNegInt),
  summaryMaxLength: z.optional(nonNegInt),
  descriptionMinLength: z.optional(nonNegInt),
  descriptionMaxLength: z.optional(nonNegInt),
  minimumYesVotes: z.optional(int),
};

export const oauthClientConfig = z.looseObject({
  'auth-server-url': z.optional(str),
  'auth-client-id': z.optional(str),
  'auth-client-secret': z.optional(secret(['auth-server-url'])),
  'auth-server-login-path': z.optional(str),
  'auth-server-exchange-code-path': z.optional(str),
  'auth-server-get-user-path': z.optional(str),
  'auth-server-logout-path': z.optional(str),
  'after-login-redirect-uri': z.optional(str),
  /** Where digest-login puts the JWT on the way back: `?jwt=` (default, OpenStad's clients read it) or `#jwt=`. */
  jwtIn: z.optional(z.enum(['query', 'fragment'])),
});
export type OauthClientConfig = z.infer<typeof oauthClientConfig>;

const ideaType = z.looseObject({
  name: z.optional(str),
  label: z.optional(str),
  mapIcon: z.optional(str),
  listIcon: z.optional(str),
  buttonIcon: z.optional(str),
  buttonLabel: z.optional(str),
  backgroundColor: z.optional(str),
  textColor: z.optional(str),
  flag: z.optional(str),
  mapUploadedFlag: z.optional(str),
  mapFlagWidth: z.optional(str),
  mapFlagHeight: z.optional(str),
  auth: z.optional(z.looseObject({})),
  Initialavailablebudget: z.optional(int),
  minimalBudgetSpent: z.optional(int),
});

const voteTheme = z.looseObject({
  value: str,
  minIdeas: z.optional(nonNegInt),
  maxIdeas: z.optional(nonNegInt),
  minBudget: z.optional(int),
  maxBudget: z.optional(int),
});

const votesConfig = z.looseObject({
  isViewable: z.optional(bool),
  isActive: z.optional(z.nullable(bool)),
  isActiveFrom: z.optional(z.nullable(isoDate)),
  isActiveTo: z.optional(z.nullable(isoDate)),
  requiredUserRole: z.optional(z.enum(['member', 'anonymous'])),
  mustConfirm: z.optional(bool),
  withExisting: z.optional(z.enum(['error', 'replace', 'merge'])),
  voteType: z.optional(z.enum(VOTE_TYPE_NAMES)),
  voteValues: z.optional(
    z.array(z.looseObject({ label: z.optional(str), value: z.string().check(z.minLength(1), z.maxLength(64)) })).check(z.minLength(1), z.maxLength(20)),
  ),
  maxIdeas: z.optional(nonNegInt),
  minIdeas: z.optional(nonNegInt),
  minBudget: z.optional(z.nullable(int)),
  maxBudget: z.optional(z.nullable(int)),
  themes: z.optional(z.array(voteTheme).check(z.maxLength(100))),
});

/**
 * users.extraData: per field, an extraData definition and/or the site-specific switch (spelled
 * `sitespecific` or `site-specific`, both occur in the spec). `type` is optional here because a field
 * may be listed only to make it site-specific.
 */
const userFieldConfig = z.looseObject({
  type: z.optional(z.enum(['boolean', 'int', 'string', 'arrayOfStrings', 'enum', 'object'])),
  sitespecific: z.optional(bool),
  'site-specific': z.optional(bool),
});

export const siteConfigSchema = z.looseObject({
  allowedDomains: z.optional(strings),
  project: loose({
    endDate: z.optional(z.nullable(str)),
    endDateNotificationSent: z.optional(bool),
    projectHasEnded: z.optional(bool),
  }),
  anonymize: loose({
    anonymizeUsersXDaysAfterEndDate: z.optional(int),
    warnUsersAfterXDaysOfInactivity: z.optional(int),
    anonymizeUsersAfterXDaysOfInactivity: z.optional(int),
    inactiveWarningEmail: loose({ subject: z.optional(str), template: z.optional(str) }),
  }),
  basicAuth: loose({ active: z.optional(bool), user: z.optional(str), password: z.optional(secret()) }),
  cms: loose({
    dbName: z.optional(str),
    url: z.optional(str),
    hostname: z.optional(str),
    'after-login-redirect-uri': z.optional(str),
    redirectURI: z.optional(str),
    widgetDisplaySettings: loose({ beta: z.optional(bool), deprecated: z.optional(bool), visibleWidgets: z.optional(strings) }),
  }),
  notifications: loose({ fromAddress: z.optional(str), projectmanagerAddress: z.optional(str), siteadminAddress: z.optional(str) }),
  email: loose({ siteaddress: z.optional(str), thankyoumail: loose({ from: z.optional(str) }) }),
  oauth: z.optional(z.record(z.string().check(z.maxLength(100)), oauthClientConfig)),
  ideas: loose({
    canAddNewIdeas: z.optional(bool),
    ...lengthLimits,
    showVoteButtons: z.optional(bool),
    canEditAfterFirstLikeOrArg: z.optional(bool),
    feedbackEmail,
    extraDataMustBeDefined: z.optional(bool),
    extraData: z.optional(extraDataDefinitions),
    types: z.optional(z.array(ideaType).check(z.maxLength(100))),
    automaticallyUpdateStatus: loose({ isActive: z.optional(bool), afterXDays: z.optional(int) }),
  }),
  arguments: loose({
    new: loose({
      anonymous: loose({ redirect: z.optional(z.nullable(str)), notAllowedMessage: z.optional(z.nullable(str)) }),
      showFields: z.optional(strings),
    }),
    isClosed: z.optional(bool),
    closedText: z.optional(str),
    descriptionMinLength: z.optional(nonNegInt),
    descriptionMaxLength: z.optional(nonNegInt),
  }),
  users: loose({
    extraDataMustBeDefined: z.optional(bool),
    extraData: z.optional(z.record(z.string().check(z.maxLength(200)), userFieldConfig)),
    canCreateNewUsers: z.optional(bool),
    allowUseOfNicknames: z.optional(bool),
    anonymize: loose({ firstName: z.optional(str), lastName: z.optional(str) }),
  }),
  votes: z.optional(votesConfig),
  articles: loose({
    canAddNewArticles: z.optional(bool),
    ...lengthLimits,
    canEditAfterFirstLikeOrArg: z.optional(bool),
    feedbackEmail,
    extraDataMustBeDefined: z.optional(bool),
    extraData: z.optional(extraDataDefinitions),
  }),
  polls: loose({ canAddPolls: z.optional(bool), requiredUserRole: z.optional(str) }),
  newslettersignup: loose({
    isActive: z.optional(bool),
    autoConfirm: z.optional(bool),
    confirmationEmail: loose({ from: z.optional(str), subject: z.optional(str), url: z.optional(str), template: z.optional(str) }),
  }),
  host: loose({ status: z.optional(z.unknown()) }),
  ignoreBruteForce: z.optional(strings),
});

export type SiteConfigInput = z.infer<typeof siteConfigSchema>;
