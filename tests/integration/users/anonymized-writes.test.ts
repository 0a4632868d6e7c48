/**
 * An anonymized user is never written again by an update: a login that read the auth-server link just
 * before an anonymization must not restore the personal data the anonymization removed.
 */
import { describe, expect, it } from 'vitest';
import { createSite, createUser } from '#tests/support/fixtures';
import { getUser, updateUser } from '#lib/store/users/users';

describe('updates of an anonymized user', () => {
  it('are refused, and the record stays anonymized', async () => {
    const site = await createSite();
    const user = await createUser(site.id, 'member', { anonymizedAt: '2026-01-01T00:00:00.000Z', firstName: 'Gebruiker', email: null });
    const result = await updateUser(site.id, user.id, { firstName: 'Restored', email: 'back@example.org', updatedAt: new Date().toISOString() });
    expect(result).toBeUndefined();
    expect(await getUser(site.id, user.id)).toMatchObject({ firstName: 'Gebruiker', email: null });
  });

  it('still work for a user that is not anonymized', async () => {
    const site = await createSite();
    const user = await createUser(site.id, 'member');
    const result = await updateUser(site.id, user.id, { firstName: 'New', updatedAt: new Date().toISOString() });
    expect(result).toMatchObject({ firstName: 'New' });
  });
});
