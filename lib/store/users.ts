/**
 * Site users (the per-site cache of the auth server's users). This file holds the access patterns the
 * foundation needs (the caller's role on every request); the users feature adds the rest.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/client';
import { keys } from '#lib/store/keys';
import type { Role } from '#lib/auth/roles';

export interface UserItem {
  id: number;
  siteId: number;
  role: Role;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  nickName?: string | null;
  extraData?: Record<string, unknown>;
  externalUserId?: string | null;
  createdAt: string;
  updatedAt: string;
  [key: string]: unknown;
}

export async function getUser(siteId: number, userId: number): Promise<UserItem | undefined> {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: keys.user(siteId, userId) }));
  return out.Item as UserItem | undefined;
}
