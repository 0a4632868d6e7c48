/** The codecs of site users and their link items (lib/store/db/codec.ts). */
import { defineCodec } from '#lib/store/db/codec';
import { sitePk } from '#lib/store/db/keys';
import { userKeys } from '#lib/store/users/keys';
import { storedUser, storedUserLink, type StoredUser } from '#schemas/stored/user';

/** `<auth-server-url>|<external id>`: the auth-server user behind a site user, the same on every site. */
export const externalKeyOf = (authServer: string, externalUserId: string) => `${authServer}|${externalUserId}`;

export const linkedKey = (item: Pick<StoredUser, 'authServer' | 'externalUserId'>) =>
  item.authServer && item.externalUserId ? externalKeyOf(item.authServer, item.externalUserId) : undefined;

/**
 * A user's index keys follow from the record: GSI1 while linked to an auth-server user; GSI2 by
 * activity (or, once warned, by the warning) until anonymized.
 */
export const userCodec = defineCodec<StoredUser>({
  kind: 'user',
  schema: storedUser,
  keys: (user) => {
    const externalKey = linkedKey(user);
    return {
      ...userKeys.user(user.siteId, user.id),
      ...(externalKey ? { ...userKeys.userByExternal(externalKey), GSI1SK: sitePk(user.siteId) } : {}),
      ...(user.anonymizedAt
        ? {}
        : user.warnedAt
          ? userKeys.usersByActivity(user.siteId, user.id, 'warned', user.warnedAt)
          : userKeys.usersByActivity(user.siteId, user.id, 'active', user.lastActivityAt ?? user.createdAt)),
    };
  },
});

/** The link item of a linked user (the uniqueness guard): the site user's id. */
export const userLinkCodec = defineCodec<{ userId: number }, [siteId: number, externalKey: string]>({
  kind: 'user link',
  schema: storedUserLink,
  keys: (_link, siteId, externalKey) => userKeys.userLink(siteId, externalKey),
});
