// The extraData engine shared by ideas, articles and users.
export { validateExtraData, EXTRA_DATA_VALUE_MAX_NESTING } from '#lib/extra-data/validate';
export { mergeExtraData } from '#lib/extra-data/merge';
export { posterImageOf } from '#lib/extra-data/poster-image';
export { isPlainObject } from '#lib/extra-data/plain-object';
