/**
 * Test data written straight through lib/store (fast, no HTTP): sites with a given config, users with
 * a role, and tokens for them. Every site gets a fresh id, so tests never collide.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { userKeys } from '#lib/store/users/keys';
import { withNewId } from '#lib/store/db/ids';
import { nextUserId } from '#lib/store/db/counters';
import { putNewSite } from '#lib/store/sites/sites';
import { issueToken } from '#lib/auth/jwt';
import type { Role } from '#lib/auth/roles';
import { TEST_SERVICE_TOKENS } from './test-secrets.ts';
import type { SiteConfigInput } from '#schemas/site-config';

export const SERVICE_TOKEN = TEST_SERVICE_TOKENS.split(',')[0]!;

export async function createSite(config: SiteConfigInput = {}, name = 'Test site'): Promise<{ id: number }> {
  const now = new Date().toISOString();
  const id = await withNewId(async (id) => {
    await putNewSite({ id, name, title: name, domain: null, config, createdAt: now, updatedAt: now });
    return id;
  });
  return { id };
}

export interface TestUser {
  id: number;
  siteId: number;
  role: Role;
  token: string;
}

export async function createUser(siteId: number, role: Role = 'member', fields: Record<string, unknown> = {}): Promise<TestUser> {
  const id = await nextUserId();
  const now = new Date().toISOString();
  await doc.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...userKeys.user(siteId, id),
        id,
        siteId,
        role,
        email: `user${id}@example.org`,
        firstName: 'Test',
        lastName: `User ${id}`,
        nickName: null,
        extraData: {},
        createdAt: now,
        updatedAt: now,
        ...fields,
      },
    }),
  );
  return { id, siteId, role, token: await issueToken({ userId: id, siteId }) };
}
