/**
 * Test data written straight through lib/store (fast, no HTTP): sites with a given config, users with
 * a role, and tokens for them. Every site gets a fresh id, so tests never collide.
 */
import { randomInt } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { userKeys } from '#lib/store/users/keys';
import { COUNTER_IDS_BELOW, DRAWN_USER_IDS, FIRST_DRAWN_USER_ID, withNewId } from '#lib/store/db/ids';
import { claimUserId } from '#lib/store/users/users';
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

/**
 * A user id as the retired `user` counter (or an import) made them, below 10^9: for users from before
 * user ids were drawn. Random, so parallel test files do not meet (nothing claims these ids).
 */
export const counterUserId = (): number => randomInt(1, COUNTER_IDS_BELOW);

/**
 * The ids of the users the fixtures make: drawn ids, but ascending in the order a test process makes
 * them (from a random start in the lower half of the range), so a test that lists its users reads
 * them in the order it made them. Each is claimed, so processes whose runs meet skip ahead. A user
 * made the product's way (a first login, POST /user) gets a freely drawn id
 * (tests/integration/users/user-ids.test.ts).
 */
const fixtureUserIds = {
  last: 0,
  next(): number {
    this.last = this.last === 0 ? FIRST_DRAWN_USER_ID + randomInt(DRAWN_USER_IDS / 2) : this.last + 1;
    return this.last;
  },
  skip(): void {
    this.last += 1 + randomInt(1000);
  },
};

/** Runs a create of a fixture user with the next fixture user id, again with a later one when that id is taken. */
export const withNewFixtureUserId = <T>(create: (id: number) => Promise<T>): Promise<T> => withNewId(create, fixtureUserIds);

/**
 * A site user with a new drawn user id, claimed as a login's would be, so test files running in
 * parallel processes never share a user id. `fields.id` (e.g. `counterUserId()`) makes a user with
 * that id instead.
 */
export async function createUser(siteId: number, role: Role = 'member', fields: Record<string, unknown> = {}): Promise<TestUser> {
  const id = typeof fields.id === 'number' ? fields.id : await withNewFixtureUserId(claimUserId);
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
