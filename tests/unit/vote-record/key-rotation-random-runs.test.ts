/** One operator, random steps, random lost writes, random waits and --force: every state reached keeps the invariants. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SECRETS, signingKeyFromSeed } from '#lib/config/secret-values';
import { KEY_PUBLICATION_SECONDS } from '#lib/routes/results/vote-key-publication';
import { SECRETS_MAX_AGE_SECONDS } from '#lib/store/secrets/load';
import { keyIdOf } from '#lib/vote-record/checkpoint';
import { rotateVoteKey, unfinishedRotation, type StoredVoteKeys, type VoteKeyStore } from '#lib/vote-record/key-rotation';
import { keySetOfStored } from '#lib/vote-record/keys';

const seed = () => randomBytes(32).toString('base64url');
type Name = 'voteSigningKey' | 'votePublicKey';

describe('random rotation runs', () => {
  it('never leave the signing key unpublished, retired before it stops signing, or two current keys', async () => {
    let rng = 12345;
    const rand = (n: number) => ((rng = (rng * 1103515245 + 12345) % 2 ** 31), rng % n);
    for (let trial = 0; trial < 300; trial++) {
      let now = Date.parse('2030-01-01T00:00:00Z');
      const first = seed();
      const params: Record<Name, { value: string; modified: Date }> = {
        voteSigningKey: { value: first, modified: new Date(now) },
        votePublicKey: { value: SECRETS.votePublicKey.derived!.value(first), modified: new Date(now) },
      };
      /** When each seed last stopped being current (store time), for the retirement check. */
      const lastSigned = new Map<string, number>();
      let writesLeft = Infinity;
      let ghost = false;
      let forced = false;
      /** When each key was first published as next (store time). */
      const publishedAt = new Map<string, number>();
      const store: VoteKeyStore = {
        read: async (): Promise<StoredVoteKeys> => ({ seeds: { ...params.voteSigningKey }, keys: { ...params.votePublicKey }, now: new Date(now) }),
        async write(name, value) {
          if (writesLeft-- <= 0 && !ghost) throw new Error('refused');
          const lost = writesLeft < 0 && ghost; // applied by the store, the answer lost
          now += 1000;
          if (name === 'voteSigningKey') {
            const before = keyIdOf(signingKeyFromSeed(SECRETS.voteSigningKey.parse(params.voteSigningKey.value).current));
            lastSigned.set(before, now + SECRETS_MAX_AGE_SECONDS * 1000);
          }
          if (name === 'votePublicKey') {
            const next = SECRETS.votePublicKey.parse(value).next;
            if (next && !publishedAt.has(Buffer.from(next).toString('hex'))) publishedAt.set(Buffer.from(next).toString('hex'), now);
          } else {
            const cur = SECRETS.voteSigningKey.parse(value).current;
            const pub = Buffer.from(SECRETS.votePublicKey.parse(SECRETS.votePublicKey.derived!.value(Buffer.from(cur).toString('base64url'))).current).toString('hex');
            const since = publishedAt.get(pub);
            if (since !== undefined && !forced && SECRETS.voteSigningKey.parse(params.voteSigningKey.value).current.toString() !== cur.toString())
              expect(now - since, 'a next key signs only after the publication delay').toBeGreaterThanOrEqual(KEY_PUBLICATION_SECONDS * 1000);
          }
          params[name] = { value, modified: new Date(now) };
          if (lost) throw new Error('timeout');
        },
      };
      const log: string[] = [];
      for (let i = 0; i < 12; i++) {
        const step = rand(2) ? 'prepare' : 'promote';
        writesLeft = rand(3) === 0 ? rand(3) : Infinity;
        const force = rand(5) === 0;
        forced = force;
        ghost = rand(2) === 0;
        try {
          await rotateVoteKey(store, step, { publicationSeconds: KEY_PUBLICATION_SECONDS, signerCacheSeconds: SECRETS_MAX_AGE_SECONDS, force, newSeed: seed, command: (s) => s, say: () => {}, warn: () => {} });
        } catch {
          // stopped midway
        }
        log.push(`${step}${force ? ' --force' : ''} writes<=${writesLeft}`);
        now += rand(3) * KEY_PUBLICATION_SECONDS * 500;
        const seeds = SECRETS.voteSigningKey.parse(params.voteSigningKey.value);
        const keys = SECRETS.votePublicKey.parse(params.votePublicKey.value);
        const set = keySetOfStored(keys);
        const signer = keyIdOf(signingKeyFromSeed(seeds.current));
        const where = `trial ${trial}: ${log.join(', ')}`;
        expect(set.get(signer), where).toBeDefined();
        expect(set.get(signer)!.status, where).not.toBe('retired');
        expect([...set.values()].filter((k) => k.status === 'current').length, where).toBe(1);
        for (const [id, k] of set) if (k.status === 'retired') expect(Date.parse(k.retiredAt!), `${where}: ${id}`).toBeGreaterThanOrEqual(lastSigned.get(id) ?? 0);
        expect(typeof (unfinishedRotation(params.voteSigningKey.value, params.votePublicKey.value, (s) => s) ?? ''), where).toBe('string');
      }
    }
  });
});
