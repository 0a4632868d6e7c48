/**
 * The handler host of the local stack (scripts/sls/handler-host.cjs), without HTTP in front: one
 * thread runs the handlers; what they answer or throw comes back as the Lambda runtime would give it
 * to serverless-offline (an Error for anything thrown, so it becomes API Gateway's 500); a reload
 * runs later calls in a fresh module cache while the calls already running finish on the old one;
 * a call past its timeout ends its thread.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

interface Host {
  invoke(file: string, name: string, event: unknown, context: object): Promise<{ statusCode: number; body: string }>;
  reload(): void;
  close(): Promise<void>;
}
const { HandlerHost } = createRequire(import.meta.url)('../../scripts/sls/handler-host.cjs') as { HandlerHost: new (options: { env: Record<string, string> }) => Host };

const FILE = fileURLToPath(new URL('./fixtures/host-handlers.mjs', import.meta.url));
const context = (ms = 10_000) => ({ awsRequestId: 'test', functionName: 'test', getRemainingTimeInMillis: () => ms });
let host: Host;
const newHost = () => (host = new HandlerHost({ env: { PATH: process.env.PATH ?? '' } }));

afterEach(async () => {
  await host?.close();
});

describe('the handler host', () => {
  it("answers with the handler's result, returned or passed to the callback", async () => {
    newHost();
    const returned = await host.invoke(FILE, 'identity', {}, context());
    const called = await host.invoke(FILE, 'viaCallback', {}, context());
    expect(returned.statusCode).toBe(200);
    expect(called).toEqual({ statusCode: 201, body: returned.body });
  });

  it("gives the handler the function's timeout as its remaining time", async () => {
    newHost();
    const { body } = await host.invoke(FILE, 'remaining', {}, context(2_999));
    expect(Number(body)).toBeGreaterThan(0);
    expect(Number(body)).toBeLessThanOrEqual(3_000);
  });

  it.each([
    ['throwsTypeError', 'TypeError', 'bad input'],
    ['throwsString', 'Error', 'plain text'],
    ['answersAFunction', 'Error', "The handler's answer could not be sent"],
    ['notExported', 'Error', 'notExported is not a function exported by'],
  ])('rejects with an Error when %s', async (name, errorName, message) => {
    newHost();
    const failed = host.invoke(FILE, name, {}, context());
    await expect(failed).rejects.toBeInstanceOf(Error);
    await expect(failed).rejects.toMatchObject({ name: errorName, message: expect.stringContaining(message) });
  });

  it('rejects with an Error naming a module that cannot be loaded', async () => {
    newHost();
    await expect(host.invoke('/nowhere/handler.ts', 'handler', {}, context())).rejects.toThrow(/\/nowhere\/handler\.ts/);
  });

  it('runs calls after a reload in a fresh module cache, and answers the call running across it from the old one', async () => {
    newHost();
    const before = await host.invoke(FILE, 'identity', {}, context());
    const running = host.invoke(FILE, 'slow', { ms: 300 }, context());
    host.reload();
    const after = await host.invoke(FILE, 'identity', {}, context());
    expect(after.body).not.toBe(before.body);
    expect((await running).body).toBe(before.body);
  });

  it('ends the thread of a call that runs past its timeout; the next call gets a fresh one', async () => {
    newHost();
    const before = await host.invoke(FILE, 'identity', {}, context());
    await expect(host.invoke(FILE, 'hangs', {}, context(50))).rejects.toThrow(/past its timeout/);
    const after = await host.invoke(FILE, 'identity', {}, context());
    expect(after.body).not.toBe(before.body);
  });
});
