import { describe, expect, it } from 'vitest';
import { withDefaults } from '#lib/sites/config-defaults';
import type { UserItem } from '#lib/store/users/users';
import { kindsAsked, ownedKindsOf } from '#lib/privacy/activity-kinds';
import { anonymizedUser, isAnonymized } from '#lib/privacy/anonymized-user';

describe('kindsAsked', () => {
  const all = { ideas: true, articles: true, arguments: true, votes: true };

  it('asks for all four when none is given (includeOtherSites does not count)', () => {
    expect(kindsAsked({})).toEqual(all);
    expect(kindsAsked({ includeOtherSites: false })).toEqual(all);
  });

  it('lets the given flags decide and turns the others off', () => {
    expect(kindsAsked({ includeIdeas: true })).toEqual({ ideas: true, articles: false, arguments: false, votes: false });
    expect(kindsAsked({ includeVotes: true, includeArguments: false })).toEqual({ ideas: false, articles: false, arguments: false, votes: true });
    expect(kindsAsked({ includeIdeas: false })).toEqual({ ideas: false, articles: false, arguments: false, votes: false });
  });

  it('maps kinds onto GSI1 item kinds', () => {
    expect(ownedKindsOf(all)).toEqual(['IDEA', 'ARTICLE', 'ARG', 'BALLOT']);
    expect(ownedKindsOf({ ideas: false, articles: false, arguments: true, votes: false })).toEqual(['ARG']);
  });
});

describe('anonymizedUser', () => {
  const user: UserItem = {
    id: 7,
    siteId: 3,
    role: 'editor',
    email: 'pat@example.org',
    firstName: 'Pat',
    lastName: 'Person',
    nickName: 'Patty',
    extraData: { bio: [{ value: 'mine', siteId: 3 }], phone: '0612345678' },
    externalUserId: '42',
    authServer: 'https://auth.example.org',
    listableByRole: 'all',
    detailsViewableByRole: 'member',
    gender: 'x',
    signedUpForNewsletter: true,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-02-01T00:00:00.000Z',
    // A field the cache may hold today or tomorrow: personal data must not survive by accident.
    postcode: '1234 AB',
  };

  it('keeps id, site, role and creation time; names from the config; nothing else personal', () => {
    const config = withDefaults({ users: { anonymize: { firstName: 'Former', lastName: 'Participant' } } });
    const out = anonymizedUser(user, config, '2025-01-01T00:00:00.000Z');
    expect(out).toEqual({
      id: 7,
      siteId: 3,
      role: 'editor',
      email: null,
      firstName: 'Former',
      lastName: 'Participant',
      nickName: null,
      extraData: {},
      externalUserId: null,
      authServer: null,
      listableByRole: null,
      detailsViewableByRole: null,
      gender: null,
      signedUpForNewsletter: null,
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      anonymizedAt: '2025-01-01T00:00:00.000Z',
    });
    expect(JSON.stringify(out)).not.toMatch(/pat|Person|0612|1234|auth\.example/i);
    expect(isAnonymized(out)).toBe(true);
    expect(isAnonymized(user)).toBe(false);
  });

  it('uses the default names when the site sets none', () => {
    const out = anonymizedUser(user, withDefaults({}), '2025-01-01T00:00:00.000Z');
    expect([out.firstName, out.lastName]).toEqual(['Gebruiker', 'is geanonimiseerd']);
  });
});
