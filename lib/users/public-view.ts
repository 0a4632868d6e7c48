/**
 * What anybody may see of a user (CONTRACT: the limited view is exactly `{id, role, displayName,
 * nickName}`), used by user reads and by `includeUser` on ideas and articles.
 */
import type { SiteConfig } from '#lib/sites/config-defaults';

export interface PublicUser {
  id: number;
  role: string;
  displayName: string;
  nickName: string | null;
}

interface UserNames {
  id: number;
  role: string;
  firstName?: string | null;
  lastName?: string | null;
  nickName?: string | null;
}

/** The nickname when the site allows nicknames and the user has one, else first and last name. */
export function displayNameOf(user: UserNames, config: SiteConfig): string {
  if (config.users.allowUseOfNicknames && user.nickName) return user.nickName;
  return [user.firstName, user.lastName].filter((part) => part?.trim()).join(' ');
}

export function publicUserView(user: UserNames, config: SiteConfig): PublicUser {
  return {
    id: user.id,
    role: user.role,
    displayName: displayNameOf(user, config),
    nickName: config.users.allowUseOfNicknames ? (user.nickName ?? null) : null,
  };
}
