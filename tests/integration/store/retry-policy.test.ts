/**
 * What real DynamoDB does and DynamoDB Local never does, injected into the shared client
 * below the store's one retry policy (lib/store/db/retry.ts), and answered as CONTRACT says: transient
 * refusals are retried with jitter, a lost race after the retries is 409, throttling after the retries
 * is 503 with `Retry-After`; never a 500, never half a write.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dynamo } from '#lib/store/db/client';
import { RETRY_POLICY } from '#lib/store/db/retry';
import { invoke } from '#tests/support/invoke';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { countRequests } from '#tests/support/request-counter';
import { validIdea } from '../ideas/helpers.ts';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';
import { handler as getSite } from '../../../functions/sites/get.ts';
import { handler as createArgument } from '../../../functions/arguments/create.ts';
import type { IdeaRecord } from '#schemas/idea';
import type { ListEnvelope } from '#tests/support/bodies';
import type { SiteRecord } from '#schemas/site';
import type { ArgumentRecordShape } from '#schemas/argument';

const FAULT = 'testInjectedFault';
afterEach(() => {
  dynamo.middlewareStack.remove(FAULT);
});

type Fault = 'conflict' | 'throttle' | 'drop';
const faultError = (fault: Fault, items: number) => {
  if (fault === 'throttle') return Object.assign(new Error('Throughput exceeds the current capacity of your table'), { name: 'ProvisionedThroughputExceededException' });
  if (fault === 'drop') return Object.assign(new Error('socket hang up'), { name: 'Error', code: 'ECONNRESET' });
  return Object.assign(new Error('Transaction cancelled [TransactionConflict]'), {
    name: 'TransactionCanceledException',
    CancellationReasons: Array.from({ length: items }, (_, i) => ({ Code: i === 0 ? 'TransactionConflict' : 'None' })),
  });
};

/** Refuses the next `times` requests of `command` (a regex on the command name) with `fault`; returns how many are left. */
function inject(fault: Fault, command: RegExp, times: number): () => number {
  let left = times;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if (left > 0 && command.test(String((context as { commandName?: string }).commandName))) {
        left--;
        throw faultError(fault, ((args.input as { TransactItems?: unknown[] }).TransactItems ?? []).length);
      }
      return next(args);
    },
    { step: 'initialize', name: FAULT, priority: 'low' },
  );
  return () => left;
}

const postIdea = (siteId: number, token: string) => invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId }, body: validIdea(), token });

describe('the store retry policy, against the failures of the real service', () => {
  it.each([['conflict'], ['throttle'], ['drop']] as const)('idea create through a %s twice: 201 once, as if nothing happened', async (fault) => {
    const site = await createSite();
    const member = await createUser(site.id);
    const left = inject(fault, /TransactWrite/, 2);
    const res = await postIdea(site.id, member.token);
    expect(res.status).toBe(201);
    expect(left()).toBe(0);
    const list = await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id } });
    expect(list.body.records ?? list.body).toHaveLength(1);
  });

  it('a transaction conflict that outlasts the retries: 409 asking to retry, nothing written', async () => {
    const site = await createSite();
    const member = await createUser(site.id);
    const left = inject('conflict', /TransactWrite/, 1_000);
    const res = await postIdea(site.id, member.token);
    expect(left()).toBe(1_000 - RETRY_POLICY.maxAttempts);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 409, error: 'Conflict', message: expect.stringMatching(/retry/) });
    dynamo.middlewareStack.remove(FAULT);
    const list = await invoke<ListEnvelope<IdeaRecord>>(listIdeas, { params: { siteId: site.id } });
    expect(list.body.records ?? list.body).toHaveLength(0);
  });

  it('throttling that outlasts the retries: 503 with Retry-After (CONTRACT), on reads and writes', async () => {
    const site = await createSite();
    const member = await createUser(site.id);
    const idea = await postIdea(site.id, member.token);
    inject('throttle', /./, 1_000);
    const read = await invoke<SiteRecord>(getSite, { params: { siteId: site.id }, token: SERVICE_TOKEN });
    expect(read.status).toBe(503);
    expect(read.body).toEqual({ status: 503, error: 'ServiceUnavailable', message: expect.any(String) });
    expect(read.headers['retry-after'] ?? read.headers['Retry-After']).toBe(String(RETRY_POLICY.retryAfterSeconds));
    const write = await invoke<ArgumentRecordShape>(createArgument, {
      method: 'POST',
      params: { siteId: site.id, ideaId: idea.body.id },
      body: { description: 'An argument long enough to pass the minimum length rule.' },
      token: member.token,
    });
    expect(write.status).toBe(503);
    expect(JSON.stringify(write.body)).not.toMatch(/Throughput|Exception|at .*\.ts/);
  });

  it('retries are invisible to the request count: one logical request each', async () => {
    const site = await createSite();
    inject('throttle', /GetItem/, 2);
    const { result, requests } = await countRequests(() => invoke<SiteRecord>(getSite, { params: { siteId: site.id } }));
    expect(result.status).toBe(200);
    expect(requests).toBe(1);
  });
});
