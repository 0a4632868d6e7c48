/**
 * A small SSM Parameter Store endpoint on 127.0.0.1 (the AWS JSON 1.1 protocol, as the SDK speaks it:
 * GetParameter, GetParameters, GetParameterHistory, PutParameter, with Parameter Store's limits: a
 * Standard-tier value of at most 4,096 characters, the last 100 versions kept), so the secret-store code path (Powertools Parameters,
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
  Tier: 'Standard' | 'Advanced';
}

/** What Parameter Store keeps of a parameter's versions: the last 100. */
const HISTORY_VERSIONS = 100;
/** The largest value of a Standard-tier parameter (characters); Advanced holds 8 KB. */
const STANDARD_MAX_VALUE = 4096;
const ADVANCED_MAX_VALUE = 8192;

export interface SsmEndpoint {
  url: string;
  parameters: Map<string, Parameter>;
  /** Every version of each parameter the store keeps (the last 100), oldest first. */
  history: Map<string, Parameter[]>;
  /** Requests by operation (`GetParameters`: 3). */
  calls: Map<string, number>;
  set(name: string, value: string): void;
  /** How far the store's clock (its `Date` and every LastModifiedDate) is ahead of this machine's. */
  clockOffsetMs: number;
  /** How many more PutParameter calls are served before every later one is refused (undefined: all are served). */
  putsBeforeRefusing: number | undefined;
  /** Called as a PutParameter arrives, before it is applied (another writer's write landing just before it). */
  beforePut: ((name: string) => void) | undefined;
  close(): Promise<void>;
}

const view = (p: Parameter) => ({ ...p, ARN: `arn:aws:ssm:eu-west-1:000000000000:parameter${p.Name}`, DataType: 'text' });

export async function startSsmEndpoint(): Promise<SsmEndpoint> {
  const parameters = new Map<string, Parameter>();
  const history = new Map<string, Parameter[]>();
  const calls = new Map<string, number>();
  let clockOffset = 0;
  let putsLeft: number | undefined;
  const set = (name: string, value: string, type = 'SecureString', tier?: Parameter['Tier']) => {
    const before = parameters.get(name);
    const version = (before?.Version ?? 0) + 1;
    // Parameter Store never moves a parameter back from Advanced to Standard.
    const parameter: Parameter = { Name: name, Type: type, Value: value, Version: version, LastModifiedDate: (Date.now() + clockOffset) / 1000, Tier: before?.Tier === 'Advanced' ? 'Advanced' : (tier ?? 'Standard') };
    parameters.set(name, parameter);
    history.set(name, [...(history.get(name) ?? []), parameter].slice(-HISTORY_VERSIONS));
    return parameter;
  };
  /** The tier a PutParameter lands in (Intelligent-Tiering: Standard while the value fits), or the refusal. */
  const tierOf = (name: string, value: string, asked: unknown): Parameter['Tier'] | { refused: string } => {
    const advanced = asked === 'Advanced' || parameters.get(name)?.Tier === 'Advanced' || (asked === 'Intelligent-Tiering' && value.length > STANDARD_MAX_VALUE);
    const max = advanced ? ADVANCED_MAX_VALUE : STANDARD_MAX_VALUE;
    if (value.length > max) return { refused: `Standard tier parameters support a maximum parameter value of ${STANDARD_MAX_VALUE} characters; Advanced ${ADVANCED_MAX_VALUE}` };
    return advanced ? 'Advanced' : 'Standard';
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
      if (operation === 'GetParameterHistory') {
        const versions = history.get(input.Name as string);
        if (!versions) return answer(400, { __type: 'ParameterNotFound', message: `${String(input.Name)} not found` });
        const from = Number(input.NextToken ?? 0);
        const size = Number(input.MaxResults ?? 50);
        const page = versions.slice(from, from + size);
        return answer(200, { Parameters: page.map(view), ...(from + size < versions.length ? { NextToken: String(from + size) } : {}) });
      }
      if (operation === 'PutParameter') {
        const name = input.Name as string;
        if (putsLeft !== undefined && putsLeft-- <= 0) return answer(400, { __type: 'AccessDeniedException', message: `writing ${name} is refused here` });
        if (parameters.has(name) && !input.Overwrite) return answer(400, { __type: 'ParameterAlreadyExists', message: `${name} exists` });
        endpoint.beforePut?.(name);
        const tier = tierOf(name, input.Value as string, input.Tier);
        if (typeof tier === 'object') return answer(400, { __type: 'ValidationException', message: tier.refused });
        const stored = set(name, input.Value as string, input.Type as string, tier);
        return answer(200, { Version: stored.Version, Tier: stored.Tier });
      }
      return answer(400, { __type: 'InvalidAction', message: `not served here: ${operation}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint: SsmEndpoint = {
    url: `http://127.0.0.1:${port}`,
    beforePut: undefined,
    parameters,
    history,
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
  return endpoint;
}

/** The environment that points an AWS SDK process at the endpoint, with throwaway credentials. */
export const ssmEnvironment = (endpoint: SsmEndpoint): Record<string, string> => ({
  AWS_ENDPOINT_URL_SSM: endpoint.url,
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
  AWS_REGION: 'eu-west-1',
  AWS_PROFILE: '',
});
