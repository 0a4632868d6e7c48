/** The codecs of the newsletter folder's record kinds (lib/store/db/codec.ts): keys, the item to Put, the checked record read. */
import { signupKeys } from '#lib/store/newsletter/keys';
import { userKeys } from '#lib/store/users/keys';
import { defineCodec } from '#lib/store/db/codec';
import { storedSignup, storedSignupPointer, type StoredSignup } from '#schemas/stored/newsletter';

/** A guard or token item: the signup it points at. */
type SignupPointer = { signupId: number };

/** A signup a logged-in user made is on GSI1 under them (activity, anonymization). */
export const signupCodec = defineCodec<StoredSignup>({
  kind: 'newsletter signup',
  schema: storedSignup,
  keys: (item) => ({
    ...signupKeys.newsletterSignup(item.siteId, item.id),
    ...(item.userId != null ? userKeys.ownedBy(item.userId, 'SIGNUP', item.id) : {}),
  }),
});

export const signupEmailCodec = defineCodec<SignupPointer, [siteId: number, emailKey: string]>({
  kind: 'newsletter e-mail guard',
  schema: storedSignupPointer,
  keys: (_pointer, siteId, emailKey) => signupKeys.newsletterEmail(siteId, emailKey),
});

export const signupTokenCodec = defineCodec<SignupPointer, [siteId: number, tokenHash: string]>({
  kind: 'newsletter confirm token',
  schema: storedSignupPointer,
  keys: (_pointer, siteId, tokenHash) => signupKeys.newsletterToken(siteId, tokenHash),
});
