/**
 * The published vote key list against its own history: old parameter versions put back (what the
 * tool's messages once recommended), two operators rotating at once, and a list that grows by one
 * retired key per rotation. The pure rule (lib/vote-record/key-rotation.ts `keyListRegression`) on a
 * store in memory; the tool (scripts/secrets.ts) against a local SSM endpoint that keeps versions and
 * Parameter Store's 4 KB Standard-tier limit (tests/support/ssm-endpoint.ts).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SECRETS } from '#lib/config/secret-values';
import { KEY_PUBLICATION_SECONDS } from '#lib/routes/results/vote-key-publication';
import { SECRETS_MAX_AGE_SECONDS } from '#lib/store/secrets/load';
import { keyListRegression, rotateVoteKey, type RotationOptions } from '#lib/vote-record/key-rotation';
import { secretsToolOnLocalSsm } from '#tests/support/secrets-tool';
import { memoryVoteKeyStore, newVoteSeed, type MemoryVoteKeyStore } from '#tests/support/vote-key-store';

const seed = newVoteSeed;


const opts = (): RotationOptions => ({
  publicationSeconds: KEY_PUBLICATION_SECONDS,
  signerCacheSeconds: SECRETS_MAX_AGE_SECONDS,
  newSeed: seed,
  command: (step) => `rotate --step ${step}`,
  say: () => {},
  warn: () => {},
});

async function rotate(store: MemoryVoteKeyStore) {
  expect(await rotateVoteKey(store, 'prepare', opts())).toBe(true);
  store.advance(KEY_PUBLICATION_SECONDS);
  expect(await rotateVoteKey(store, 'promote', opts())).toBe(true);
  store.advance(SECRETS_MAX_AGE_SECONDS + 1);
}
const historyOf = (store: MemoryVoteKeyStore) => store.versions.map((value, i) => ({ version: i + 1, value }));

describe('the key list against the versions before it', () => {
  it('every version a rotation writes keeps the history: nothing to refuse', async () => {
    const store = memoryVoteKeyStore(new Date('2030-05-01T10:00:00Z'));
    for (let i = 0; i < 3; i++) await rotate(store);
    for (let v = 1; v <= store.versions.length; v++) expect(keyListRegression(historyOf(store).slice(0, v), store.versions[v - 1]!, store.now())).toBeUndefined();
  });

  it('the pair from before the last rotation put back is refused: the new key would vanish and the retired one sign again', async () => {
    const store = memoryVoteKeyStore(new Date('2030-05-01T10:00:00Z'));
    await rotate(store);
    const before = store.versions[0]!;
    const latest = store.versions.at(-1)!;
    await rotate(store);
    // Put back as a new version, as `aws ssm put-parameter` with an old value does.
    store.versions.push(before);
    expect(keyListRegression(historyOf(store), before, store.now())).toMatch(/^it drops key [0-9a-f]{16}, published in version \d+/);
    // A list that keeps every key but lists a retired one current again.
    const texts = JSON.parse(latest) as { current: string; next: null; retired: { key: string; retiredAt: string }[] };
    const unretired = JSON.stringify({ current: texts.retired[0]!.key, next: null, retired: [{ key: texts.current, retiredAt: store.now().toISOString() }] });
    expect(keyListRegression(historyOf(store), unretired, store.now())).toMatch(/^it (lists key [0-9a-f]{16} current, retired at|drops key)/);
  });
});

// --- the tool against a store -----------------------------------------------------------------------

const PATH = '/participation-api/staging/';
const local = secretsToolOnLocalSsm();
const secrets = local.secrets;

/** A stage as `init` leaves it, with no earlier versions. */
function storeStage(voteSeed: string) {
  local.ssm.history.clear();
  local.ssm.set(`${PATH}token-keys`, SECRETS.tokenKeys.generate());
  local.ssm.set(`${PATH}server-key`, randomBytes(48).toString('base64url'));
  local.ssm.set(`${PATH}service-tokens`, JSON.stringify([{ name: 'cms', sha256: 'ab'.repeat(32) }]));
  local.ssm.set(`${PATH}vote-chain-key`, randomBytes(32).toString('base64url'));
  local.ssm.set(`${PATH}vote-signing-key`, voteSeed);
  local.ssm.set(`${PATH}vote-public-key`, SECRETS.votePublicKey.derived!.value(voteSeed));
}

describe('secrets check and rotate-vote-key over the store', () => {
  it('refuse both parameters put back to their versions from before the last rotation, and name a fix that keeps every key', async () => {
    const k0 = seed();
    storeStage(k0);
    local.ssm.clockOffsetMs = 0;
    expect((await secrets(['rotate-vote-key', '--step', 'prepare'])).status).toBe(0);
    local.ssm.clockOffsetMs += KEY_PUBLICATION_SECONDS * 1000 + 1000;
    const promoted = await secrets(['rotate-vote-key', '--step', 'promote']);
    expect(promoted.status, promoted.output).toBe(0);
    local.ssm.clockOffsetMs += SECRETS_MAX_AGE_SECONDS * 1000 + 1000;
    expect((await secrets(['check'])).status).toBe(0);

    // An operator puts back the pair of before the rotation: both parse, and they "belong together".
    local.ssm.set(`${PATH}vote-signing-key`, k0);
    local.ssm.set(`${PATH}vote-public-key`, SECRETS.votePublicKey.derived!.value(k0));
    const check = await secrets(['check']);
    expect(check.status).toBe(1);
    expect(check.output).toMatch(/refused \/participation-api\/staging\/vote-public-key: it drops key [0-9a-f]{16}, published in version \d+.*Fix: put back the latest versions .*never a pair from before it/);
    const rotation = await secrets(['rotate-vote-key', '--step', 'prepare']);
    expect(rotation.status).toBe(1);
    expect(rotation.output).toMatch(/it drops key/);
    local.ssm.clockOffsetMs = 0;
  });

  it('writes the key list with Intelligent-Tiering: some 45 rotations outgrow the Standard tier, and the list is still written', async () => {
    storeStage(seed());
    const put = local.ssm.parameters.get(`${PATH}vote-public-key`)!;
    // 45 rotations of keys, as promote leaves them (the tool would take 100 runs: the list is what matters).
    const texts = JSON.parse(put.Value) as { current: string; next: null; retired: { key: string; retiredAt: string }[] };
    for (let i = 0; i < 45; i++) texts.retired.push({ key: randomBytes(32).toString('base64url'), retiredAt: new Date(Date.UTC(2030, 0, 1) + i * 86_400_000).toISOString() });
    const long = JSON.stringify(texts);
    expect(long.length).toBeGreaterThan(4096);
    // The endpoint holds the Standard tier's limit, as Parameter Store does.
    await expect(
      fetch(local.ssm.url, {
        method: 'POST',
        headers: { 'x-amz-target': 'AmazonSSM.PutParameter', 'content-type': 'application/x-amz-json-1.1' },
        body: JSON.stringify({ Name: `${PATH}vote-public-key`, Value: long, Type: 'SecureString', Overwrite: true }),
      }).then(async (r) => [r.status, await r.text()]),
    ).resolves.toEqual([400, expect.stringMatching(/maximum parameter value of 4096/)]);
    local.ssm.set(`${PATH}vote-public-key`, JSON.stringify({ ...texts, retired: texts.retired.slice(0, 44) }));
    // A rotation by the tool on top of it: its list writes go past 4 KB.
    expect((await secrets(['rotate-vote-key', '--step', 'prepare'])).status).toBe(0);
    local.ssm.clockOffsetMs += KEY_PUBLICATION_SECONDS * 1000 + 1000;
    const promoted = await secrets(['rotate-vote-key', '--step', 'promote']);
    expect(promoted.status, promoted.output).toBe(0);
    const stored = local.ssm.parameters.get(`${PATH}vote-public-key`)!;
    expect(stored.Value.length).toBeGreaterThan(4096);
    expect(stored.Tier).toBe('Advanced');
    local.ssm.clockOffsetMs = 0;
  });

  it('a write of another run between this run\'s read and its write stops the run, naming one operator at a time', async () => {
    storeStage(seed());
    // Another operator's write of the seeds lands just before this run's own (same value: only its version tells).
    const target = `${PATH}vote-signing-key`;
    local.ssm.beforePut = (name) => {
      if (name === target) local.ssm.set(target, local.ssm.parameters.get(target)!.Value);
    };
    try {
      const run = await secrets(['rotate-vote-key', '--step', 'prepare']);
      expect(run.status, run.output).toBe(1);
      expect(run.output).toMatch(/another write of \/participation-api\/staging\/vote-signing-key landed between this run's read and its write .*One operator at a time/);
    } finally {
      local.ssm.beforePut = undefined;
    }
  });
});
