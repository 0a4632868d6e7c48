/** The codecs of the jobs folder's record kinds (lib/store/db/codec.ts): keys, the item to Put, the checked record read. */
import { jobKeys } from '#lib/store/jobs/keys';
import { defineCodec } from '#lib/store/db/codec';
import { storedJobMarker, type StoredJobMarker } from '#schemas/stored/job-marker';

export const jobMarkerCodec = defineCodec<StoredJobMarker>({
  kind: 'job marker',
  schema: storedJobMarker,
  keys: (marker) => jobKeys.jobMarker(marker.siteId, marker.job),
});
