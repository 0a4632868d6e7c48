/**
 * Newsletter signup rules: sign up (while the feature is active), list (moderators; tokens for
 * admins), confirm (public, by token). The service records signups only and sends no e-mail.
 */
import { conflict, notFound } from '#lib/errors';
import * as access from '#lib/auth/access';
import type { Caller } from '#lib/auth/caller';
import type { Site } from '#lib/sites/site';
import { emailKey } from '#lib/newsletter/email';
import { toSignupRecord } from '#lib/newsletter/record';
import { deriveToken, hashToken, newSalt, tokensEqual } from '#lib/newsletter/token';
import { withNewId } from '#lib/store/db/ids';
import * as store from '#lib/store/newsletter/newsletter';
import type { PageRequest } from '#lib/store/db/query';
import type { CreateSignupBody, SignupRecord } from '#schemas/newsletter';

/**
 * Double opt-in (CONTRACT "Decided details, security"): confirmed at once ONLY when the site
 * auto-confirms; otherwise pending with a confirm token, whoever signs up. Not even a logged-in user's
 * own address counts as proof: an e-mail set through the API (`PUT .../user/:id`) is whatever the
 * member typed, so it proves nothing about who reads that mailbox.
 */
export async function createSignup(caller: Caller, site: Site, body: CreateSignupBody): Promise<SignupRecord> {
  access.newsletter.create(site.config);
  const userId = caller.kind === 'user' ? caller.userId : null;
  const confirmed = site.config.newslettersignup.autoConfirm === true;

  const createdAt = new Date().toISOString();
  const { item, stored } = await withNewId(async (id) => {
    const item: store.SignupItem = {
      id,
      siteId: site.id,
      email: body.email,
      emailKey: emailKey(body.email),
      firstName: body.firstName ?? null,
      lastName: body.lastName ?? null,
      confirmed,
      createdAt,
      userId,
    };
    if (!confirmed) {
      item.tokenSalt = newSalt();
      item.tokenHash = hashToken(deriveToken(site.id, id, item.tokenSalt));
    }
    return { item, stored: await store.putNewSignup(item) };
  });
  if (!stored) {
    throw conflict(`${body.email} is already signed up for the newsletter of site ${site.id}`);
  }
  return toSignupRecord(item);
}

export async function listSignups(
  caller: Caller,
  site: Site,
  query: PageRequest & { confirmed?: boolean | undefined },
): Promise<{ records: SignupRecord[]; nextCursor: string | null }> {
  access.newsletter.list(caller);
  const withToken = access.newsletter.seesTokens(caller);
  const page = await store.listSignups(site.id, { confirmed: query.confirmed }, query);
  return { records: page.items.map((item) => toSignupRecord(item, { withToken })), nextCursor: page.nextCursor };
}

/**
 * Looks the token up by its hash (an unknown token finds nothing), checks it against the token
 * recomputed from the signup in constant time, then confirms and consumes it in one transaction.
 * Unknown, used and raced tokens are all the same 404.
 */
export async function confirmSignup(site: Site, confirmToken: string): Promise<SignupRecord> {
  const unknown = () => notFound(`Confirm token not found on site ${site.id}`);
  const tokenHash = hashToken(confirmToken);
  const signupId = await store.signupIdByTokenHash(site.id, tokenHash);
  if (signupId === undefined) throw unknown();
  const signup = await store.getSignup(site.id, signupId);
  if (!signup || signup.confirmed || !signup.tokenSalt || signup.tokenHash !== tokenHash) throw unknown();
  if (!tokensEqual(confirmToken, deriveToken(site.id, signup.id, signup.tokenSalt))) throw unknown();

  const now = new Date().toISOString();
  if (!(await store.confirmSignup(site.id, signup.id, tokenHash, now))) throw unknown();
  return toSignupRecord({ ...signup, confirmed: true, confirmedAt: now });
}
