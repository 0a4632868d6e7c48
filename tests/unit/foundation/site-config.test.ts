import { describe, expect, it } from 'vitest';
import { siteConfigSchema } from '#schemas/site-config';
import { DEFAULT_CONFIG, withDefaults } from '#lib/sites/config-defaults';
import { redactConfig } from '#lib/site-admin/redact';
import { detailsOf } from '#lib/validation/zod-errors';

const paths = (value: unknown) => {
  const result = siteConfigSchema.safeParse(value);
  return result.success ? [] : detailsOf(result.error).map((d) => d.path).sort();
};

describe('site config schema', () => {
  it('accepts a full OpenStad-style config', () => {
    expect(
      paths({
        allowedDomains: ['a.org'],
        project: { endDate: '2026-12-01', projectHasEnded: false },
        oauth: { default: { 'auth-server-url': 'https://auth', 'auth-client-id': 'c' }, alt: { 'auth-client-id': 'd' } },
        ideas: { canAddNewIdeas: false, titleMinLength: 3, types: [{ name: 't', label: 'T', Initialavailablebudget: 100 }], extraData: { theme: { type: 'enum', values: ['a'] } } },
        votes: { isActive: null, isActiveFrom: '2026-01-01T00:00:00Z', voteType: 'budgeting-per-theme', withExisting: 'merge', themes: [{ value: 'green', maxBudget: 10 }] },
        users: { extraData: { bio: { 'site-specific': false }, age: { type: 'int', sitespecific: true } } },
        host: { status: null },
      }),
    ).toEqual([]);
  });

  it('names every wrongly typed path', () => {
    expect(
      paths({
        allowedDomains: 'a.org',
        votes: { voteType: 'ranked', requiredUserRole: 'admin', withExisting: 'ignore', isActive: 'yes', maxIdeas: 1.5 },
        ideas: { canAddNewIdeas: 'no', extraData: { theme: { type: 'date' } } },
        newslettersignup: { isActive: 1 },
      }),
    ).toEqual(
      [
        'allowedDomains',
        'ideas.canAddNewIdeas',
        'ideas.extraData.theme.type',
        'newslettersignup.isActive',
        'votes.isActive',
        'votes.maxIdeas',
        'votes.requiredUserRole',
        'votes.voteType',
        'votes.withExisting',
      ].sort(),
    );
  });

  it('rejects a non-date voting window', () => {
    expect(paths({ votes: { isActiveFrom: 'tomorrow' } })).toEqual(['votes.isActiveFrom']);
  });

  it('keeps unknown keys', () => {
    const parsed = siteConfigSchema.parse({ custom: { a: 1 }, ideas: { x: true } });
    expect(parsed).toEqual({ custom: { a: 1 }, ideas: { x: true } });
  });
});

describe('config defaults', () => {
  it('are the OpenStad defaults of CONTRACT', () => {
    const config = withDefaults({});
    expect(config.votes).toMatchObject({
      isViewable: false,
      isActive: null,
      requiredUserRole: 'member',
      withExisting: 'error',
      voteType: 'likes',
      minIdeas: 1,
      maxIdeas: 100,
    });
    expect(config.votes.voteValues.map((v) => v.value)).toEqual(['yes', 'no']);
    expect(config.ideas).toMatchObject({
      titleMinLength: 10,
      titleMaxLength: 50,
      summaryMinLength: 20,
      summaryMaxLength: 140,
      descriptionMinLength: 140,
      descriptionMaxLength: 5000,
      canAddNewIdeas: true,
      minimumYesVotes: 100,
      canEditAfterFirstLikeOrArg: false,
    });
    expect(config.articles).toMatchObject({ canAddNewArticles: true, titleMinLength: 10, descriptionMaxLength: 5000 });
    expect(config.arguments).toMatchObject({ isClosed: false, descriptionMinLength: 30, descriptionMaxLength: 500 });
    expect(config.users).toMatchObject({ canCreateNewUsers: true, allowUseOfNicknames: false });
    expect(config.newslettersignup).toEqual({ isActive: false, autoConfirm: false });
  });

  it('merge objects key by key and let stored arrays and scalars win', () => {
    const config = withDefaults({ ideas: { titleMinLength: 2 }, votes: { voteValues: [{ value: 'maybe' }], isActive: false }, allowedDomains: ['x.org'] });
    expect(config.ideas.titleMinLength).toBe(2);
    expect(config.ideas.titleMaxLength).toBe(50);
    expect(config.votes.voteValues).toEqual([{ value: 'maybe' }]);
    expect(config.votes.isActive).toBe(false);
    expect(config.allowedDomains).toEqual(['x.org']);
  });

  it('do not leak between sites (each read gets its own copy)', () => {
    const a = withDefaults({});
    a.ideas.titleMinLength = 99;
    expect(withDefaults({}).ideas.titleMinLength).toBe(10);
  });

  it('cannot be changed by a rule that writes to them instead of to its site\'s copy', () => {
    expect(() => {
      (DEFAULT_CONFIG.ideas as { titleMinLength: number }).titleMinLength = 99;
    }).toThrow(TypeError);
    expect(() => (DEFAULT_CONFIG.votes.voteValues as unknown[]).push({ value: 'maybe' })).toThrow(TypeError);
    expect(DEFAULT_CONFIG.ideas.titleMinLength).toBe(10);
    // A site's config is its own copy, writable all the way down.
    const config = withDefaults({});
    config.votes.voteValues.push({ value: 'maybe', label: 'Maybe', screenReaderAddition: '' } as never);
    expect(config.votes.voteValues).toHaveLength(DEFAULT_CONFIG.votes.voteValues.length + 1);
  });
});

describe('public redaction', () => {
  it('removes credentials and ops settings and keeps the rest', () => {
    const config = withDefaults({
      oauth: { default: { 'auth-client-secret': 's' } },
      basicAuth: { active: true, user: 'u', password: 'p' },
      cms: { dbName: 'db', url: 'https://cms' },
      notifications: { fromAddress: 'x' },
      anonymize: { anonymizeUsersXDaysAfterEndDate: 1 },
      ignoreBruteForce: ['1.1.1.1'],
      host: { status: 'x' },
    });
    const redacted = redactConfig(config);
    expect(Object.keys(redacted)).not.toEqual(expect.arrayContaining(['oauth']));
    for (const key of ['oauth', 'basicAuth', 'notifications', 'anonymize', 'ignoreBruteForce', 'host']) expect(redacted).not.toHaveProperty(key);
    expect(redacted.cms).toEqual({ url: 'https://cms' });
    expect(redacted.ideas).toEqual(config.ideas);
    expect(config.oauth).toBeDefined();
    // The server's bookkeeping is not a frontend's business.
    expect(redacted.project).not.toHaveProperty('endDateNotificationSent');
    expect(redacted.project).toHaveProperty('endDate');
    expect(redacted.users).not.toHaveProperty('anonymize');
    expect(redacted.users).toHaveProperty('allowUseOfNicknames');
  });
});
