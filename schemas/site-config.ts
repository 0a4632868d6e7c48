/**
 * The site configuration (`site.config`): one schema for every key of the spec's config table.
 * Every object is loose (unknown keys are kept, as OpenStad keeps them) and every key optional: the
 * stored config is what the admin sent; defaults are merged on read (lib/sites/config-defaults.ts).
 */
import * as z from 'zod';
import { extraDataDefinitionsSchema as extraDataDefinitions } from '#schemas/extra-data-definition';
import { parseIsoInstant } from '#schemas/iso-date';
import { VOTE_TYPE_NAMES } from '#schemas/vote-types';

const str = z.string().max(10_000);
const int = z.number().int();
const nonNegInt = z.number().int().min(0);
const bool = z.boolean();
const strings = z.array(z.string().max(2048)).max(1000);
// The voting rule's own parser (schemas/iso-date.ts): a date accepted here is a date the rule reads.
const isoDate = z.string().refine((s) => parseIsoInstant(s) !== null, 'must be an ISO 8601 date or date-time, e.g. 2024-06-15 or 2024-06-15T12:00:00Z');

const loose = <T extends z.core.$ZodLooseShape>(shape: T) => z.looseObject(shape).optional();

const feedbackEmail = loose({ from: str.optional(), subject: str.optional(), inzendingPath: str.optional(), template: str.optional() });

const lengthLimits = {
  titleMinLength: nonNegInt.optional(),
  titleMaxLength: nonNegInt.optional(),
  summaryMinLength: nonNegInt.optional(),
  summaryMaxLength: nonNegInt.optional(),
  descriptionMinLength: nonNegInt.optional(),
  descriptionMaxLength: nonNegInt.optional(),
  minimumYesVotes: int.optional(),
};

export const oauthClientConfig = z.looseObject({
  'auth-server-url': str.optional(),
  'auth-client-id': str.optional(),
  'auth-client-secret': str.optional(),
  'auth-server-login-path': str.optional(),
  'auth-server-exchange-code-path': str.optional(),
  'auth-server-get-user-path': str.optional(),
  'auth-server-logout-path': str.optional(),
  'after-login-redirect-uri': str.optional(),
});
export type OauthClientConfig = z.infer<typeof oauthClientConfig>;

const ideaType = z.looseObject({
  name: str.optional(),
  label: str.optional(),
  mapIcon: str.optional(),
  listIcon: str.optional(),
  buttonIcon: str.optional(),
  buttonLabel: str.optional(),
  backgroundColor: str.optional(),
  textColor: str.optional(),
  flag: str.optional(),
  mapUploadedFlag: str.optional(),
  mapFlagWidth: str.optional(),
  mapFlagHeight: str.optional(),
  auth: z.looseObject({}).optional(),
  Initialavailablebudget: int.optional(),
  minimalBudgetSpent: int.optional(),
});

export const voteTheme = z.looseObject({
  value: str,
  minIdeas: nonNegInt.optional(),
  maxIdeas: nonNegInt.optional(),
  minBudget: int.optional(),
  maxBudget: int.optional(),
});

export const votesConfig = z.looseObject({
  isViewable: bool.optional(),
  isActive: bool.nullable().optional(),
  isActiveFrom: isoDate.nullable().optional(),
  isActiveTo: isoDate.nullable().optional(),
  requiredUserRole: z.enum(['member', 'anonymous']).optional(),
  mustConfirm: bool.optional(),
  withExisting: z.enum(['error', 'replace', 'merge']).optional(),
  voteType: z.enum(VOTE_TYPE_NAMES).optional(),
  voteValues: z.array(z.looseObject({ label: str.optional(), value: z.string().min(1).max(64) })).min(1).max(20).optional(),
  maxIdeas: nonNegInt.optional(),
  minIdeas: nonNegInt.optional(),
  minBudget: int.nullable().optional(),
  maxBudget: int.nullable().optional(),
  themes: z.array(voteTheme).max(100).optional(),
});

/**
 * users.extraData: per field, an extraData definition and/or the site-specific switch (spelled
 * `sitespecific` or `site-specific`, both occur in the spec). `type` is optional here because a field
 * may be listed only to make it site-specific.
 */
const userFieldConfig = z.looseObject({
  type: z.enum(['boolean', 'int', 'string', 'arrayOfStrings', 'enum', 'object']).optional(),
  sitespecific: bool.optional(),
  'site-specific': bool.optional(),
});

export const siteConfigSchema = z.looseObject({
  allowedDomains: strings.optional(),
  project: loose({
    endDate: str.nullable().optional(),
    endDateNotificationSent: bool.optional(),
    projectHasEnded: bool.optional(),
  }),
  anonymize: loose({
    anonymizeUsersXDaysAfterEndDate: int.optional(),
    warnUsersAfterXDaysOfInactivity: int.optional(),
    anonymizeUsersAfterXDaysOfInactivity: int.optional(),
    inactiveWarningEmail: loose({ subject: str.optional(), template: str.optional() }),
  }),
  basicAuth: loose({ active: bool.optional(), user: str.optional(), password: str.optional() }),
  cms: loose({
    dbName: str.optional(),
    url: str.optional(),
    hostname: str.optional(),
    'after-login-redirect-uri': str.optional(),
    redirectURI: str.optional(),
    widgetDisplaySettings: loose({ beta: bool.optional(), deprecated: bool.optional(), visibleWidgets: strings.optional() }),
  }),
  notifications: loose({ fromAddress: str.optional(), projectmanagerAddress: str.optional(), siteadminAddress: str.optional() }),
  email: loose({ siteaddress: str.optional(), thankyoumail: loose({ from: str.optional() }) }),
  oauth: z.record(z.string().max(100), oauthClientConfig).optional(),
  ideas: loose({
    canAddNewIdeas: bool.optional(),
    ...lengthLimits,
    showVoteButtons: bool.optional(),
    canEditAfterFirstLikeOrArg: bool.optional(),
    feedbackEmail,
    extraDataMustBeDefined: bool.optional(),
    extraData: extraDataDefinitions.optional(),
    types: z.array(ideaType).max(100).optional(),
    automaticallyUpdateStatus: loose({ isActive: bool.optional(), afterXDays: int.optional() }),
  }),
  arguments: loose({
    new: loose({
      anonymous: loose({ redirect: str.nullable().optional(), notAllowedMessage: str.nullable().optional() }),
      showFields: strings.optional(),
    }),
    isClosed: bool.optional(),
    closedText: str.optional(),
    descriptionMinLength: nonNegInt.optional(),
    descriptionMaxLength: nonNegInt.optional(),
  }),
  users: loose({
    extraDataMustBeDefined: bool.optional(),
    extraData: z.record(z.string().max(200), userFieldConfig).optional(),
    canCreateNewUsers: bool.optional(),
    allowUseOfNicknames: bool.optional(),
    anonymize: loose({ firstName: str.optional(), lastName: str.optional() }),
  }),
  votes: votesConfig.optional(),
  articles: loose({
    canAddNewArticles: bool.optional(),
    ...lengthLimits,
    canEditAfterFirstLikeOrArg: bool.optional(),
    feedbackEmail,
    extraDataMustBeDefined: bool.optional(),
    extraData: extraDataDefinitions.optional(),
  }),
  polls: loose({ canAddPolls: bool.optional(), requiredUserRole: str.optional() }),
  newslettersignup: loose({
    isActive: bool.optional(),
    autoConfirm: bool.optional(),
    confirmationEmail: loose({ from: str.optional(), subject: str.optional(), url: str.optional(), template: str.optional() }),
  }),
  host: loose({ status: z.unknown().optional() }),
  ignoreBruteForce: strings.optional(),
});

export type SiteConfigInput = z.infer<typeof siteConfigSchema>;
