/**
 * The handler host of the local stack (scripts/sls/handler-host.cjs), without HTTP in front: a pool
 * of threads runs the handlers; each function instance has its own module state and runs one
 * invocation at a time, as a Lambda execution environment does; what handlers answer or throw comes
 * back as the Lambda runtime would give it to serverless-offline (an Error for anything thrown, so it
 * becomes API Gateway's 500); a reload runs later calls in fresh module caches while the calls already
 * running finish on the old ones; a call past its timeout (counted from the handler's start, not
 * its cold start) is a 504 and ends its thread.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

interface Host {
  invoke(file: string, name: string, event: unknown, context: object): Promise<{ statusCode: number; body: string }>;
  reload(): void;
  close(): Promise<void>;
}
const { HandlerHost, poolSize } = createRequire(import.meta.url)('../../../scripts/sls/handler-host.cjs') as {
  HandlerHost: new (options: { env: Record<string, string>; size?: number }) => Host;
  poolSize: (env: Record<string, string | undefined>) => number;
};

const FILE = fileURLToPath(new URL('./fixtures/host-handlers.mjs', import.meta.url));
const context = (ms = 10_000) => ({ awsRequestId: 'test', functionName: 'test', getRemainingTimeInMillis: () => ms });
/** The host of the running test (newHost), closed after it. */
let opened: Host | undefined;
const newHost = (size = 2): Host => (opened = new HandlerHost({ env: { PATH: process.env.PATH ?? '' }, size }));

afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

describe('the handler host', () => {
  // One host for these: each call is independent of the others.
  let shared: Host;
  beforeAll(() => {
    shared = new HandlerHost({ env: { PATH: process.env.PATH ?? '' }, size: 2 });
  });
  afterAll(async () => {
    await shared.close();
  });

  it("answers with the handler's result, returned or passed to the callback", async () => {
    const returned = await shared.invoke(FILE, 'identity', {}, context());
    const called = await shared.invoke(FILE, 'viaCallback', {}, context());
    expect(returned).toEqual({ statusCode: 200, body: expect.stringMatching(/^\d+-/) });
    expect(called).toEqual({ statusCode: 201, body: expect.stringMatching(/^\d+-/) });
  });

  it("gives the handler at least the function's timeout as its remaining time (more on a busy machine)", async () => {
    const { body } = await shared.invoke(FILE, 'remaining', {}, context(2_999));
    expect(Number(body)).toBeGreaterThan(2_900);
  });

  it.each([
    ['throwsTypeError', 'TypeError', 'bad input'],
    ['throwsString', 'Error', 'plain text'],
    ['answersAFunction', 'Error', "The handler's answer could not be sent"],
    ['notExported', 'Error', 'notExported is not a function exported by'],
  ])('rejects with an Error when %s', async (name, errorName, message) => {
    const failed = shared.invoke(FILE, name, {}, context());
    await expect(failed).rejects.toBeInstanceOf(Error);
    await expect(failed).rejects.toMatchObject({ name: errorName, message: expect.stringContaining(message) });
  });

  it('rejects with an Error naming a module that cannot be loaded', async () => {
    await expect(shared.invoke('/nowhere/handler.ts', 'handler', {}, context())).rejects.toThrow(/\/nowhere\/handler\.ts/);
  });
});

describe('instances, as Lambda scales a function out', () => {
  it('gives each function its own module state, kept from one call to the next', async () => {
    const host = newHost(1);
    const first = await host.invoke(FILE, 'identity', {}, context());
    const again = await host.invoke(FILE, 'identity', {}, context());
    const other = await host.invoke(FILE, 'otherFunction', {}, context());
    expect(again.body).toBe(first.body);
    // Another function of the same file, in the same thread: another module instance.
    expect(other.body).not.toBe(first.body);
  });

  it('runs calls that overlap in separate instances, with their own copy of every project module', async () => {
    const host = newHost(2);
    const [a, b] = await Promise.all([host.invoke(FILE, 'sharedModule', {}, context()), host.invoke(FILE, 'sharedModule', {}, context())]);
    // The handler's module and the module it imports are both per instance.
    expect(a.body).not.toBe(b.body);
  });

  it('runs one invocation at a time per instance: past the pool, a call waits for an instance of its function', async () => {
    const host = newHost(2);
    const finished: string[] = [];
    const track = (label: string, call: Promise<{ body: string }>) => call.then((r) => (finished.push(label), r));
    const first = track('first', host.invoke(FILE, 'slow', { ms: 400 }, context()));
    const second = track('second', host.invoke(FILE, 'slow', { ms: 400 }, context()));
    const third = track('third', host.invoke(FILE, 'slow', { ms: 1 }, context()));
    const [a, b, c] = await Promise.all([first, second, third]);
    expect(a.body).not.toBe(b.body);
    // The third waited for one of the two instances (never a third one, never beside a running call).
    expect([a.body, b.body]).toContain(c.body);
    expect(finished.indexOf('third')).toBeGreaterThan(Math.min(finished.indexOf('first'), finished.indexOf('second')));
  });

  it('sizes the pool to the machine unless LOCAL_LAMBDA_WORKERS says otherwise', () => {
    expect(poolSize({})).toBe(Math.min(8, Math.max(2, availableParallelism())));
    expect(poolSize({ LOCAL_LAMBDA_WORKERS: '5' })).toBe(5);
    expect(poolSize({ LOCAL_LAMBDA_WORKERS: 'many' })).toBe(poolSize({}));
  });
});

describe('reloads and timeouts', () => {
  it('runs calls after a reload in a fresh module cache, and answers the call running across it from the old one', async () => {
    const host = newHost();
    const before = await host.invoke(FILE, 'identity', {}, context());
    const running = host.invoke(FILE, 'slow', { ms: 300 }, context());
    host.reload();
    const after = await host.invoke(FILE, 'identity', {}, context());
    expect(after.body).not.toBe(before.body);
    const answered = await running;
    expect(answered.statusCode).toBe(200);
    // The running call finished in the instance it started in: after the reload, that function loads anew.
    expect((await host.invoke(FILE, 'slow', { ms: 0 }, context())).body).not.toBe(answered.body);
  });

  it('ends the thread of a call that runs past its timeout; the next call gets a fresh one', async () => {
    const host = newHost(1);
    const before = await host.invoke(FILE, 'identity', {}, context());
    // `[504]`: what serverless-offline and the API Gateway fidelity layer answer as a 504.
    await expect(host.invoke(FILE, 'hangs', {}, context(50))).rejects.toThrow(/^\[504\].*past its timeout/);
    const after = await host.invoke(FILE, 'identity', {}, context());
    expect(after.body).not.toBe(before.body);
  });

  it('counts the timeout from the handler’s start: a cold start longer than the timeout is no 504', async () => {
    const host = newHost(1);
    const slowLoad = fileURLToPath(new URL('./fixtures/slow-load.mjs', import.meta.url));
    await expect(host.invoke(slowLoad, 'handler', {}, context(100))).resolves.toEqual({ statusCode: 200, body: 'loaded' });
  });
});
