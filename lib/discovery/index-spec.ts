/** What an idea is found by (its index items, lib/store/ideas/index-items.ts), computed from the idea. */
import type { ContentItem } from '#lib/store/content/content-items';
import type { IdeaIndexSpec } from '#lib/store/ideas/index-items';
import { encodeGeohash, MAX_PRECISION } from '#lib/discovery/geo';
import { prefixesOf, wordsOf } from '#lib/discovery/words';

/** The words search matches an idea by: those of its title, summary and description. */
export const wordsOfIdea = (item: Pick<ContentItem, 'title' | 'summary' | 'description'>): string[] =>
  wordsOf(`${item.title}\n${item.summary}\n${item.description}`);

export function ideaIndexSpec(item: ContentItem): IdeaIndexSpec {
  const location = item.location ?? null;
  return {
    tags: item.tags ?? [],
    status: item.status,
    prefixes: prefixesOf(wordsOfIdea(item)),
    location: location
      ? {
          lat: location.lat,
          lng: location.lng,
          cells: Array.from({ length: MAX_PRECISION + 1 }, (_, p) => encodeGeohash(location.lat, location.lng, p)),
        }
      : null,
  };
}
