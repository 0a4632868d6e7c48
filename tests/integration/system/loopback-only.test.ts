/**
 * The local stack's helpers are reachable from this machine only. DynamoDB Local (started by
 * the global setup through scripts/dynamo-local.ts and its LoopbackLauncher) and the local OAuth 2.0
 * server must refuse a connection on any non-loopback address of the machine, while answering on
 * 127.0.0.1. Written as the attack: another host on the network trying the ports.
 */
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type RunningAuthServer } from '../../../scripts/auth-server/index.ts';
import { DEMO_CLIENT, DEMO_USERS } from '../../../scripts/auth-server/demo.ts';

/** The machine's own non-loopback IPv4 addresses (what a neighbour on the network would dial). */
const outsideAddresses = Object.values(networkInterfaces())
  .flat()
  .filter((a) => a !== undefined && a.family === 'IPv4' && !a.internal)
  .map((a) => a!.address);

/** 'open' when a TCP connection is accepted, 'refused' when not (any connect error or a 2 s silence). */
function probe(host: string, port: number): Promise<'open' | 'refused'> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (outcome: 'open' | 'refused') => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(2_000, () => done('refused'));
    socket.once('connect', () => done('open'));
    socket.once('error', () => done('refused'));
  });
}

const dynamoPort = () => Number(new URL(process.env.DYNAMODB_ENDPOINT!).port);

describe.skipIf(outsideAddresses.length === 0)('local helpers listen on 127.0.0.1 only (machine addresses: %s)', () => {
  let auth: RunningAuthServer;
  beforeAll(async () => {
    auth = await startAuthServer({ port: 0, clients: [DEMO_CLIENT], users: DEMO_USERS });
  });
  afterAll(async () => auth?.stop());

  it('DynamoDB Local answers on 127.0.0.1 and refuses every other address of the machine', async () => {
    expect(await probe('127.0.0.1', dynamoPort())).toBe('open');
    for (const address of outsideAddresses) expect(await probe(address, dynamoPort()), address).toBe('refused');
  });

  it('the local OAuth 2.0 server answers on 127.0.0.1 and refuses every other address of the machine', async () => {
    const port = Number(new URL(auth.url).port);
    expect(await probe('127.0.0.1', port)).toBe('open');
    for (const address of outsideAddresses) expect(await probe(address, port), address).toBe('refused');
  });
});

if (outsideAddresses.length === 0) {
  it.skip('no non-loopback IPv4 address on this machine: nothing to attack from outside', () => {});
}
