/**
 * The vote key rotation retires the old key at the store's time of the seed write plus the secrets
 * cache's max age, "the last moment a warm container may still sign with the old seed", and counts on
 * the published list reaching every reader within that max age too. Warm containers whose secret store
 * stops answering (throttling, an outage, an endpoint policy) must keep both bounds: the checkpoint job
 * signs nothing with values older than the max age, the key route answers 503 rather than an old list.
 * Other secrets keep being used from what the container holds. Real Powertools Parameters against a
 * local SSM endpoint (tests/support/ssm-endpoint.ts).
 */
import { createPublicKey, randomBytes } from 'node:crypto';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSsmEndpoint, ssmEnvironment, type SsmEndpoint } from '#tests/support/ssm-endpoint';

const PATH = '/participation-api/prod/';
const seed = () => randomBytes(32).toString('base64url');
let ssm: SsmEndpoint;

beforeAll(() => {
  Object.assign(process.env, { STAGE: 'prod', SECRETS_PATH: PATH });
});
/** Each test has its own store, and a container made after it (the SDK client keeps its endpoint). */
beforeEach(async () => {
  ssm = await startSsmEndpoint();
  Object.assign(process.env, ssmEnvironment(ssm));
});
afterEach(async () => {
  vi.useRealTimers();
  await ssm.close();
});

/** A stage's parameters, the vote keys from seed `k0`. */
async function storeAll(k0: string) {
  const { SECRETS } = await import('#lib/config/secret-values');
  ssm.set(`${PATH}vote-chain-key`, randomBytes(32).toString('base64url'));
  ssm.set(`${PATH}vote-signing-key`, k0);
  ssm.set(`${PATH}vote-public-key`, SECRETS.votePublicKey.derived!.value(k0));
  ssm.set(`${PATH}token-keys`, SECRETS.tokenKeys.generate());
  ssm.set(`${PATH}server-key`, randomBytes(48).toString('base64url'));
  ssm.set(`${PATH}service-tokens`, JSON.stringify([{ name: 'cms', sha256: 'ab'.repeat(32) }]));
}

/** The store stops answering: its port is closed. */
async function storeDown() {
  await ssm.close();
}

/** A fresh container: modules (and their caches) loaded again. */
const container = async () => {
  vi.resetModules();
  return {
    load: await import('#lib/store/secrets/load'),
    classes: (await import('#lib/config/access-classes')).ACCESS_CLASSES,
    keys: await import('#lib/vote-record/keys'),
    checkpoint: await import('#lib/vote-record/checkpoint'),
    keySet: await import('#lib/vote-record/key-set'),
    values: await import('#lib/config/secret-values'),
    secrets: await import('#lib/config/secrets'),
  };
};

describe('the checkpoint job after a promote, while the secret store does not answer', () => {
  it('signs nothing with the old seed past its retirement: the run fails instead', async () => {
    const k0 = seed();
    const k1 = seed();
    await storeAll(k0);
    const { load, classes, keys, checkpoint, keySet, values } = await container();
    const names = classes.checkpoint.secrets;

    await load.loadSecrets(names); // a warm container of the vote-checkpoints job
    expect(checkpoint.keyIdOf(keys.voteSigningKey())).toBe(checkpoint.keyIdOf(values.signingKeyFromSeed(Buffer.from(k0, 'base64url'))));

    // promote: write 3 at T3, k1 signs; write 4, k0 retired at T3 + max age.
    const t3 = Date.now();
    ssm.set(`${PATH}vote-signing-key`, JSON.stringify({ current: k1, next: null }));
    const retiredAt = new Date(t3 + load.SECRETS_MAX_AGE_SECONDS * 1000).toISOString();
    const published = keySet.keySetOfKeys([
      { key: createPublicKey(values.signingKeyFromSeed(Buffer.from(k1, 'base64url'))), status: 'current' },
      { key: createPublicKey(values.signingKeyFromSeed(Buffer.from(k0, 'base64url'))), status: 'retired', retiredAt },
    ]);

    // The store stops answering; the next hourly run comes.
    await storeDown();
    const runAt = t3 + 3600_000;
    vi.useFakeTimers({ toFake: ['Date'], now: runAt });
    const failures: unknown[] = [];
    let signed: ReturnType<typeof checkpoint.signCheckpoint> | undefined;
    let refused: unknown;
    try {
      await load.loadSecrets(names, (error) => failures.push(error));
      const cut = new Date(runAt - 60_000).toISOString();
      signed = checkpoint.signCheckpoint({ siteId: 3, id: 9, treeSize: 1, root: 'ab'.repeat(32), cut, ballots: 1 }, keys.voteSigningKey());
    } catch (error) {
      refused = error;
    }
    expect(signed, signed && `signed by ${signed.keyId} with cut ${signed.cut}; retired at ${retiredAt}: ${JSON.stringify(keySet.signerOf(published, signed))}`).toBeUndefined();
    expect(refused).toMatchObject({ status: 503 });
    expect(failures, 'the failed refresh is handed over (the job logs it)').toHaveLength(1);
    // Reading the key later in the run is refused too, not only at the load.
    expect(() => keys.voteSigningKey()).toThrow(/retry/);
  });

  it('within the max age of the last fetch the held seed still signs; a secret without the bound keeps being used past it', async () => {
    await storeAll(seed());
    const { load, classes, keys, secrets } = await container();
    const t0 = Date.now();
    await load.loadSecrets(classes.checkpoint.secrets);
    await storeDown();
    vi.useFakeTimers({ toFake: ['Date'], now: t0 + (load.SECRETS_MAX_AGE_SECONDS - 30) * 1000 });
    await load.loadSecrets(classes.checkpoint.secrets, () => {}, { refetch: true });
    expect(keys.voteSigningKey().asymmetricKeyType).toBe('ed25519');
    vi.useFakeTimers({ toFake: ['Date'], now: t0 + 3600_000 });
    await expect(load.loadSecrets(classes.checkpoint.secrets, () => {})).rejects.toMatchObject({ status: 503 });
    // The token keys of the same container: today's behaviour, the held value is used.
    expect(secrets.secret('tokenKeys').current.kid).toBeTruthy();
  });

  it('the scheduled job fails its run before its work starts, with the refresh failure logged as an error', async () => {
    await storeAll(seed());
    const { load, classes } = await container();
    const { scheduledJob } = await import('#lib/jobs/lambda');
    const { logger } = await import('#lib/log/logger');
    const logged = vi.spyOn(logger, 'error');
    await load.loadSecrets(classes.checkpoint.secrets);
    const t0 = Date.now();
    await storeDown();
    vi.useFakeTimers({ toFake: ['Date'], now: t0 + 3600_000 });
    const run = vi.fn(async () => ({ now: new Date().toISOString(), units: 0, more: false, sites: [] }));
    const handler = scheduledJob('vote-checkpoints', run as never);
    await expect(handler({}, { getRemainingTimeInMillis: () => 60_000 } as never)).rejects.toMatchObject({ status: 503 });
    expect(run).not.toHaveBeenCalled();
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/secret store refresh failed/), expect.anything());
    logged.mockRestore();
  });
});

describe('GET /api/vote-record/key while the secret store does not answer', () => {
  it('serves the held list within the max age of its fetch, then 503 ServiceUnavailable with Retry-After, never an older list', async () => {
    const k0 = seed();
    await storeAll(k0);
    vi.resetModules();
    const { invoke } = await import('#tests/support/invoke');
    const { handler } = await import('../../../functions/results/vote-record-key.ts');
    const t0 = Date.now();
    expect((await invoke(handler)).status).toBe(200);
    await storeDown();
    vi.useFakeTimers({ toFake: ['Date'], now: t0 + 200_000 });
    expect((await invoke(handler)).status, 'within the max age: the cached list').toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: t0 + 3600_000 });
    const answer = await invoke<{ status: number; error: string; message: string }>(handler);
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ status: 503, error: 'ServiceUnavailable', message: expect.any(String) });
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.stringify(answer.body)).not.toMatch(/ssm|parameter|vote-public-key|127\.0\.0\.1/i);
  });
});
