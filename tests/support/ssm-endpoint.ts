/**
 * A small SSM Parameter Store endpoint on 127.0.0.1 (the AWS JSON 1.1 protocol, as the SDK speaks it:
 * GetParameter, GetParameters, PutParameter), so the secret-store code path (Powertools Parameters,
 * scripts/secrets.ts, the deploy guard) runs in the tests with no AWS account. It keeps a clock of
 * its own (a store whose time is not the machine's) and can refuse writes from some point on (a run
 * that stops between two writes). Point a process at it with AWS_ENDPOINT_URL_SSM and any credentials. Values are kept as given (SecureString is stored in
 * the clear here; decryption is AWS's business).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Parameter {
  Name: string;
  Type: string;
  Value: string;
  Version: number;
  LastModifiedDate: number;
}

export interface SsmEndpoint {
  url: string;
  parameters: Map<string, Parameter>;
  /** Requests by operation (`GetParameters`: 3). */
  calls: Map<string, number>;
  set(name: string, value: string): void;
  /** How far the store's clock (its `Date` and every LastModifiedDate) is ahead of this machine's. */
  clockOffsetMs: number;
  /** How many more PutParameter calls are served before every later one is refused (undefined: all are served). */
  putsBeforeRefusing: number | undefined;
  close(): Promise<void>;
}

const view = (p: Parameter) => ({ ...p, ARN: `arn:aws:ssm:eu-west-1:000000000000:parameter${p.Name}`, DataType: 'text' });

export async function startSsmEndpoint(): Promise<SsmEndpoint> {
  const parameters = new Map<string, Parameter>();
  const calls = new Map<string, number>();
  let clockOffset = 0;
  let putsLeft: number | undefined;
  const set = (name: string, value: string, type = 'SecureString') => {
    const version = (parameters.get(name)?.Version ?? 0) + 1;
    parameters.set(name, { Name: name, Type: type, Value: value, Version: version, LastModifiedDate: (Date.now() + clockOffset) / 1000 });
    return version;
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target'] ?? '').replace('AmazonSSM.', '');
      calls.set(operation, (calls.get(operation) ?? 0) + 1);
      const input = (body ? JSON.parse(body) : {}) as Record<string, unknown>;
      const answer = (status: number, out: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', date: new Date(Date.now() + clockOffset).toUTCString() });
        res.end(JSON.stringify(out));
      };
      if (operation === 'GetParameters') {
        const names = input.Names as string[];
        return answer(200, {
          Parameters: names.filter((n) => parameters.has(n)).map((n) => view(parameters.get(n)!)),
          InvalidParameters: names.filter((n) => !parameters.has(n)),
        });
      }
      if (operation === 'GetParameter') {
        const found = parameters.get(input.Name as string);
        return found ? answer(200, { Parameter: view(found) }) : answer(400, { __type: 'ParameterNotFound', message: `${String(input.Name)} not found` });
      }
      if (operation === 'PutParameter') {
        const name = input.Name as string;
        if (putsLeft !== undefined && putsLeft-- <= 0) return answer(400, { __type: 'AccessDeniedException', message: `writing ${name} is refused here` });
        if (parameters.has(name) && !input.Overwrite) return answer(400, { __type: 'ParameterAlreadyExists', message: `${name} exists` });
        return answer(200, { Version: set(name, input.Value as string, input.Type as string), Tier: 'Standard' });
      }
      return answer(400, { __type: 'InvalidAction', message: `not served here: ${operation}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    parameters,
    calls,
    set: (name, value) => void set(name, value),
    get clockOffsetMs() {
      return clockOffset;
    },
    set clockOffsetMs(ms: number) {
      clockOffset = ms;
    },
    get putsBeforeRefusing() {
      return putsLeft;
    },
    set putsBeforeRefusing(n: number | undefined) {
      putsLeft = n;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The environment that points an AWS SDK process at the endpoint, with throwaway credentials. */
export const ssmEnvironment = (endpoint: SsmEndpoint): Record<string, string> => ({
  AWS_ENDPOINT_URL_SSM: endpoint.url,
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_REGION: 'eu-west-1',
  AWS_PROFILE: '',
});
