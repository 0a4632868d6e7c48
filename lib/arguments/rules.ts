/**
 * Pure argument rules: the per-site description length and the one-level reply thread.
 */
import { validationError } from '#lib/errors';
import type { SiteConfig } from '#lib/sites/config-defaults';

/** Length in characters as people count them (code points), so an emoji is one, not two. */
export const charCount = (text: string): number => [...text].length;

/** Throws a 400 ValidationError (path `description`) outside `arguments.descriptionMin/MaxLength`. */
export function assertDescriptionLength(description: string, config: SiteConfig): void {
  const min = config.arguments.descriptionMinLength;
  const max = config.arguments.descriptionMaxLength;
  const length = charCount(description);
  if (length < min || length > max) {
    throw validationError(
      [{ path: 'description', message: `must be between ${min} and ${max} characters (got ${length})` }],
      'Invalid body',
    );
  }
}

/** A reply must hang under a top-level argument of the same idea: threads are one level deep. */
export function assertReplyParent(
  parentId: number,
  ideaId: number,
  parent: { parentId: number | null } | undefined,
): void {
  if (!parent) {
    throw validationError([{ path: 'parentId', message: `argument ${parentId} does not exist on idea ${ideaId}` }], 'Invalid body');
  }
  if (parent.parentId != null) {
    throw validationError([{ path: 'parentId', message: `argument ${parentId} is itself a reply; replies cannot be nested` }], 'Invalid body');
  }
}
