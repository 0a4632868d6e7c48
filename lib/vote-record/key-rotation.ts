/**
 * The rotation of the vote signing key (`npm run secrets -- rotate-vote-key`, docs/deploy.md
 * "Rotation") as moves between states of its two stored parameters: the seeds (`vote-signing-key`,
 * `{current, next}`) and the published keys (`vote-public-key`, `{current, next, retired}`). A run
 * reads both, names the state they are in, makes the one write that moves that state on, and reads
 * again, until the step asked for is done. A run that stopped anywhere (a crash, a refused write, a
 * lost connection) is finished by running the same step again, and every state in between is safe:
 *
 *   prepare  1. the new seed is stored as `next`: nothing signs with it;
 *            2. its public key is published as `next`.
 *   promote  (refused until the next key has been published for the key publication delay)
 *            3. the next seed becomes `current`: it signs from then on, and is published (as `next`);
 *               the old key is still listed current: nothing is retired while it may still sign;
 *            4. the published list follows: the new key current, the old one retired at the store's
 *               time of write 3 plus the secrets cache's max age, the last moment a warm container may
 *               still sign with the old seed.
 *
 * So no checkpoint is signed by a key that is not published, no key is listed retired while it may
 * sign, and only one key is ever listed current. Times are the secret store's own (the time of its
 * last write of each parameter, and the time of its answer), never the clock of the operator's
 * machine. Pure but for the store it is handed.
 */
import { publicOfSeed, seedTexts, votePublicKeyTexts, SECRETS } from '#lib/config/secret-values';
import { keyIdOf, publicKeyFromRaw } from '#lib/vote-record/checkpoint';

/** A rotation that cannot go on, in words that name no stored value (the tool prints them). */
export class RotationError extends Error {
  override name = 'RotationError';
}

/** A parameter as stored, with the store's time of its last write. */
export interface StoredParameter {
  value: string;
  modified: Date;
}

export interface StoredVoteKeys {
  seeds: StoredParameter;
  keys: StoredParameter;
  /** The store's time of this read. */
  now: Date;
}

export interface VoteKeyStore {
  read(): Promise<StoredVoteKeys>;
  write(secret: 'voteSigningKey' | 'votePublicKey', value: string): Promise<void>;
}

export type RotationStep = 'prepare' | 'promote';

export interface RotationOptions {
  /** How long a next key must have been published before it signs (lib/routes/results/vote-key-publication.ts). */
  publicationSeconds: number;
  /** How long a warm container keeps signing with the seed it read (the secrets cache's max age). */
  signerCacheSeconds: number;
  /** Promote before the next key has been published for the delay (after a leak). */
  force?: boolean;
  /** A fresh seed, stored text. */
  newSeed: () => string;
  /** The command that runs a step, for the messages. */
  command: (step: RotationStep) => string;
  say: (line: string) => void;
  warn: (line: string) => void;
}

type Texts = ReturnType<typeof votePublicKeyTexts>;

/** Where a rotation stands, from the two parameters. */
type RotationState =
  /** No rotation under way: the seed's key is the one listed current, nothing next. */
  | 'idle'
  /** Prepare stopped after storing the next seed: its key is not (or another key is) published as next. */
  | 'seed-stored'
  /** Prepared: the next seed's key is published as next. */
  | 'prepared'
  /** A key is published as next with no seed to sign with it (a prepare of an earlier version stopped midway). */
  | 'next-without-seed'
  /** Promote stopped after the seeds: the new key signs, the published list still names it next. */
  | 'seeds-promoted'
  /** The list was promoted but not the seeds (an earlier version wrote the list first): a key listed retired still signs. */
  | 'list-ahead'
  | 'unknown';

interface Reading {
  state: RotationState;
  seeds: { current: string; next: string | null };
  keys: Texts;
  /** The public keys (raw, base64url) of the current and next seeds. */
  signing: string;
  next: string | null;
}

function readingOf(seedsStored: string, keysStored: string): Reading {
  const seeds = seedTexts(seedsStored);
  const keys = votePublicKeyTexts(keysStored);
  const signing = publicOfSeed(seeds.current);
  const next = seeds.next === null ? null : publicOfSeed(seeds.next);
  const state: RotationState =
    signing === keys.current
      ? next === null
        ? keys.next === null
          ? 'idle'
          : 'next-without-seed'
        : keys.next === next
          ? 'prepared'
          : 'seed-stored'
      : next === null && signing === keys.next
        ? 'seeds-promoted'
        : next !== null && next === keys.current && keys.retired.some((r) => r.key === signing)
          ? 'list-ahead'
          : 'unknown';
  return { state, seeds, keys, signing, next };
}

/** The key id (what checkpoints name) of a raw public key. */
export const keyIdOfRaw = (raw: string): string => keyIdOf(publicKeyFromRaw(raw));

const later = (time: Date, seconds: number) => new Date(time.getTime() + seconds * 1000);

/**
 * What a half-done rotation needs, for `secrets check` (the deploy refuses while one is half done),
 * or undefined when none is.
 */
export function unfinishedRotation(seedsStored: string, keysStored: string, command: RotationOptions['command']): string | undefined {
  const { state } = readingOf(seedsStored, keysStored);
  if (state === 'seed-stored' || state === 'next-without-seed') return `a prepare of the vote signing key stopped midway: finish it with ${command('prepare')}`;
  if (state === 'seeds-promoted' || state === 'list-ahead') return `a promote of the vote signing key stopped midway: finish it with ${command('promote')}`;
  return undefined;
}

/** A key's id for a message; a text that is no key is shown as such (a public key: nothing to hide). */
const idOrText = (raw: string): string => {
  try {
    return keyIdOfRaw(raw);
  } catch {
    return `"${raw.slice(0, 12)}" (no Ed25519 key)`;
  }
};

/**
 * What the stored key list undoes of the versions before it (`history`, as many as the store keeps:
 * Parameter Store keeps the last 100), or undefined when nothing. A key once published current or
 * retired stays published (a voter's old receipt is checked with it), and a key once retired is never
 * listed current or next again after its retirement time (it could sign again): what putting back a
 * pair of versions from before the last rotation would do. A retirement still ahead (`now`, the store's
 * time) is what a promote stopped midway by an earlier version of the tool leaves, put right by promote.
 */
export function keyListRegression(history: readonly { version: number; value: string }[], stored: string, now: Date): string | undefined {
  const texts = votePublicKeyTexts(stored);
  const listed = new Set([texts.current, ...(texts.next ? [texts.next] : []), ...texts.retired.map((r) => r.key)]);
  for (const { version, value } of history) {
    let before: Texts;
    try {
      before = votePublicKeyTexts(value);
    } catch {
      continue;
    }
    for (const key of [before.current, ...before.retired.map((r) => r.key)]) {
      if (!listed.has(key)) return `it drops key ${idOrText(key)}, published in version ${version}: checkpoints it signed would no longer verify`;
    }
    for (const r of before.retired) {
      const slot = texts.current === r.key ? 'current' : texts.next === r.key ? 'next' : undefined;
      if (slot && Date.parse(r.retiredAt) <= now.getTime()) return `it lists key ${idOrText(r.key)} ${slot}, retired at ${r.retiredAt} in version ${version}: it would sign again`;
    }
  }
  return undefined;
}

type Move = { write: 'voteSigningKey' | 'votePublicKey'; value: string; said: string; warning?: string } | { done: string } | { refused: string };

/**
 * The one write that moves the rotation on towards `step` done, or that it is done, or why not.
 * `wrote`: this run has written already (a promote that ends where no rotation is under way is done).
 */
export function nextMove(step: RotationStep, stored: StoredVoteKeys, options: RotationOptions, wrote = false): Move {
  const reading = readingOf(stored.seeds.value, stored.keys.value);
  const { state, seeds, keys, signing, next } = reading;
  const seedsValue = (value: { current: string; next: string | null }) => JSON.stringify(value);
  const keysValue = (value: Texts) => JSON.stringify(value);
  const found = `found: vote-signing-key signs with ${keyIdOfRaw(signing)}${next ? `, next seed ${keyIdOfRaw(next)}` : ''}; vote-public-key lists current ${keyIdOfRaw(keys.current)}, next ${keys.next ? keyIdOfRaw(keys.next) : '-'}`;

  if (state === 'unknown') {
    return {
      refused: `the vote keys are in no state a rotation leaves (${found}). Put back the latest versions of both parameters that belong together, never a pair from before the last rotation (Parameter Store keeps the last 100 versions; docs/deploy.md "Rotation"), then run the step again`,
    };
  }
  if (step === 'prepare') {
    if (state === 'idle' || state === 'next-without-seed') {
      return { write: 'voteSigningKey', value: seedsValue({ current: seeds.current, next: options.newSeed() }), said: 'stored a new seed as next in vote-signing-key (nothing signs with it)' };
    }
    if (state === 'seed-stored') {
      return { write: 'votePublicKey', value: keysValue({ ...keys, next }), said: `published ${keyIdOfRaw(next!)} as next in vote-public-key` };
    }
    if (state === 'prepared') {
      const due = later(stored.keys.modified, options.publicationSeconds);
      return {
        done: `vote signing key ${keyIdOfRaw(next!)} is prepared: published as next since ${stored.keys.modified.toISOString()} (the secret store's time); promote it from ${due.toISOString()}: ${options.command('promote')}`,
      };
    }
    return { refused: `a promote is half done (${found}): finish it with ${options.command('promote')}, then prepare` };
  }

  if (state === 'idle') {
    const last = keys.retired[0];
    if (wrote && last) return { done: `promoted: ${keyIdOfRaw(signing)} signs and is the published current key; ${keyIdOfRaw(last.key)} is retired at ${last.retiredAt}` };
    return {
      refused: `no next vote signing key to promote: ${keyIdOfRaw(signing)} signs and is the published current key${last ? ` (the last one retired, ${keyIdOfRaw(last.key)}, at ${last.retiredAt}: a promote that finished leaves this state)` : ''}. To rotate, run ${options.command('prepare')} first`,
    };
  }
  if (state === 'seed-stored' || state === 'next-without-seed') {
    return { refused: `the next key is not ready to sign: its seed and the published next key do not match (${found}). Run ${options.command('prepare')} to finish preparing, then wait before promoting` };
  }
  if (state === 'prepared') {
    const due = later(stored.keys.modified, options.publicationSeconds);
    const early = stored.now < due;
    if (early && !options.force) {
      return {
        refused: `vote signing key ${keyIdOfRaw(next!)} was published as next at ${stored.keys.modified.toISOString()} (the secret store's time); verifiers and caches may not all have it before ${due.toISOString()} (${options.publicationSeconds} s later; it is ${stored.now.toISOString()} by the store). Promote then, or with --force after a leak`,
      };
    }
    return {
      write: 'voteSigningKey',
      value: seedsValue({ current: seeds.next!, next: null }),
      said: `${keyIdOfRaw(next!)} signs from now on (every container within ${options.signerCacheSeconds} s); ${keyIdOfRaw(signing)} still listed current until the list follows`,
      ...(early
        ? {
            warning: `WARNING: --force: promoting ${keyIdOfRaw(next!)}, published only since ${stored.keys.modified.toISOString()}, before ${due.toISOString()}. Checkpoints it signs may fail verification for verifiers and caches that still hold the list without it, until they fetch it again. Tell the city's witnesses.`,
          }
        : {}),
    };
  }
  if (state === 'seeds-promoted') {
    const retiredAt = later(stored.seeds.modified, options.signerCacheSeconds).toISOString();
    return {
      write: 'votePublicKey',
      value: keysValue({ current: signing, next: null, retired: [{ key: keys.current, retiredAt }, ...keys.retired] }),
      said: `published ${keyIdOfRaw(signing)} as current; ${keyIdOfRaw(keys.current)} stays published, retired at ${retiredAt} (the secret store's time of the seed write, ${stored.seeds.modified.toISOString()}, plus the secrets cache's ${options.signerCacheSeconds} s): checkpoints it signed keep verifying`,
    };
  }
  // list-ahead: the old key still signs, so it is listed current again (and the new one next) before
  // the seeds move; the promote then goes on as from 'prepared', its wait counted from this write.
  return {
    write: 'votePublicKey',
    value: keysValue({ current: signing, next, retired: keys.retired.filter((r) => r.key !== signing) }),
    said: `${keyIdOfRaw(signing)} was listed retired while it still signs (a promote that wrote the list before the seeds stopped midway): listed it current again, ${keyIdOfRaw(next!)} next`,
  };
}

/** Runs `step` to its end from wherever the parameters stand: true when done, false when refused. */
export async function rotateVoteKey(store: VoteKeyStore, step: RotationStep, options: RotationOptions): Promise<boolean> {
  // Each write moves one state on; a step takes at most three.
  for (let moves = 0; moves < 5; moves++) {
    const move = nextMove(step, await store.read(), options, moves > 0);
    if ('done' in move) {
      options.say(move.done);
      return true;
    }
    if ('refused' in move) {
      options.warn(move.refused);
      return false;
    }
    if (move.warning) options.warn(move.warning);
    SECRETS[move.write].parse(move.value);
    await store.write(move.write, move.value);
    options.say(move.said);
  }
  throw new RotationError('the vote key rotation did not settle: read the state with npm run secrets -- list');
}
