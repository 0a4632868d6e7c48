/**
 * Checks a create or update body of an idea or article against the site's rules: field types, the
 * length limits of `config.ideas` / `config.articles`, and extraData against its definitions. Every
 * failure of the request is reported in one 400 (CONTRACT: one `details` entry per failing field).
 */
import { validateExtraData } from '#lib/extra-data/index';
import { validationError } from '#lib/errors';
import { detailsOf } from '#lib/validation/zod-errors';
import type { ContentSection } from '#lib/content/kind';
import {
  contentBodySchema,
  contentUpdateSchema,
  type ContentCreateBody,
  type ContentUpdateBody,
} from '#schemas/content-item';

export function validateCreateBody(section: ContentSection, body: Record<string, unknown>): ContentCreateBody {
  return check(contentBodySchema(section), section, body) as ContentCreateBody;
}

/** Only the fields sent are checked: an update that leaves `title` alone is not held to today's limits. */
export function validateUpdateBody(section: ContentSection, body: Record<string, unknown>): ContentUpdateBody {
  return check(contentUpdateSchema(section), section, body) as ContentUpdateBody;
}

function check(
  schema: ReturnType<typeof contentBodySchema> | ReturnType<typeof contentUpdateSchema>,
  section: ContentSection,
  body: Record<string, unknown>,
): ContentCreateBody | ContentUpdateBody {
  const parsed = schema.safeParse(body);
  const details = [
    ...(parsed.success ? [] : detailsOf(parsed.error)),
    ...validateExtraData(body.extraData, section.extraData, section.extraDataMustBeDefined === true),
  ];
  if (details.length > 0 || !parsed.success) throw validationError(details);
  return parsed.data;
}
