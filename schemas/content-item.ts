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
export const textLength = (value: string): number => {
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
 * The create body for a site's limits. `extraData` is only typed `unknown` here: the extraData engine
 * (lib/extra-data) checks it against the site's definitions, and its details join these in one 400.
 */
export const contentBodySchema = (limits: LengthLimits) =>
  z.object({
    title: limitedText(limits.titleMinLength, limits.titleMaxLength),
    summary: limitedText(limits.summaryMinLength, limits.summaryMaxLength),
    description: limitedText(limits.descriptionMinLength, limits.descriptionMaxLength),
    status: z.optional(contentStatus),
    budget: z.optional(z.nullable(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)))),
    /** Moderators may create for (or hand over to) another user of the site; null means nobody. */
    userId: z.optional(z.nullable(bodyId)),
    extraData: z.optional(z.unknown()),
  });
export type ContentCreateBody = z.infer<ReturnType<typeof contentBodySchema>>;

/** PUT is partial: only the fields sent are checked (and changed). */
export const contentUpdateSchema = (limits: LengthLimits) => z.partial(contentBodySchema(limits));
export type ContentUpdateBody = z.infer<ReturnType<typeof contentUpdateSchema>>;

/** Bodies reach the domain as plain JSON objects; the schema above is applied there, with the site's limits. */
export const jsonObjectBody = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  { message: 'the body must be a JSON object' },
);

export const publicUserSchema = z.object({
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
