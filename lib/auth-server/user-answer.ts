/**
 * What we accept as a user from an auth server (userinfo and the admin API): the shape of
 * schemas/oauth.ts, and on top the rules every free-form JSON we keep follows, since a login stores
 * part of the answer on the user item (lib/users/auth-fields.ts):
 *
 * - no reserved keys anywhere (the request-body rule, lib/validation/reserved-keys.ts), checked on the
 *   answer as JSON.parse made it: parsing into the schema's output copies keys with assignment, where
 *   an own `__proto__` would become the copy's prototype instead of being seen;
 * - storable (lib/store/db/storable.ts), or the write would fail inside DynamoDB (a 500).
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { reservedKeyPaths } from '#lib/validation/reserved-keys';
import { firstUnstorablePart, fitsInItem, MAX_ATTRIBUTE_NESTING } from '#lib/store/db/storable';
import { authServerUserShape } from '#schemas/oauth';

export const authServerUser = z.pipe(
  z.unknown().check(
    z.superRefine((raw, ctx) => {
      const reserved = reservedKeyPaths(raw);
      if (reserved.length > 0) ctx.addIssue({ code: 'custom', message: `reserved key at ${reserved[0]!.path}` });
    }),
  ),
  authServerUserShape.check(
    z.superRefine((u, ctx) => {
      const stored = storedPart(u);
      const problem = firstUnstorablePart(stored, '', MAX_ATTRIBUTE_NESTING + 1);
      if (problem) ctx.addIssue({ code: 'custom', message: `${problem.path} ${problem.message}` });
      else if (!fitsInItem(stored)) ctx.addIssue({ code: 'custom', message: 'is too large to store' });
    }),
  ),
);

/** The fields of an auth-server user that a site user keeps (the user item's attributes hold them). */
function storedPart(u: Record<string, unknown>): Record<string, unknown> {
  const { id, sub, email, firstName, lastName, given_name, family_name, extraData } = u;
  return { id, sub, email, firstName, lastName, given_name, family_name, extraData };
}
