/**
 * The vote keys' two Parameter Store parameters in memory, for lib/vote-record/key-rotation.ts: a
 * clock of the store's own (each write one second later, stamped with it), every version of the
 * published list kept, and a write that can be made to fail as a crash or a dropped connection would.
 */
import { randomBytes } from 'node:crypto';
import { SECRETS } from '#lib/config/secret-values';
import type { StoredVoteKeys, VoteKeyStore } from '#lib/vote-record/key-rotation';

export const newVoteSeed = () => randomBytes(32).toString('base64url');

type Name = 'voteSigningKey' | 'votePublicKey';

export interface MemoryVoteKeyStore extends VoteKeyStore {
  readonly params: Record<Name, { value: string; modified: Date }>;
  /** Every value the published list has had, first to last. */
  readonly versions: string[];
  now(): Date;
  advance(seconds: number): void;
  /** The n-th write from now on is lost (the run stops there); undefined: none is. */
  failWrite(n: number | undefined): void;
}

export function memoryVoteKeyStore(start: Date, firstSeed = newVoteSeed()): MemoryVoteKeyStore {
  let now = start.getTime();
  const params: Record<Name, { value: string; modified: Date }> = {
    voteSigningKey: { value: firstSeed, modified: new Date(now) },
    votePublicKey: { value: SECRETS.votePublicKey.derived!.value(firstSeed), modified: new Date(now) },
  };
  const versions = [params.votePublicKey.value];
  let writes = 0;
  let failAt: number | undefined;
  return {
    params,
    versions,
    now: () => new Date(now),
    advance: (seconds) => void (now += seconds * 1000),
    failWrite: (n) => {
      writes = 0;
      failAt = n;
    },
    read: async (): Promise<StoredVoteKeys> => ({ seeds: { ...params.voteSigningKey }, keys: { ...params.votePublicKey }, now: new Date(now) }),
    async write(name, value) {
      if (++writes === failAt) throw new Error('connection reset');
      now += 1000;
      params[name] = { value, modified: new Date(now) };
      if (name === 'votePublicKey') versions.push(value);
    },
  };
}
