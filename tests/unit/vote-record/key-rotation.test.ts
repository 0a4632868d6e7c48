/**
 * The vote signing key's rotation (lib/vote-record/key-rotation.ts, what `npm run secrets --
 * rotate-vote-key` runs) over a secret store in memory with a clock of its own: a run that stops
 * between any two writes is finished by running the step again, and no state in between lets a key
 * sign unpublished or retired; the retirement time is the store's, not the operator's machine's; a
 * next key signs only once it has been published for the key publication delay.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SECRETS, signingKeyFromSeed } from '#lib/config/secret-values';
import { cacheLifetimeSeconds, PUBLIC_CACHE_CONTROL } from '#lib/http/caching';
import { KEY_PUBLICATION_SECONDS } from '#lib/routes/results/vote-key-publication';
import { SECRETS_MAX_AGE_SECONDS } from '#lib/store/secrets/load';
import { keyIdOf, signCheckpoint } from '#lib/vote-record/checkpoint';
import { signerOf } from '#lib/vote-record/key-set';
import { keySetOfStored } from '#lib/vote-record/keys';
import { nextMove, rotateVoteKey, unfinishedRotation, type RotationOptions, type RotationStep, type StoredVoteKeys, type VoteKeyStore } from '#lib/vote-record/key-rotation';
import { memoryVoteKeyStore, newVoteSeed, type MemoryVoteKeyStore } from '#tests/support/vote-key-store';

const seed = newVoteSeed;
const publicOf = (seedText: string) => JSON.parse(SECRETS.votePublicKey.derived!.value(seedText)) as { current: string };



const options = (overrides: Partial<RotationOptions> = {}) => {
  const said: string[] = [];
  const warned: string[] = [];
  const opts: RotationOptions = {
    publicationSeconds: KEY_PUBLICATION_SECONDS,
    signerCacheSeconds: SECRETS_MAX_AGE_SECONDS,
    newSeed: seed,
    command: (step) => `npm run secrets -- rotate-vote-key --stage prod --step ${step}`,
    say: (line) => said.push(line),
    warn: (line) => warned.push(line),
    ...overrides,
  };
  return { opts, said, warned };
};

/** What the stored parameters mean to a verifier and to the job that signs. */
function meaning(store: MemoryVoteKeyStore) {
  const seeds = SECRETS.voteSigningKey.parse(store.params.voteSigningKey.value);
  const keys = SECRETS.votePublicKey.parse(store.params.votePublicKey.value);
  const signer = signingKeyFromSeed(seeds.current);
  const set = keySetOfStored(keys);
  const verifies = (cut: Date, key = signer) => 'key' in signerOf(set, signCheckpoint({ siteId: 2, id: 1, treeSize: 1, root: 'ab'.repeat(32), cut: cut.toISOString(), ballots: 1 }, key));
  const statusOf = (key = signer) => set.get(keyIdOf(key))?.status;
  return { seeds, keys, signer, set, verifies, statusOf, currentKeys: [...set.values()].filter((k) => k.status === 'current').length };
}

const run = (store: VoteKeyStore, step: RotationStep, overrides: Partial<RotationOptions> = {}) => {
  const o = options(overrides);
  return rotateVoteKey(store, step, o.opts).then((done) => ({ done, ...o }));
};

afterEach(() => {
  vi.useRealTimers();
});

describe('a rotation stopped between any two writes', () => {
  /** prepare writes twice, promote twice: stop at each write in turn, then run the same step again. */
  it.each([
    ['prepare', 1],
    ['prepare', 2],
    ['promote', 1],
    ['promote', 2],
  ] as const)('%s stopped at its write %i: every key that signs meanwhile is published and not retired, and running the step again finishes the rotation', async (step, failing) => {
    const store = memoryVoteKeyStore(new Date('2030-05-01T10:00:00Z'));
    const first = meaning(store).signer;
    if (step === 'promote') {
      expect((await run(store, 'prepare')).done).toBe(true);
      store.advance(KEY_PUBLICATION_SECONDS);
    }
    store.failWrite(failing);
    await expect(run(store, step)).rejects.toThrow('connection reset');

    // Stopped: the job signs with the stored current seed; its checkpoints verify against what is published.
    const stopped = meaning(store);
    expect(stopped.currentKeys).toBe(1);
    expect(stopped.statusOf()).not.toBe('retired');
    expect(stopped.verifies(store.now())).toBe(true);
    // The first key is not retired while a warm container may still sign with it.
    expect(stopped.verifies(new Date(store.now().getTime() + SECRETS_MAX_AGE_SECONDS * 1000 - 1), first)).toBe(true);

    store.failWrite(undefined);
    const again = await run(store, step);
    expect(again.done, again.warned.join('\n')).toBe(true);
    const finished = meaning(store);
    if (step === 'prepare') {
      expect(finished.seeds.next).not.toBeNull();
      expect(Buffer.from(finished.keys.next!).toString('base64url')).toBe(publicOf(Buffer.from(finished.seeds.next!).toString('base64url')).current);
      expect(again.said.at(-1)).toContain('is prepared');
    } else {
      expect(finished.seeds.next).toBeNull();
      expect(finished.statusOf()).toBe('current');
      expect(finished.statusOf(first)).toBe('retired');
      expect(finished.keys.next).toBeNull();
      expect(finished.keys.retired).toHaveLength(1);
      expect(again.said.at(-1)).toContain('promoted');
    }
    expect(SECRETS.votePublicKey.derived!.follows(store.params.voteSigningKey.value, store.params.votePublicKey.value)).toBe(true);
  });

  it('a prepare run again after it finished keeps the prepared key (its wait is not restarted)', async () => {
    const store = memoryVoteKeyStore(new Date('2030-05-01T10:00:00Z'));
    await run(store, 'prepare');
    const prepared = { ...store.params };
    store.advance(60);
    const again = await run(store, 'prepare');
    expect(again.done).toBe(true);
    expect(again.said.join('\n')).toContain('prepared');
    expect(store.params).toEqual(prepared);
  });

  it('a promote run again after it finished changes nothing and says where the keys stand', async () => {
    const store = memoryVoteKeyStore(new Date('2030-05-01T10:00:00Z'));
    await run(store, 'prepare');
    store.advance(KEY_PUBLICATION_SECONDS);
    expect((await run(store, 'promote')).done).toBe(true);
    const promoted = { ...store.params };
    const again = await run(store, 'promote');
    expect(again.done).toBe(false);
    expect(again.warned.join('\n')).toMatch(/no next vote signing key to promote: .* a promote that finished leaves this state/);
    expect(store.params).toEqual(promoted);
  });

  it('the deploy check names the command that finishes a half-done prepare or promote', async () => {
    const store = memoryVoteKeyStore(new Date('2030-05-01T10:00:00Z'));
    const command = options().opts.command;
    store.failWrite(2);
    await expect(run(store, 'prepare')).rejects.toThrow();
    expect(unfinishedRotation(store.params.voteSigningKey.value, store.params.votePublicKey.value, command)).toBe(
      'a prepare of the vote signing key stopped midway: finish it with npm run secrets -- rotate-vote-key --stage prod --step prepare',
    );
    store.failWrite(undefined);
    await run(store, 'prepare');
    store.advance(KEY_PUBLICATION_SECONDS);
    store.failWrite(2);
    await expect(run(store, 'promote')).rejects.toThrow();
    expect(unfinishedRotation(store.params.voteSigningKey.value, store.params.votePublicKey.value, command)).toContain('--step promote');
  });

  it('a list promoted before its seeds (the order of an earlier version) is put right: the key that still signs is listed current again, not retired', async () => {
    const store = memoryVoteKeyStore(new Date('2030-05-01T10:00:00Z'));
    const first = meaning(store).signer;
    await run(store, 'prepare');
    const { current, next } = JSON.parse(store.params.votePublicKey.value) as { current: string; next: string };
    // The list says the first key retired five minutes from "now", but the seeds were never promoted.
    store.params.votePublicKey = { value: JSON.stringify({ current: next, next: null, retired: [{ key: current, retiredAt: new Date(store.now().getTime() + 300_000).toISOString() }] }), modified: store.now() };
    store.advance(3600);
    expect(meaning(store).verifies(store.now(), first)).toBe(false);

    const again = await run(store, 'promote');
    expect(meaning(store).statusOf(first)).toBe('current');
    expect(meaning(store).verifies(store.now(), first)).toBe(true);
    // The next key's wait counts from the repair; then the promote goes on.
    expect(again.done).toBe(false);
    store.advance(KEY_PUBLICATION_SECONDS);
    expect((await run(store, 'promote')).done).toBe(true);
    expect(meaning(store).statusOf(first)).toBe('retired');
  });
});

describe('the retirement time', () => {
  it("is the store's time of the seed write plus the secrets cache's max age, whatever the operator's clock says", async () => {
    const store = memoryVoteKeyStore(new Date('2030-05-01T10:00:00Z'));
    const first = meaning(store).signer;
    await run(store, 'prepare');
    store.advance(KEY_PUBLICATION_SECONDS);
    // The operator's machine is two days behind.
    vi.useFakeTimers({ now: new Date('2030-04-29T10:00:00Z'), toFake: ['Date'] });
    expect((await run(store, 'promote')).done).toBe(true);
    const seedWrite = store.params.voteSigningKey.modified;
    const { keys } = meaning(store);
    expect(keys.retired[0]!.retiredAt).toBe(new Date(seedWrite.getTime() + SECRETS_MAX_AGE_SECONDS * 1000).toISOString());
    // So what the old key signed until the last container let go of it still verifies, and nothing later.
    const after = meaning(store);
    expect(after.verifies(new Date(seedWrite.getTime() + SECRETS_MAX_AGE_SECONDS * 1000), first)).toBe(true);
    expect(after.verifies(new Date(seedWrite.getTime() + SECRETS_MAX_AGE_SECONDS * 1000 + 1), first)).toBe(false);
  });
});

describe('the wait between prepare and promote', () => {
  it('is the time a published key list takes to reach every reader of the key endpoint', () => {
    const [, maxAge, stale] = /max-age=(\d+), stale-while-revalidate=(\d+)/.exec(PUBLIC_CACHE_CONTROL)!.map(Number);
    expect(cacheLifetimeSeconds('public')).toBe(maxAge! + stale!);
    expect(cacheLifetimeSeconds('none')).toBe(0);
    // The key endpoint is not cached by HTTP today: the secrets cache of its function is the whole wait.
    expect(KEY_PUBLICATION_SECONDS).toBe(SECRETS_MAX_AGE_SECONDS);
  });

  it('refuses a promote right after prepare, naming when it may run, by the store clock', async () => {
    const store = memoryVoteKeyStore(new Date('2030-05-01T10:00:00Z'));
    await run(store, 'prepare');
    const published = store.params.votePublicKey.modified;
    const before = { ...store.params };
    // The operator's clock runs an hour ahead: it must not shorten the wait.
    vi.useFakeTimers({ now: new Date(store.now().getTime() + 3600_000), toFake: ['Date'] });
    store.advance(KEY_PUBLICATION_SECONDS - 2);
    const early = await run(store, 'promote');
    expect(early.done).toBe(false);
    const due = new Date(published.getTime() + KEY_PUBLICATION_SECONDS * 1000).toISOString();
    expect(early.warned.join('\n')).toContain(`published as next at ${published.toISOString()} (the secret store's time); verifiers and caches may not all have it before ${due}`);
    expect(store.params).toEqual(before);
    store.advance(2);
    expect((await run(store, 'promote')).done).toBe(true);
  });

  it('--force promotes at once, with a warning that checkpoints of the new key may fail verification meanwhile', async () => {
    const store = memoryVoteKeyStore(new Date('2030-05-01T10:00:00Z'));
    await run(store, 'prepare');
    const forced = await run(store, 'promote', { force: true });
    expect(forced.done).toBe(true);
    expect(forced.warned.join('\n')).toMatch(/^WARNING: --force: promoting .* may fail verification/);
    expect(meaning(store).seeds.next).toBeNull();
  });

  it('a promote never makes a key sign that is not published as next', () => {
    const store = memoryVoteKeyStore(new Date('2030-05-01T10:00:00Z'));
    const current = store.params.voteSigningKey.value;
    // A seed stored as next whose public key was never published (a prepare that stopped at its second write).
    const stored: StoredVoteKeys = {
      seeds: { value: JSON.stringify({ current, next: seed() }), modified: store.now() },
      keys: { ...store.params.votePublicKey },
      now: new Date(store.now().getTime() + 86_400_000),
    };
    const move = nextMove('promote', stored, options({ force: true }).opts);
    expect(move).toEqual({ refused: expect.stringContaining('Run npm run secrets -- rotate-vote-key --stage prod --step prepare to finish preparing') });
  });
});

describe('vote keys a step cannot move on', () => {
  const T = new Date('2030-05-01T10:00:00Z');
  const [a, b] = [seed(), seed()];
  const pub = (seedText: string) => publicOf(seedText).current;
  const stored = (seeds: { current: string; next: string | null }, keys: { current: string; next: string | null }): StoredVoteKeys => ({
    seeds: { value: JSON.stringify(seeds), modified: T },
    keys: { value: JSON.stringify({ ...keys, retired: [] }), modified: T },
    now: T,
  });
  const { opts } = options();
  const idOf = (seedText: string) => keyIdOf(signingKeyFromSeed(SECRETS.voteSigningKey.parse(seedText).current));

  it('a seed that signs under a key nobody published is no state a rotation leaves: both steps refuse, naming what was found', () => {
    const foreign = stored({ current: a, next: null }, { current: pub(b), next: null });
    for (const step of ['prepare', 'promote'] as const) {
      const move = nextMove(step, foreign, opts);
      expect(move).toEqual({ refused: expect.stringContaining(`the vote keys are in no state a rotation leaves (found: vote-signing-key signs with ${idOf(a)}; vote-public-key lists current ${idOf(b)}, next -)`) });
    }
    expect(unfinishedRotation(foreign.seeds.value, foreign.keys.value, opts.command)).toBeUndefined();
  });

  it('a prepare while a promote is half done is refused until the promote is finished', () => {
    const halfPromoted = stored({ current: b, next: null }, { current: pub(a), next: pub(b) });
    expect(nextMove('prepare', halfPromoted, opts)).toEqual({
      refused: `a promote is half done (found: vote-signing-key signs with ${idOf(b)}; vote-public-key lists current ${idOf(a)}, next ${idOf(b)}): finish it with ${opts.command('promote')}, then prepare`,
    });
  });

  it('a promote with nothing prepared, or a seed stored but not published, is refused and names the prepare', () => {
    expect(nextMove('promote', stored({ current: a, next: null }, { current: pub(a), next: null }), opts)).toEqual({
      refused: `no next vote signing key to promote: ${idOf(a)} signs and is the published current key. To rotate, run ${opts.command('prepare')} first`,
    });
    expect(nextMove('promote', stored({ current: a, next: b }, { current: pub(a), next: null }), opts)).toEqual({
      refused: expect.stringMatching(/^the next key is not ready to sign: its seed and the published next key do not match/),
    });
    expect(nextMove('promote', stored({ current: a, next: null }, { current: pub(a), next: pub(b) }), opts)).toEqual({
      refused: expect.stringMatching(/^the next key is not ready to sign/),
    });
  });
});
