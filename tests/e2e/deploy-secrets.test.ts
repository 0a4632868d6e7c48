/**
 * The deploy refuses what would break or expose a stage, before anything is built
 * (scripts/sls/deploy-guard.cjs): a stage serverless.yml does not declare deployable, and on
 * `deploy` secrets in the store that are missing, weak or the dev defaults. The secret store is a
 * local SSM endpoint (tests/support/ssm-endpoint.ts); `npm run secrets -- init` bootstraps it and
 * prints what it did, never a value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { runProcess } from '#tests/support/run-process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSsmEndpoint, ssmEnvironment, type SsmEndpoint } from '#tests/support/ssm-endpoint';
import { DEV_VOTE_CHAIN_KEY, SECRETS, signingKeyFromSeed } from '#lib/config/secret-values';
import { checkpointSignatureIsValid, signCheckpoint, type SignedCheckpoint } from '#lib/vote-record/checkpoint';
import { signerOf } from '#lib/vote-record/key-set';
import { keySetOfStored } from '#lib/vote-record/keys';
import { KEY_PUBLICATION_SECONDS } from '#lib/routes/results/vote-key-publication';
import { SECRETS_MAX_AGE_SECONDS } from '#lib/store/secrets/load';

const root = fileURLToPath(new URL('../..', import.meta.url));
let ssm: SsmEndpoint;
let work: string;

beforeAll(async () => {
  ssm = await startSsmEndpoint();
  work = mkdtempSync(join(tmpdir(), 'secrets-'));
});
afterAll(async () => {
  await ssm?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Asynchronously: the commands call the SSM endpoint this process serves. */
async function run(args: string[], env: Record<string, string> = {}) {
  const { JWT_SECRET: _j, API_SERVICE_TOKENS: _a, ...rest } = process.env;
  const res = await runProcess(process.execPath, args, {
    cwd: root,
    env: { ...rest, SLS_TELEMETRY_DISABLED: '1', ...ssmEnvironment(ssm), ...env },
  });
  return { status: res.status, output: `${res.stdout}${res.stderr}` };
}
const serverless = (args: string[], env?: Record<string, string>) => run(['node_modules/serverless/bin/serverless.js', ...args], env);
const secrets = (args: string[]) => run(['--import', 'tsx', 'scripts/secrets.ts', ...args]);

describe('the deploy guard', () => {
  it.each(['test', 'dev', 'production', 'local'])('refuses to package the undeclared stage "%s", naming the fix, before building', async (stage) => {
    const res = await serverless(['package', '--stage', stage, '--package', join(work, 'never-written')]);
    expect(res.status).not.toBe(0);
    expect(res.output).toContain(`Stage "${stage}" is not declared deployable`);
    expect(res.output).toContain(`params.${stage}.deployable: true`);
    // Nothing was built, nor announced: the guard runs when the plugin loads, before osls names the command.
    expect(existsSync(join(work, 'never-written'))).toBe(false);
    expect(res.output).not.toContain('Packaging');
    expect(res.output).not.toMatch(/Compiling|\.zip/);
  });

  it('refuses to deploy while the stage has no secrets, naming the bootstrap command, before building', async () => {
    const res = await serverless(['deploy', '--stage', 'staging']);
    expect(res.status).not.toBe(0);
    expect(res.output).toContain('not fit to deploy');
    expect(res.output).toContain('npm run secrets -- init --stage staging');
    expect(res.output).not.toContain('Packaging');
  });
});

describe('npm run secrets', () => {
  it('init creates every parameter, prints what it did and never a value; the token goes to a file of mode 600', async () => {
    const tokenFile = join(work, 'cms.token');
    const res = await secrets(['init', '--stage', 'staging', '--token-out', tokenFile]);
    expect(res.status, res.output).toBe(0);
    const names = ['token-keys', 'server-key', 'service-tokens', 'vote-chain-key', 'vote-signing-key', 'vote-public-key'];
    for (const name of names) expect(res.output).toContain(`created /participation-api/staging/${name}`);
    const token = readFileSync(tokenFile, 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    const stored = [...ssm.parameters.values()].filter((p) => p.Name.startsWith('/participation-api/staging/'));
    expect(stored).toHaveLength(names.length);
    // The public half follows from the seed it was stored from.
    const value = (name: string) => ssm.parameters.get(`/participation-api/staging/${name}`)!.Value;
    const seed = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(value('vote-signing-key'), 'base64url')]);
    expect(JSON.parse(value('vote-public-key'))).toEqual({ current: createPublicKey(createPrivateKey({ key: seed, format: 'der', type: 'pkcs8' })).export({ format: 'jwk' }).x, next: null, retired: [] });
    for (const p of stored) {
      expect(p.Type).toBe('SecureString');
      expect(res.output).not.toContain(p.Value);
      for (const piece of JSON.stringify(p.Value).match(/[A-Za-z0-9_-]{32,}/g) ?? []) expect(res.output).not.toContain(piece);
    }
    expect(res.output).not.toContain(token);
    // Only the token's hash is stored.
    expect(JSON.stringify(stored)).not.toContain(token);

    const again = await secrets(['init', '--stage', 'staging']);
    expect(again.output).toContain('kept    /participation-api/staging/token-keys');
    expect((await secrets(['check', '--stage', 'staging'])).status).toBe(0);
  });

  it('check refuses short keys, the dev defaults and an empty token list, naming each fix', async () => {
    ssm.set('/participation-api/weak/token-keys', JSON.stringify({ current: { kid: 'k1', key: 'c2hvcnQ' }, next: null, previous: null }));
    ssm.set('/participation-api/weak/server-key', 'local-dev-jwt-secret-change-me-0123456789abcdef');
    ssm.set('/participation-api/weak/service-tokens', '[]');
    ssm.set('/participation-api/weak/vote-chain-key', DEV_VOTE_CHAIN_KEY);
    ssm.set('/participation-api/weak/vote-signing-key', randomBytes(32).toString('base64url'));
    // A public key that is not the signing key's: checkpoints would not verify against what is published.
    ssm.set('/participation-api/weak/vote-public-key', randomBytes(32).toString('base64url'));
    const res = await secrets(['check', '--stage', 'weak']);
    expect(res.status).toBe(1);
    expect(res.output).toMatch(/refused \/participation-api\/weak\/token-keys: .*shorter than 32 bytes/);
    expect(res.output).toMatch(/refused \/participation-api\/weak\/server-key: .*(dev default|not base64url)/);
    expect(res.output).toMatch(/refused \/participation-api\/weak\/service-tokens: .*empty.*Fix: npm run secrets -- service-token add/);
    expect(res.output).toMatch(/refused \/participation-api\/weak\/vote-chain-key: .*dev default/);
    expect(res.output).toMatch(/ok {6}\/participation-api\/weak\/vote-signing-key/);
    // The fix keeps the retired keys: put back a version, never delete it (init would store it without them).
    expect(res.output).toMatch(/refused \/participation-api\/weak\/vote-public-key: .*does not follow from voteSigningKey\. Fix: put back its latest version that followed from voteSigningKey .*Never delete it/);
  });

  it('rotates the vote signing key in two steps: the new key is published before it signs, the old one stays published, retired', async () => {
    const path = '/participation-api/staging/';
    const stored = () => ({
      seeds: SECRETS.voteSigningKey.parse(ssm.parameters.get(`${path}vote-signing-key`)!.Value),
      keys: SECRETS.votePublicKey.parse(ssm.parameters.get(`${path}vote-public-key`)!.Value),
    });
    const keySet = () => keySetOfStored(stored().keys);
    const verifies = (checkpoint: SignedCheckpoint) => {
      const signer = signerOf(keySet(), checkpoint);
      return 'key' in signer && checkpointSignatureIsValid(checkpoint, signer.key);
    };
    const head = (id: number) => ({ siteId: 3, id, treeSize: id, root: 'ab'.repeat(32), cut: new Date().toISOString(), ballots: id });
    expect((await secrets(['rotate-vote-key', '--stage', 'staging', '--step', 'promote'])).output).toContain('no next vote signing key');
    const before = stored();
    const old = signCheckpoint(head(1), signingKeyFromSeed(before.seeds.current));

    const prepare = await secrets(['rotate-vote-key', '--stage', 'staging', '--step', 'prepare']);
    expect(prepare.status, prepare.output).toBe(0);
    const prepared = stored();
    expect(prepared.seeds.current).toEqual(before.seeds.current);
    expect(prepared.seeds.next).not.toBeNull();
    // Published as next before anything signs with it.
    const early = signCheckpoint(head(2), signingKeyFromSeed(prepared.seeds.next!));
    expect(verifies(old) && verifies(early)).toBe(true);
    expect((await secrets(['check', '--stage', 'staging'])).status).toBe(0);
    const again = await secrets(['rotate-vote-key', '--stage', 'staging', '--step', 'prepare']);
    expect(again.status, again.output).toBe(0);
    expect(again.output).toContain('is prepared: published as next since');
    expect(stored()).toEqual(prepared);

    // Right after prepare, verifiers and caches may not have the next key yet: it may not sign.
    const tooSoon = await secrets(['rotate-vote-key', '--stage', 'staging', '--step', 'promote']);
    expect(tooSoon.status).toBe(1);
    expect(tooSoon.output).toContain('verifiers and caches may not all have it before');
    expect(stored()).toEqual(prepared);
    // The store's clock passes the wait (the tool reads time from the store only). Its Date header
    // counts whole seconds, so the wait is passed one second later than the exact publication time.
    ssm.clockOffsetMs += KEY_PUBLICATION_SECONDS * 1000 + 1000;
    const promote = await secrets(['rotate-vote-key', '--stage', 'staging', '--step', 'promote']);
    expect(promote.status, promote.output).toBe(0);
    const promoted = stored();
    expect(promoted.seeds).toEqual({ current: prepared.seeds.next, next: null });
    expect(promoted.keys.retired.map((r) => Buffer.from(r.key))).toEqual([Buffer.from(before.keys.current)]);
    const fresh = signCheckpoint(head(3), signingKeyFromSeed(promoted.seeds.current));
    // Every checkpoint verifies with the key it names: those of the old key too, cut before its retirement.
    expect([old, early, fresh].map(verifies)).toEqual([true, true, true]);
    const late = signCheckpoint({ ...head(4), cut: new Date(Date.parse(promoted.keys.retired[0]!.retiredAt) + 1000).toISOString() }, signingKeyFromSeed(before.seeds.current));
    expect(verifies(late)).toBe(false);
    expect((await secrets(['check', '--stage', 'staging'])).status).toBe(0);
    const list = await secrets(['list', '--stage', 'staging']);
    expect(list.output).toContain(`current ${fresh.keyId}, next -, retired ${old.keyId} (`);
    for (const name of ['vote-signing-key', 'vote-public-key']) {
      const value = ssm.parameters.get(`${path}${name}`)!.Value;
      for (const piece of value.match(/[A-Za-z0-9_-]{32,}/g) ?? []) expect(`${prepare.output}${promote.output}${list.output}`).not.toContain(piece);
    }
  });

  it('a promote stopped between its two writes is named by check and finished by running it again; the old key is retired by the store clock, not the machine\'s', async () => {
    const path = '/participation-api/resume/';
    const value = (name: string) => ssm.parameters.get(`${path}${name}`)!;
    const step = (name: string) => secrets(['rotate-vote-key', '--stage', 'resume', '--step', name]);
    expect((await secrets(['init', '--stage', 'resume', '--token-out', join(work, 'resume.token')])).status).toBe(0);
    const first = SECRETS.votePublicKey.parse(value('vote-public-key').Value).current;
    const offset = ssm.clockOffsetMs;
    try {
      // The store's clock is two days behind this machine's.
      ssm.clockOffsetMs = offset - 2 * 86_400_000;
      expect((await step('prepare')).status).toBe(0);
      const next = SECRETS.votePublicKey.parse(value('vote-public-key').Value).next!;
      // Past the wait by the store's time (whole seconds in its Date header, hence the extra second).
      ssm.clockOffsetMs += KEY_PUBLICATION_SECONDS * 1000 + 1000;
      ssm.putsBeforeRefusing = 1;
      const stopped = await step('promote');
      expect(stopped.status).toBe(1);
      expect(stopped.output).toContain('stopped: writing /participation-api/resume/vote-public-key is refused here. Run npm run secrets -- rotate-vote-key --stage resume --step promote again');
      ssm.putsBeforeRefusing = undefined;
      // Stopped after one write: the new key signs and is published (as next); nothing is retired yet.
      const half = SECRETS.votePublicKey.parse(value('vote-public-key').Value);
      expect(Buffer.from(half.current)).toEqual(Buffer.from(first));
      expect(Buffer.from(half.next!)).toEqual(Buffer.from(next));
      expect(half.retired).toEqual([]);
      const check = await secrets(['check', '--stage', 'resume']);
      expect(check.status).toBe(1);
      expect(check.output).toContain('a promote of the vote signing key stopped midway: finish it with npm run secrets -- rotate-vote-key --stage resume --step promote');

      const resumed = await step('promote');
      expect(resumed.status, resumed.output).toBe(0);
      expect(resumed.output).toMatch(/this machine's clock is \d+ s off the secret store's/);
      const done = SECRETS.votePublicKey.parse(value('vote-public-key').Value);
      expect(Buffer.from(done.current)).toEqual(Buffer.from(next));
      const seedWrite = value('vote-signing-key').LastModifiedDate * 1000;
      expect(done.retired).toEqual([{ key: first, retiredAt: new Date(seedWrite + SECRETS_MAX_AGE_SECONDS * 1000).toISOString() }]);
      expect((await secrets(['check', '--stage', 'resume'])).status).toBe(0);
    } finally {
      ssm.clockOffsetMs = offset;
      ssm.putsBeforeRefusing = undefined;
    }
  });

  it('rotates the token key in three steps, and a service token added by hand must have 32 characters', async () => {
    for (const step of ['prepare', 'promote', 'retire']) expect((await secrets(['rotate-token-key', '--stage', 'staging', '--step', step])).status).toBe(0);
    const keys = JSON.parse(ssm.parameters.get('/participation-api/staging/token-keys')!.Value) as { current: { kid: string }; next: null; previous: null };
    expect(keys.next).toBeNull();
    expect(keys.previous).toBeNull();
    const short = await runProcess(process.execPath, ['--import', 'tsx', 'scripts/secrets.ts', 'service-token', 'add', '--stage', 'staging', '--name', 'ops', '--from-stdin'], {
      cwd: root,
      env: { ...process.env, ...ssmEnvironment(ssm) },
      input: 'too-short-token',
    });
    expect(short.status).toBe(1);
    expect(`${short.stdout}${short.stderr}`).toContain('at least 32 characters');
  });
});
