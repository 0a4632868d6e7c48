/** The codecs of the checkpoints folder's record kinds (lib/store/db/codec.ts): keys, the item to Put, the checked record read. */
import { checkpointKeys } from '#lib/store/checkpoints/keys';
import { defineCodec } from '#lib/store/db/codec';
import { storedCheckpoint, type StoredCheckpoint } from '#schemas/stored/checkpoint';

export const checkpointCodec = defineCodec<StoredCheckpoint>({
  kind: 'vote checkpoint',
  schema: storedCheckpoint,
  keys: (item) => checkpointKeys.voteCheckpoint(item.siteId, item.id),
});
