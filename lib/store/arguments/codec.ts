/** The codecs of the arguments folder's record kinds (lib/store/db/codec.ts): keys, the item to Put, the checked record read. */
import { argumentKeys } from '#lib/store/arguments/keys';
import { defineCodec } from '#lib/store/db/codec';
import { storedArgument, type StoredArgument } from '#schemas/stored/argument';
import { userKeys } from '#lib/store/users/keys';

/** The author's GSI1 entry (activity, anonymization) while the argument has one. */
export const argumentCodec = defineCodec<StoredArgument>({
  kind: 'argument',
  schema: storedArgument,
  keys: (item) => ({ ...argumentKeys.argument(item.siteId, item.ideaId, item.id), ...argumentOwnerIndex(item) }),
});

/** The GSI1 keys of an argument's author: none while it has none. */
const argumentOwnerIndex = (item: Pick<StoredArgument, 'userId' | 'id'>) => (item.userId != null ? userKeys.ownedBy(item.userId, 'ARG', item.id) : {});
