import { isPlainObject } from '#lib/extra-data/plain-object';

/**
 * `posterImage` of an idea or article (CONTRACT "Decided details"): `{url}` of the first entry of
 * `extraData.images`, whose entries are URL strings or `{url}` objects. Only the first entry counts,
 * as in OpenStad; when it is unusable (empty, not a string or `{url: string}`) there is no poster
 * image rather than a surprising later one.
 */
export function posterImageOf(extraData: unknown): { url: string } | null {
  if (!isPlainObject(extraData)) return null;
  const images = extraData.images;
  if (!Array.isArray(images) || images.length === 0) return null;
  const first: unknown = images[0];
  const url = typeof first === 'string' ? first : isPlainObject(first) ? first.url : undefined;
  return typeof url === 'string' && url !== '' ? { url } : null;
}
