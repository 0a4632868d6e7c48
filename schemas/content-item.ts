/**
 * What ideas and articles share ("content items"): statuses, the create/update body (with the
 * site's length limits), the record, and the include flags both kinds understand.
 * schemas/idea.ts and schemas/article.ts build their own schemas from these.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { bodyId, queryFlag } from '#schemas/common';

export const contentStatuses = ['OPEN', 'CLOSED', 'ACCEPTED', 'DENIED', 'BUSY', 'DONE'] as const;
export const contentStatus = z.enum(contentStatuses, { error: `must be one of ${contentStatuses.join(', ')}` });
export type ContentStatus = z.infer<typeof contentStatus>;

/** `selectRunning=1` keeps these (CONTRACT "Records"). */
export const runningStatuses: readonly ContentStatus[] = ['OPEN', 'CLOSED', 'ACCEPTED', 'BUSY'];

/** Fields only moderators and above may set (CONTRACT "Identity and roles"). */
export const moderatorFields = ['status', 'budget', 'userId'] as const;

/** `config.ideas` / `config.articles` length limits (defaults are merged into the site config). */
export interface LengthLimits {
  titleMinLength: number;
  titleMaxLength: number;
  summaryMinLength: number;
  summaryMaxLength: number;
  descriptionMinLength: number;
  descriptionMaxLength: number;
}

/** Length in characters as people count them (code points), not UTF-16 units: an emoji is one. */
const textLength = (value: string): number => {
  let n = 0;
  for (const _ of value) n++;
  return n;
};

const limitedText = (min: number, max: number) =>
  z.string({ error: 'must be a string' }).check(
    z.superRefine((value, ctx) => {
      const length = textLength(value);
      if (length < min || length > max) {
        ctx.addIssue({ code: 'custom', message: `must be between ${min} and ${max} characters long (is ${length})` });
      }
    }),
  );

/**
 * What the OpenAPI document shows of such a field: the limits as `minLength`/`maxLength` (JSON
 * Schema counts code points too), said to be the defaults a site may change. A refine emits nothing
 * a generator can read, so the document's copy of the body (lib/openapi/components.ts) carries them.
 */
const documentedText = (min: number, max: number, setting: string) =>
  limitedText(min, max).register(z.globalRegistry, {
    minLength: min,
    maxLength: max,
    description: `${min}-${max} characters by default; each site sets its own (\`${setting}MinLength\` / \`${setting}MaxLength\`).`,
  });

/** Where a site's limits live, when the body is built for the document (`config.ideas.title`...). */
interface DocumentedLimits {
  configKey: 'ideas' | 'articles';
}

/**
 * The create body for a site's limits. `extraData` is only typed `unknown` here: the extraData engine
 * (lib/extra-data) checks it against the site's definitions, and its details join these in one 400.
 */
export const contentBodySchema = (limits: LengthLimits, documented?: DocumentedLimits) => {
  const text = (field: 'title' | 'summary' | 'description') => {
    const [min, max] = [limits[`${field}MinLength`], limits[`${field}MaxLength`]];
    return documented ? documentedText(min, max, `config.${documented.configKey}.${field}`) : limitedText(min, max);
  };
  return z.object({
    title: text('title'),
    summary: text('summary'),
    description: text('description'),
    status: z.optional(contentStatus),
    budget: z.optional(z.nullable(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)))),
    /** Moderators may create for (or hand over to) another user of the site; null means nobody. */
    userId: z.optional(z.nullable(bodyId)),
    extraData: z.optional(z.unknown()),
  });
};
export type ContentCreateBody = z.infer<ReturnType<typeof contentBodySchema>>;

/** PUT is partial: only the fields sent are checked (and changed). */
export const contentUpdateSchema = (limits: LengthLimits, documented?: DocumentedLimits) => z.partial(contentBodySchema(limits, documented));
export type ContentUpdateBody = z.infer<ReturnType<typeof contentUpdateSchema>>;

/** Bodies reach the domain as plain JSON objects; the schema above is applied there, with the site's limits. */
export const jsonObjectBody = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  { message: 'the body must be a JSON object' },
);

const publicUserSchema = z.object({
  id: z.int(),
  role: z.string(),
  displayName: z.string(),
  nickName: z.nullable(z.string()),
});

export const contentRecordSchema = z.object({
  id: z.int(),
  siteId: z.int(),
  userId: z.nullable(z.int()),
  title: z.string(),
  summary: z.string(),
  description: z.string(),
  status: contentStatus,
  budget: z.nullable(z.int()),
  extraData: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
  posterImage: z.optional(z.nullable(z.object({ url: z.string() }))),
  user: z.optional(z.nullable(publicUserSchema)),
});
export type ContentRecord = z.infer<typeof contentRecordSchema>;

/** Include flags both kinds have. */
export const contentIncludeFlags = {
  includePosterImage: queryFlag,
  includeUser: queryFlag,
};
