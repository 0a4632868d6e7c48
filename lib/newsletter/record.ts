/**
 * Signup item -> CONTRACT record `{id, siteId, email, firstName, lastName, confirmed, createdAt}`,
 * plus `confirmToken` where the caller may see it.
 */
import { deriveToken } from '#lib/newsletter/token';
import type { SignupItem } from '#lib/store/newsletter/newsletter';
import type { SignupRecord } from '#schemas/newsletter';

export function toSignupRecord(item: SignupItem, options: { withToken?: boolean } = {}): SignupRecord {
  const record: SignupRecord = {
    id: item.id,
    siteId: item.siteId,
    email: item.email,
    firstName: item.firstName ?? null,
    lastName: item.lastName ?? null,
    confirmed: item.confirmed === true,
    createdAt: item.createdAt,
  };
  // Pending signups only: a confirmed signup has no token any more (its salt is removed on confirm).
  if (options.withToken && !record.confirmed && item.tokenSalt) {
    record.confirmToken = deriveToken(item.siteId, item.id, item.tokenSalt);
  }
  return record;
}
