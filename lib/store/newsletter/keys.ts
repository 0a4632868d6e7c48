/** Keys of newsletter signups, their e-mail guard and their confirm-token item. */
import { type Key, pad, sitePk } from '#lib/store/db/keys';

export const signupKeys = {
  newsletterSignup: (siteId: number, signupId: number): Key => ({
    PK: sitePk(siteId),
    SK: `SIGNUP#${pad(signupId)}`,
  }),
  newsletterSignupPrefix: 'SIGNUP#',
  /** Uniqueness guard: one signup per e-mail per site (conditional put in the same transaction). */
  newsletterEmail: (siteId: number, normalisedEmail: string): Key => ({
    PK: sitePk(siteId),
    SK: `SIGNUPEMAIL#${normalisedEmail}`,
  }),
  newsletterToken: (siteId: number, tokenHash: string): Key => ({
    PK: sitePk(siteId),
    SK: `SIGNUPTOKEN#${tokenHash}`,
  }),
} as const;
