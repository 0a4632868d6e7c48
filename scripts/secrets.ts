/**
 * The secret store of a deployed stage (SSM Parameter Store, SecureString; docs/deploy.md). It prints
 * what it did, never a value. Every secret it knows is a declaration of lib/config/secret-values.ts.
 *
 *   npm run secrets -- init --stage S [--region R] [--kms-key ARN] [--token-name cms] [--token-out FILE]
 *       creates every missing parameter with a fresh value; an existing one is kept. A new
 *       service-tokens parameter gets one token, written to FILE (mode 600) and stored as its hash.
 *   npm run secrets -- check --stage S        what the deploy runs: every secret present and strong
 *   npm run secrets -- list --stage S         names, versions, dates; no values
 *   npm run secrets -- rotate-token-key --stage S --step prepare|promote|retire
 *   npm run secrets -- rotate-vote-key --stage S --step prepare|promote [--force]
 *       each step finishes what a stopped run of it left; promote waits for the key publication delay
 *   npm run secrets -- service-token add --stage S --name N [--out FILE | --from-stdin]
 *   npm run secrets -- service-token remove --stage S --name N
 *
 * AWS credentials and region as for the AWS CLI; AWS_ENDPOINT_URL_SSM points it at another endpoint
 * (the tests use a local one).
 */
import { GetParameterHistoryCommand, GetParametersCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SECRETS_MAX_AGE_SECONDS } from '#lib/store/secrets/load';
import { KEY_PUBLICATION_SECONDS } from '#lib/routes/results/vote-key-publication';
import { printable, UsageError } from './secrets-tool/errors.ts';
import { keyIdOfRaw, keyListRegression, RotationError, rotateVoteKey as rotateVoteKeyStep, unfinishedRotation, type RotationStep, type VoteKeyStore } from '#lib/vote-record/key-rotation';
import {
  checkServiceToken,
  SECRETS,
  secretsPath,
  sha256Hex,
  storedKey,
  tokenKeyTexts,
  votePublicKeyTexts,
  WeakSecretError,
  type SecretName,
  type ServiceTokenHash,
} from '#lib/config/secret-values';

const SERVICE = 'participation-api';

const { positionals, values: args } = parseArgs({
  allowPositionals: true,
  options: {
    stage: { type: 'string' },
    region: { type: 'string' },
    'kms-key': { type: 'string' },
    'token-name': { type: 'string', default: 'cms' },
    'token-out': { type: 'string' },
    name: { type: 'string' },
    out: { type: 'string' },
    'from-stdin': { type: 'boolean', default: false },
    step: { type: 'string' },
    force: { type: 'boolean', default: false },
  },
});

function stageOf(given: string | undefined): string {
  const problem =
    !given || !/^[a-zA-Z0-9-]+$/.test(given)
      ? '--stage S is required (letters, digits, dashes)'
      : given === 'local' || given === 'test'
        ? `stage "${given}" reads its secrets from the environment, not the store`
        : undefined;
  if (problem === undefined) return given!;
  console.error(problem);
  process.exit(1);
}
const stage = stageOf(args.stage);
const path = secretsPath(SERVICE, stage);
const ssm = new SSMClient(args.region ? { region: args.region } : {});
const NAMES = Object.keys(SECRETS) as SecretName[];
const nameOf = (secret: SecretName) => `${path}${SECRETS[secret].parameter}`;
const rotateVoteKeyCommand = (step: RotationStep) => `npm run secrets -- rotate-vote-key --stage ${stage} --step ${step}`;

/** The stored text of each secret, undefined when the parameter does not exist. */
async function readAll(): Promise<Record<SecretName, { value: string; version: number; modified: Date | undefined } | undefined>> {
  const out = await ssm.send(new GetParametersCommand({ Names: NAMES.map(nameOf), WithDecryption: true }));
  const found = new Map((out.Parameters ?? []).map((p) => [p.Name, p]));
  return Object.fromEntries(
    NAMES.map((n) => {
      const p = found.get(nameOf(n));
      return [n, p ? { value: p.Value ?? '', version: p.Version ?? 0, modified: p.LastModifiedDate } : undefined];
    }),
  ) as Record<SecretName, { value: string; version: number; modified: Date | undefined } | undefined>;
}

/** Every version of a parameter the store still keeps (Parameter Store: the last 100), values decrypted. */
async function history(secret: SecretName): Promise<{ version: number; value: string }[]> {
  const versions: { version: number; value: string }[] = [];
  let token: string | undefined;
  do {
    const out = await ssm.send(new GetParameterHistoryCommand({ Name: nameOf(secret), WithDecryption: true, MaxResults: 50, ...(token ? { NextToken: token } : {}) }));
    for (const p of out.Parameters ?? []) versions.push({ version: p.Version ?? 0, value: p.Value ?? '' });
    token = out.NextToken;
  } while (token);
  return versions;
}

/** What the stored vote key list undoes of its earlier versions (lib/vote-record/key-rotation.ts `keyListRegression`). */
async function voteKeyListRegression(stored: string): Promise<string | undefined> {
  return keyListRegression(await history('votePublicKey'), stored, storeDate ?? new Date());
}

/** The fix for a vote key list that undoes its history: the latest versions, which keep every key. */
const putBackLatest = `put back the latest versions of vote-signing-key and vote-public-key, from after the last rotation (aws ssm get-parameter-history; Parameter Store keeps the last 100 versions), never a pair from before it (docs/deploy.md "Rotation")`;

const tags = [
  { Key: 'service', Value: SERVICE },
  { Key: 'stage', Value: stage },
];

/**
 * Writes a parameter; its new version. Intelligent-Tiering: Standard (free, 4 KB) while the value fits,
 * Advanced (8 KB) once it does not: the vote key list grows by a retired key each rotation and outgrows
 * 4 KB after some 40 rotations. Reads and IAM are the same for both tiers.
 */
async function put(secret: SecretName, value: string, create: boolean): Promise<number | undefined> {
  const kms = args['kms-key'];
  const out = await ssm.send(
    new PutParameterCommand({
      Name: nameOf(secret),
      Value: value,
      Type: 'SecureString',
      Tier: 'Intelligent-Tiering',
      Description: SECRETS[secret].description,
      ...(kms ? { KeyId: kms } : {}),
      ...(create ? { Tags: tags } : { Overwrite: true }),
    }),
  );
  return out.Version;
}

/** A new service token: 43 characters from 256 random bits. */
const newServiceToken = () => randomBytes(32).toString('base64url');

function handOver(token: string, name: string, file: string): void {
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  console.log(`wrote the new service token "${name}" to ${file} (mode 600); the store keeps only its SHA-256. Give it to its holder, then delete the file.`);
}

async function init(): Promise<void> {
  const stored = await readAll();
  for (const secret of NAMES) {
    if (stored[secret]) {
      console.log(`kept    ${nameOf(secret)} (exists, version ${stored[secret].version})`);
      continue;
    }
    if (secret === 'serviceTokens') {
      const token = newServiceToken();
      const name = args['token-name']!;
      const entry: ServiceTokenHash = { name, sha256: sha256Hex(token) };
      await put(secret, JSON.stringify([entry]), true);
      console.log(`created ${nameOf(secret)} (SecureString) with one service token, "${name}"`);
      handOver(token, name, args['token-out'] ?? `${SERVICE}-${stage}-${name}.token`);
      continue;
    }
    const derived = SECRETS[secret].derived;
    if (derived) {
      // Follows from its source, stored (or created) just before it: NAMES lists sources first.
      const source = (await readAll())[derived.from as SecretName];
      if (!source) throw new Error(`${nameOf(secret)} follows from ${derived.from}, which is missing`);
      await put(secret, derived.value(source.value), true);
      console.log(`created ${nameOf(secret)} (SecureString, ${SECRETS[secret].description})`);
      continue;
    }
    await put(secret, SECRETS[secret].generate(), true);
    console.log(`created ${nameOf(secret)} (SecureString, ${SECRETS[secret].description})`);
  }
}

/** The token keys are of the stored form (a weak key in it is replaced by rotating). */
const isTokenKeysForm = (value: string): boolean => {
  try {
    return Boolean(tokenKeyTexts(value));
  } catch {
    return false;
  }
};

const parses = (secret: SecretName, value: string): boolean => {
  try {
    SECRETS[secret].parse(value);
    return true;
  } catch {
    return false;
  }
};

/** What finishes a rotation of the vote signing key that stopped midway, if one did. */
function halfDoneRotation(stored: Awaited<ReturnType<typeof readAll>>): string | undefined {
  const seeds = stored.voteSigningKey;
  const keys = stored.votePublicKey;
  if (!seeds || !keys) return undefined;
  try {
    return unfinishedRotation(seeds.value, keys.value, rotateVoteKeyCommand);
  } catch (error) {
    if (error instanceof WeakSecretError) return undefined;
    throw error;
  }
}

/** Every secret present and strong; exit 1 naming what is wrong and the fix. */
async function check(): Promise<boolean> {
  const stored = await readAll();
  let ok = true;
  for (const secret of NAMES) {
    const entry = stored[secret];
    if (!entry) {
      ok = false;
      console.log(`refused ${nameOf(secret)}: missing. Fix: npm run secrets -- init --stage ${stage}`);
      continue;
    }
    try {
      SECRETS[secret].parse(entry.value);
      const derived = SECRETS[secret].derived;
      const source = derived ? stored[derived.from as SecretName] : undefined;
      const sourceParses = source !== undefined && parses(derived!.from as SecretName, source.value);
      if (derived && sourceParses && !derived.follows(source.value, entry.value)) throw new WeakSecretError(`it does not follow from ${derived.from}`);
      const regression = secret === 'votePublicKey' ? await voteKeyListRegression(entry.value) : undefined;
      if (regression) {
        ok = false;
        console.log(`refused ${nameOf(secret)}: ${regression}. Fix: ${putBackLatest}`);
        continue;
      }
      console.log(`ok      ${nameOf(secret)} (version ${entry.version})`);
    } catch (error) {
      if (!(error instanceof WeakSecretError)) throw error;
      ok = false;
      const fix =
        (secret === 'votePublicKey' && halfDoneRotation(stored)) ||
        (secret === 'serviceTokens'
          ? `npm run secrets -- service-token add --stage ${stage} --name <holder>`
          : secret === 'tokenKeys'
            ? isTokenKeysForm(entry.value)
              ? `replace the weak key: npm run secrets -- rotate-token-key --stage ${stage} --step prepare, then --step promote, then --step retire (tokens the weak key signed are refused from then on)`
              : `put back its last version that parses (aws ssm get-parameter-history; Parameter Store keeps the last 100 versions), or delete the parameter and run npm run secrets -- init --stage ${stage} (a fresh key: every login ends)`
            : SECRETS[secret].derived
              ? `put back its latest version that followed from ${SECRETS[secret].derived.from} (aws ssm get-parameter-history; Parameter Store keeps the last 100 versions): it keeps the retired keys. Never delete it: init would store it again from ${SECRETS[secret].derived.from} alone, without the retired keys`
              : `delete the parameter and run npm run secrets -- init --stage ${stage} (docs/deploy.md "Replacing the server key")`);
      console.log(`refused ${nameOf(secret)}: ${error.message}. Fix: ${fix}`);
    }
  }
  return ok;
}

/** What `list` prints of one stored value beyond its name and version: the names of its keys and tokens. */
function listedParts(secret: SecretName, value: string): string[] {
  if (secret === 'serviceTokens') return SECRETS.serviceTokens.parse(value, { allowDevValues: true }).map((t) => `  token "${t.name}"`);
  if (secret === 'votePublicKey') {
    const keys = votePublicKeyTexts(value);
    return [`  current ${keyIdOfRaw(keys.current)}, next ${keys.next ? keyIdOfRaw(keys.next) : '-'}, retired ${keys.retired.map((r) => `${keyIdOfRaw(r.key)} (${r.retiredAt})`).join(', ') || '-'}`];
  }
  if (secret === 'tokenKeys') {
    const keys = SECRETS.tokenKeys.parse(value, { allowDevValues: true });
    return [`  current ${keys.current.kid}, next ${keys.next?.kid ?? '-'}, previous ${keys.previous?.kid ?? '-'}`];
  }
  return [];
}

/** Every parameter, one unreadable value not stopping the others (exit 1 then: `check` names the fix). */
async function list(): Promise<boolean> {
  const stored = await readAll();
  let ok = true;
  for (const secret of NAMES) {
    const entry = stored[secret];
    const what = SECRETS[secret].description;
    console.log(entry ? `${nameOf(secret)}  version ${entry.version}, ${entry.modified?.toISOString() ?? '?'}  (${what})` : `${nameOf(secret)}  missing  (${what})`);
    if (!entry) continue;
    try {
      for (const line of listedParts(secret, entry.value)) console.log(line);
    } catch (error) {
      ok = false;
      console.log(`  unreadable: ${printable(error)}. npm run secrets -- check --stage ${stage} names the fix`);
    }
  }
  return ok;
}

/**
 * Rotation in three steps, each a new parameter version that warm containers pick up within the
 * cache's max age (lib/store/secrets/load.ts): prepare (a new key verifies), promote (it signs; the old
 * one still verifies), retire (the old one is dropped, once the tokens it signed have expired).
 */
async function rotateTokenKey(): Promise<void> {
  const stored = (await readAll()).tokenKeys;
  if (!stored) throw new UsageError(`no token keys yet: npm run secrets -- init --stage ${stage}`);
  // Read by the declaration's reader, which refuses a value not of the stored form without quoting
  // it. A weak key is read, so the rotation can replace it; the only key a step adds is a fresh one.
  const raw = tokenKeyTexts(stored.value);
  const step = args.step;
  if (step === 'prepare') {
    if (raw.next) throw new UsageError(`a next key (${raw.next.kid}) is prepared already: promote it`);
    raw.next = storedKey();
    console.log(`prepared key ${raw.next.kid}: it verifies from now on; promote it after the cache's max age (5 minutes)`);
  } else if (step === 'promote') {
    if (!raw.next) throw new UsageError('no next key: run --step prepare first');
    raw.previous = raw.current;
    raw.current = raw.next;
    raw.next = null;
    console.log(`promoted key ${raw.current.kid}: it signs from now on; ${raw.previous.kid} still verifies until retired (after JWT_TTL_SECONDS)`);
  } else if (step === 'retire') {
    if (!raw.previous) throw new UsageError('no previous key to retire');
    console.log(`retired key ${raw.previous.kid}: tokens it signed are refused (401) from now on`);
    raw.previous = null;
  } else {
    throw new UsageError('--step prepare|promote|retire');
  }
  const value = JSON.stringify(raw);
  tokenKeyTexts(value);
  await put('tokenKeys', value, false);
}

/**
 * The store's own time: the `Date` of its latest answer. What the rotation's times are measured with,
 * so a wrong clock on the operator's machine moves none of them (lib/vote-record/key-rotation.ts).
 */
let storeDate: Date | undefined;
ssm.middlewareStack.add(
  (next) => async (input) => {
    const out = await next(input);
    const date = new Date((out.response as { headers?: Record<string, string> }).headers?.date ?? Number.NaN);
    if (Number.isFinite(date.getTime())) storeDate = date;
    return out;
  },
  { step: 'deserialize', name: 'storeClock' },
);

/** How far this machine's clock may be off the store's before the operator is told. */
const CLOCK_NOTICE_SECONDS = 60;
let clockNoticed = false;

/** The vote keys' two parameters through the SSM client, with the store's times (docs/deploy.md "Rotation"). */
const voteKeyStore: VoteKeyStore = {
  async read() {
    const stored = await readAll();
    const seeds = stored.voteSigningKey;
    const keys = stored.votePublicKey;
    if (!seeds || !keys) throw new UsageError(`no vote signing key yet: npm run secrets -- init --stage ${stage}`);
    if (!storeDate || !seeds.modified || !keys.modified) throw new RotationError('the secret store gave no time of its own (no Date, no LastModifiedDate): the rotation takes its times from the store only');
    const regression = await voteKeyListRegression(keys.value);
    if (regression) throw new UsageError(`refused ${nameOf('votePublicKey')}: ${regression}. Fix: ${putBackLatest}`);
    const off = (Date.now() - storeDate.getTime()) / 1000;
    if (Math.abs(off) > CLOCK_NOTICE_SECONDS && !clockNoticed) console.error(`note: this machine's clock is ${Math.round(off)} s off the secret store's; every time below is the store's`);
    clockNoticed = true;
    readVersions = { voteSigningKey: seeds.version, votePublicKey: keys.version };
    return { seeds: { value: seeds.value, modified: seeds.modified }, keys: { value: keys.value, modified: keys.modified }, now: storeDate };
  },
  async write(secret, value) {
    // PutParameter has no condition: a write of another run between this run's read and its write is
    // seen only after the fact, by the version it returns. Stop then; `check` says what is left.
    const version = await put(secret, value, false);
    const expected = readVersions[secret] + 1;
    if (version !== expected) {
      throw new UsageError(
        `another write of ${nameOf(secret)} landed between this run's read and its write (version ${version ?? '?'}, expected ${expected}): is another operator rotating? One operator at a time (docs/deploy.md "Rotation"): agree who goes on, then run npm run secrets -- check --stage ${stage} and the step it names`,
      );
    }
  },
};

/** The versions of the vote keys' parameters as this run last read them. */
let readVersions = { voteSigningKey: 0, votePublicKey: 0 };

async function rotateVoteKey(): Promise<boolean> {
  const step = args.step;
  if (step !== 'prepare' && step !== 'promote') throw new UsageError('--step prepare|promote');
  try {
    return await rotateVoteKeyStep(voteKeyStore, step, {
      publicationSeconds: KEY_PUBLICATION_SECONDS,
      signerCacheSeconds: SECRETS_MAX_AGE_SECONDS,
      force: args.force,
      newSeed: SECRETS.voteSigningKey.generate,
      command: rotateVoteKeyCommand,
      say: (line) => console.log(line),
      warn: (line) => console.error(line),
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // Every state between two writes is safe and is finished by the same step (lib/vote-record/key-rotation.ts).
    console.error(`stopped: ${printable(error)}. Run ${rotateVoteKeyCommand(step)} again to finish from where it stopped.`);
    return false;
  }
}

async function serviceToken(action: string | undefined): Promise<void> {
  const name = args.name;
  if (!name) throw new UsageError('--name N: who holds the token (cms, ops, ...)');
  const stored = (await readAll()).serviceTokens;
  const hashes = stored ? SECRETS.serviceTokens.parse(stored.value, { allowDevValues: true }) : [];
  if (action === 'add') {
    if (hashes.some((h) => h.name === name)) throw new UsageError(`a token named "${name}" exists: remove it first`);
    const token = args['from-stdin'] ? readFileSync(0, 'utf8').trim() : newServiceToken();
    checkServiceToken(token);
    await put('serviceTokens', JSON.stringify([...hashes, { name, sha256: sha256Hex(token) }]), !stored);
    console.log(`added service token "${name}" to ${nameOf('serviceTokens')} (its SHA-256 only)`);
    if (!args['from-stdin']) handOver(token, name, args.out ?? `${SERVICE}-${stage}-${name}.token`);
  } else if (action === 'remove') {
    const rest = hashes.filter((h) => h.name !== name);
    if (rest.length === hashes.length) throw new UsageError(`no token named "${name}"`);
    await put('serviceTokens', JSON.stringify(rest), false);
    console.log(`removed service token "${name}": refused within the cache's max age (5 minutes)`);
  } else {
    throw new UsageError('service-token add|remove');
  }
}

try {
  const [command, sub] = positionals;
  if (command === 'init') await init();
  else if (command === 'check') process.exitCode = (await check()) ? 0 : 1;
  else if (command === 'list') process.exitCode = (await list()) ? 0 : 1;
  else if (command === 'rotate-token-key') await rotateTokenKey();
  else if (command === 'rotate-vote-key') process.exitCode = (await rotateVoteKey()) ? 0 : 1;
  else if (command === 'service-token') await serviceToken(sub);
  else throw new UsageError('commands: init, check, list, rotate-token-key, rotate-vote-key, service-token add|remove (see scripts/secrets.ts)');
} catch (error) {
  // Never rethrown: Node would print the message and the stack of an error no one here wrote.
  console.error(printable(error));
  process.exitCode = 1;
}
