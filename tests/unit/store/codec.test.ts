/**
 * The record codecs (lib/store/db/codec.ts, DESIGN habit 13): a read checks the stored shape once and
 * fails loudly, naming the item's key and its first problem, while attributes the schema does not name
 * (index keys, tombstones, future fields) and the shapes of older releases still read.
 */
import { ballotCodec } from '#lib/store/ballots/codec';
import { describe, expect, it } from 'vitest';
import { CorruptRecordError } from '#lib/errors';
import { voteLogKeys } from '#lib/store/vote-log/log';
import { storedSignedCheckpoint } from '#schemas/stored/vote-log';
import { defineCodec } from '#lib/store/db/codec';
import { contentItemCodec } from '#lib/store/content/codec';
import { contentKeys } from '#lib/store/content/keys';
import { userKeys } from '#lib/store/users/keys';
import { siteCodec } from '#lib/store/sites/codec';
import { type UserItem } from '#lib/store/users/users';
import { userCodec } from '#lib/store/users/codec';

const idea = {
  id: 7,
  siteId: 1,
  userId: 3,
  title: 'A park by the river',
  summary: 'Green space',
  description: 'Long enough',
  status: 'OPEN' as const,
  budget: null,
  extraData: { theme: 'green' },
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:00:00.000Z',
  version: 1,
  tags: [2],
  location: { lat: 52.1, lng: 5.1 },
};
const stored = contentItemCodec.toItem(idea, 'IDEA');

/** The CorruptRecordError a read throws (the test fails when it does not throw one). */
function failureOf(read: () => unknown): CorruptRecordError {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(CorruptRecordError);
    return err as CorruptRecordError;
  }
  throw new Error('the read did not fail');
}

describe('a codec', () => {
  it('puts the record under its keys from keys.ts and reads it back as it was', () => {
    expect(stored).toMatchObject({ ...contentKeys.idea(1, 7), ...userKeys.ownedBy(3, 'IDEA', 7), title: idea.title });
    expect(contentItemCodec.fromItem(stored)).toEqual(idea);
  });

  it('keeps attributes its schema does not name, and drops the key attributes', () => {
    const read = contentItemCodec.fromItem({ ...stored, indexKeys: ['IX#S#OPEN#0000000007'], deletingAt: '2030-02-01T00:00:00.000Z', someFutureField: { a: 1 } });
    expect(read).toMatchObject({ indexKeys: ['IX#S#OPEN#0000000007'], deletingAt: '2030-02-01T00:00:00.000Z', someFutureField: { a: 1 } });
    for (const key of ['PK', 'SK', 'GSI1PK', 'GSI1SK']) expect(read).not.toHaveProperty(key);
  });

  it('fails on a wrong-typed attribute, with the key and the attribute in the error', () => {
    const err = failureOf(() => contentItemCodec.fromItem({ ...stored, title: 42 }));
    expect(err.kind).toBe('idea or article');
    expect(err.key).toBe('SITE#1 IDEA#0000000007');
    expect(err.problem.path).toBe('title');
    expect(err.message).toContain('SITE#1 IDEA#0000000007');
    expect(err.message).toMatch(/title .*expected string/);
  });

  it('fails on a missing required attribute, and names the attribute, array indexes and `*` for every key below it', () => {
    const { createdAt: _createdAt, ...withoutCreatedAt } = stored;
    expect(failureOf(() => contentItemCodec.fromItem(withoutCreatedAt)).problem.path).toBe('createdAt');
    expect(failureOf(() => contentItemCodec.fromItem({ ...stored, location: { lat: '52', lng: 5 } })).problem.path).toBe('location.*');
    expect(failureOf(() => contentItemCodec.fromItem({ ...stored, tags: [1, 'x'] })).problem.path).toBe('tags[1]');
    expect(failureOf(() => contentItemCodec.fromItem({ ...stored, status: 'MAYBE' })).problem.path).toBe('status');
  });

  it('never puts a stored value in the error (it is logged)', () => {
    const user = userCodec.toItem(aUser());
    const err = failureOf(() => userCodec.fromItem({ ...user, email: 31_415_926 }));
    expect(err.problem.path).toBe('email');
    expect(err.message).not.toContain('31415926');
  });

  it('never puts a key of a stored map in the problem (a writer chooses them: an e-mail address, say)', () => {
    const secret = 'jane.doe@example.org';
    const ballot = { PK: 'SITE#1', SK: 'BALLOT#0000000007', siteId: 1, userId: 7, version: 1, updatedAt: 't', votes: { [secret]: { id: 'x', opinion: 'yes', createdAt: 't' } } };
    const checked = ballotCodec.check(ballot);
    expect(checked).toEqual({ malformed: { key: 'SITE#1/BALLOT#0000000007', problem: expect.stringMatching(/^votes\.\*\.\* /) } });
    expect(failureOf(() => ballotCodec.fromItem(ballot)).message).not.toContain(secret);
  });

  it('says so when the read projected the key away', () => {
    const { PK: _pk, SK: _sk, ...projected } = stored;
    expect(failureOf(() => contentItemCodec.fromItem({ ...projected, version: 'one' })).key).toBe('(key not read)');
  });


  it('strips what a strict schema does not name (a signed checkpoint is answered as read)', () => {
    const checkpoints = defineCodec({ kind: 'signed vote checkpoint', schema: storedSignedCheckpoint, keys: (c) => voteLogKeys.checkpoint(c.siteId, c.id) });
    const checkpoint = { siteId: 1, id: 1, treeSize: 3, root: 'ab'.repeat(32), cut: '2030-01-01T00:00:00.000Z', ballots: 2, signature: 'c2ln', keyId: 'k1', createdAt: '2030-01-01T00:01:00.000Z' };
    expect(checkpoints.fromItem({ ...checkpoints.toItem(checkpoint), extra: true })).toEqual(checkpoint);
  });
});

function aUser(fields: Partial<UserItem> = {}): UserItem {
  return { id: 5, siteId: 1, role: 'member', email: 'ann@example.org', createdAt: '2030-01-01T00:00:00.000Z', updatedAt: '2030-01-02T00:00:00.000Z', ...fields };
}

describe('shapes stored by older releases still read', () => {
  it('an idea without tags, location or index entries', () => {
    const { tags: _tags, location: _location, ...old } = stored;
    expect(contentItemCodec.fromItem(old)).not.toHaveProperty('tags');
  });

  it('a site without title or domain reads them as null', () => {
    const site = siteCodec.toItem({ id: 1, name: 'site', title: null, domain: null, config: {}, createdAt: 'a', updatedAt: 'b' });
    const { title: _title, domain: _domain, ...old } = site;
    expect(siteCodec.fromItem(old)).toMatchObject({ title: null, domain: null });
    expect(failureOf(() => siteCodec.fromItem({ ...site, config: 'x' })).problem.path).toBe('config');
  });

  it('a user without activity fields or optional profile fields', () => {
    const { lastActivityAt: _at, ...old } = userCodec.toItem(aUser());
    expect(userCodec.fromItem(old)).toEqual(aUser());
  });
});

describe('the user codec', () => {
  it('puts a user on the indexes its state calls for', () => {
    expect(userCodec.toItem(aUser())).toMatchObject(userKeys.usersByActivity(1, 5, 'active', '2030-01-01T00:00:00.000Z'));
    expect(userCodec.toItem(aUser({ lastActivityAt: '2030-01-03' }))).toMatchObject(userKeys.usersByActivity(1, 5, 'active', '2030-01-03'));
    expect(userCodec.toItem(aUser({ warnedAt: '2030-01-04' }))).toMatchObject(userKeys.usersByActivity(1, 5, 'warned', '2030-01-04'));
    const linked = userCodec.toItem(aUser({ authServer: 'https://auth', externalUserId: '9' }));
    expect(linked).toMatchObject({ GSI1PK: userKeys.userByExternal('https://auth|9').GSI1PK, GSI1SK: 'SITE#1' });
    const anonymized = userCodec.toItem(aUser({ anonymizedAt: '2030-01-05' }));
    for (const key of ['GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK']) expect(anonymized).not.toHaveProperty(key);
  });
});
