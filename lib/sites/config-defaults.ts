/**
 * OpenStad's defaults for the site config (CONTRACT "Records" and "Decided details"), merged under the
 * stored config on every read. The stored config stays exactly what the admin sent.
 */
import type { SiteConfigInput } from '#schemas/site-config';
import type { VoteType } from '#schemas/vote-types';

const lengthDefaults = {
  titleMinLength: 10,
  titleMaxLength: 50,
  summaryMinLength: 20,
  summaryMaxLength: 140,
  descriptionMinLength: 140,
  descriptionMaxLength: 5000,
  minimumYesVotes: 100,
};

/**
 * Frozen all the way down: every request of every site reads these, so a rule that wrote to one by
 * mistake (instead of to its site's copy) would change every site's config until the Lambda is
 * recycled. Frozen, the write throws where it happens (ES modules run in strict mode).
 */
function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFrozen(inner);
    Object.freeze(value);
  }
  return value;
}

export const DEFAULT_CONFIG = deepFrozen({
  allowedDomains: [] as string[],
  project: { endDate: null as string | null, endDateNotificationSent: false, projectHasEnded: false },
  anonymize: {
    anonymizeUsersXDaysAfterEndDate: 60,
    warnUsersAfterXDaysOfInactivity: 770,
    anonymizeUsersAfterXDaysOfInactivity: 860,
  },
  basicAuth: { active: false },
  ideas: {
    canAddNewIdeas: true,
    ...lengthDefaults,
    showVoteButtons: true,
    canEditAfterFirstLikeOrArg: false,
    extraDataMustBeDefined: false,
    extraData: {} as Record<string, Record<string, unknown>>,
    types: [] as Record<string, unknown>[],
  },
  arguments: {
    isClosed: false,
    closedText: 'Arguments are closed for this site',
    descriptionMinLength: 30,
    descriptionMaxLength: 500,
  },
  users: {
    extraDataMustBeDefined: false,
    extraData: {} as Record<string, Record<string, unknown>>,
    canCreateNewUsers: true,
    allowUseOfNicknames: false,
    anonymize: { firstName: 'Gebruiker', lastName: 'is geanonimiseerd' },
  },
  votes: {
    isViewable: false,
    isActive: null as boolean | null,
    isActiveFrom: null as string | null,
    isActiveTo: null as string | null,
    requiredUserRole: 'member' as 'member' | 'anonymous',
    mustConfirm: false,
    withExisting: 'error' as 'error' | 'replace' | 'merge',
    voteType: 'likes' as VoteType,
    voteValues: [
      { label: 'voor', value: 'yes' },
      { label: 'tegen', value: 'no' },
    ] as { label?: string; value: string }[],
    minIdeas: 1,
    maxIdeas: 100,
    minBudget: null as number | null,
    maxBudget: null as number | null,
    themes: [] as { value: string; minIdeas?: number; maxIdeas?: number; minBudget?: number; maxBudget?: number }[],
  },
  articles: {
    canAddNewArticles: true,
    ...lengthDefaults,
    canEditAfterFirstLikeOrArg: false,
    extraDataMustBeDefined: false,
    extraData: {} as Record<string, Record<string, unknown>>,
  },
  polls: { canAddPolls: false, requiredUserRole: 'member' },
  newslettersignup: { isActive: false, autoConfirm: false },
  host: { status: null as unknown },
  ignoreBruteForce: [] as string[],
});

/** The config every domain rule reads: the stored config over the defaults. Unknown keys are kept. */
export type SiteConfig = typeof DEFAULT_CONFIG & SiteConfigInput & Record<string, unknown>;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A fresh copy of a default (the defaults are shared by every request; a site's config is its own). */
function copyOfDefault(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyOfDefault);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyOfDefault(value[key]);
  return out;
}

/**
 * Objects merge key by key (the defaults' keys first, in their order, then the stored ones they do
 * not name); arrays and scalars from `over` replace; `undefined` keeps the default. What is taken from
 * the defaults is copied, so no site's config shares an object with them. (A hand-written copy:
 * structuredClone of the whole defaults was the largest cost of every site-scoped request.)
 */
function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined) return copyOfDefault(base);
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(base)) out[key] = deepMerge(base[key], Object.hasOwn(over, key) ? over[key] : undefined);
  for (const key of Object.keys(over)) if (!Object.hasOwn(base, key)) out[key] = over[key];
  return out;
}

export function withDefaults(stored: SiteConfigInput | undefined): SiteConfig {
  return deepMerge(DEFAULT_CONFIG, stored ?? {}) as SiteConfig;
}
