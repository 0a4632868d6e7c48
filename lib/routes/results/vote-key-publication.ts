/**
 * How long a change of the published vote keys takes to reach every reader of `GET /api/vote-record/key`:
 * the function behind it reads the stored key list through the secrets cache (a warm container keeps a
 * value up to SECRETS_MAX_AGE_SECONDS), and its answer may then be kept by caches for the route's cache
 * lifetime (none while the route is not cacheable). Derived here, once, from those two declarations, so
 * a change of either moves it:
 * - a `next` key signs only once it has been published this long (`rotate-vote-key --step promote`
 *   refuses earlier), so no verifier that fetches the list meets a checkpoint of a key it was not shown;
 * - a copy of the list taken at T, showing a key current and no next one, vouches for that key up to
 *   T + this (lib/vote-record/key-set.ts `singleKeyCopy`): no rotation can have retired it sooner.
 */
import { cacheLifetimeSeconds } from '#lib/http/caching';
import type { Route } from '#lib/routes/route';
import { voteRecordKey } from '#lib/routes/results/vote-record';
import { SECRETS_MAX_AGE_SECONDS } from '#lib/store/secrets/load';

export const KEY_PUBLICATION_SECONDS = SECRETS_MAX_AGE_SECONDS + cacheLifetimeSeconds((voteRecordKey as Route).cache);
