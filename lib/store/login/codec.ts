/** The codecs of the login folder's record kinds (lib/store/db/codec.ts): keys, the item to Put, the checked record read. */
import { loginKeys } from '#lib/store/login/keys';
import { defineCodec } from '#lib/store/db/codec';
import { storedLoginState } from '#schemas/stored/counters';

/** Written, never read back: the conditional Put is the whole check. */
export const usedLoginStateCodec = defineCodec<{ ttl: number }, [siteId: number, nonceHash: string]>({
  kind: 'used login state',
  schema: storedLoginState,
  keys: (_state, siteId, nonceHash) => loginKeys.usedLoginState(siteId, nonceHash),
});
