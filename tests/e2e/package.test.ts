/**
 * The deploy artifact stays valid and deploy-ready: `serverless package` runs offline (no AWS
 * credentials), every function of serverless.yml comes out as its own small bundle, and the generated
 * CloudFormation template has least-privilege IAM (the DynamoDB actions lib/store sends, on this table
 * and its indexes only), throttling on the HTTP API stage, JSON logs at LOG_LEVEL, log retention and a
 * protected table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** What these tests read of serverless-state.json and of the CloudFormation template. */
interface State {
  service: { functions: Record<string, { package?: { artifact?: string } }> };
}
interface CfnResource {
  Type: string;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  Properties: Record<string, unknown>;
}
interface IamStatement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}
interface Template {
  Resources: Record<string, CfnResource> & {
    Table: CfnResource & {
      Properties: { DeletionProtectionEnabled: boolean; PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: boolean }; BillingMode: string };
    };
    IamRoleLambdaExecution: CfnResource & { Properties: { Policies: Array<{ PolicyDocument: { Statement: IamStatement[] } }> } };
    HttpApiStage: CfnResource & { Properties: { StageName: string; DefaultRouteSettings: { ThrottlingRateLimit: number; ThrottlingBurstLimit: number } } };
  };
}

let out: string;
let state: State;
let template: Template;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'sls-package-'));
  execFileSync(process.execPath, ['node_modules/serverless/bin/serverless.js', 'package', '--stage', 'prod', '--package', out], {
    cwd: root,
    env: { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: 'none-such', SLS_TELEMETRY_DISABLED: '1', SLS_ESBUILD_WORK_FOLDER: '.esbuild-package', LOG_LEVEL: 'critical' },
    stdio: 'pipe',
    timeout: 240_000,
  });
  state = JSON.parse(readFileSync(join(out, 'serverless-state.json'), 'utf8'));
  template = JSON.parse(readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8'));
}, 250_000);

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

/**
 * The IAM actions the code needs, read from the commands lib/store sends. A transaction is authorised
 * per item, so TransactWrite/TransactGet count as the item actions they carry. lib/store/db/table.ts
 * (table creation for local runs and tests) is no Lambda's business and is left out.
 */
function actionsUsedByTheStore(): Set<string> {
  const dir = join(root, 'lib/store');
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && f !== 'table.ts')
    .map((f) => readFileSync(join(dir, f), 'utf8'));
  const actions = new Set<string>();
  const direct: Record<string, string> = {
    Get: 'GetItem',
    Put: 'PutItem',
    Update: 'UpdateItem',
    Delete: 'DeleteItem',
    Query: 'Query',
    Scan: 'Scan',
    BatchGet: 'BatchGetItem',
    BatchWrite: 'BatchWriteItem',
  };
  for (const source of sources) {
    for (const [, name] of source.matchAll(/new (\w+?)(?:Item)?Command\(/g)) {
      if (name === 'TransactWrite') {
        // The item kinds inside TransactItems: `{ Put: ... }`, `{ Update: ... }`, `{ Delete: ... }`, `{ ConditionCheck: ... }`.
        for (const [, kind] of source.matchAll(/\b(Put|Update|Delete|ConditionCheck):\s*\{/g)) {
          actions.add(kind === 'ConditionCheck' ? 'ConditionCheckItem' : direct[kind!]!);
        }
      } else if (name === 'TransactGet') {
        actions.add('GetItem');
      } else {
        expect(direct[name!], `lib/store sends ${name}Command: map it to its IAM action here`).toBeDefined();
        actions.add(direct[name!]!);
      }
    }
  }
  return new Set([...actions].map((a) => `dynamodb:${a}`));
}

const asList = <T>(v: T | T[]) => (Array.isArray(v) ? v : [v]);
const tableArn = { 'Fn::GetAtt': ['Table', 'Arn'] };
const indexArn = { 'Fn::Join': ['/', [tableArn, 'index', '*']] };

describe('serverless package (prod)', () => {
  it('packages every function as its own bundle, without AWS credentials', () => {
    const functions = Object.entries(state.service.functions);
    expect(functions.length).toBeGreaterThan(5);
    expect(functions.map(([name]) => name)).toEqual(expect.arrayContaining(['openapi', 'docs']));
    for (const [name, fn] of functions) {
      const artifact = fn.package?.artifact;
      expect(artifact, `artifact of ${name}`).toBeTruthy();
      const size = statSync(join(out, artifact!.split('/').pop()!)).size;
      expect(size, `zip of ${name}`).toBeGreaterThan(10_000);
    }
  });

  it('keeps the table: retained, deletion-protected in prod, point-in-time recovery, on demand', () => {
    const table = template.Resources.Table;
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    expect(table.Properties.PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled).toBe(true);
    expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
  });

  it('grants the Lambdas exactly the DynamoDB actions lib/store uses, on this table and its indexes only', () => {
    const statements = template.Resources.IamRoleLambdaExecution.Properties.Policies.flatMap((p) => p.PolicyDocument.Statement);
    const dynamo = statements.filter((s) => asList(s.Action).some((a: string) => a.startsWith('dynamodb:')));
    for (const s of dynamo) {
      expect(s.Effect).toBe('Allow');
      for (const a of asList(s.Action)) expect(a, 'no wildcard actions').not.toContain('*');
    }
    const granted = new Set(dynamo.flatMap((s) => asList(s.Action) as string[]));
    const used = actionsUsedByTheStore();
    expect(used).toContain('dynamodb:ConditionCheckItem');
    expect([...granted].sort()).toEqual([...used].sort());

    // The table gets the item actions; its indexes only Query. Nothing else, no other table.
    const onTable = dynamo.filter((s) => JSON.stringify(asList(s.Resource)) === JSON.stringify([tableArn]));
    const onIndexes = dynamo.filter((s) => JSON.stringify(asList(s.Resource)) === JSON.stringify([indexArn]));
    expect(onTable.length + onIndexes.length).toBe(dynamo.length);
    expect(new Set(onTable.flatMap((s) => asList(s.Action)))).toEqual(used);
    expect(onIndexes.flatMap((s) => asList(s.Action))).toEqual(['dynamodb:Query']);

    // No other service than logs and DynamoDB, and no wildcard resource.
    for (const s of statements) {
      for (const a of asList(s.Action) as string[]) expect(a).toMatch(/^(logs|dynamodb):/);
      for (const r of asList(s.Resource)) expect(r).not.toBe('*');
    }
  });

  it('throttles every route of the HTTP API stage', () => {
    const stage = template.Resources.HttpApiStage;
    expect(stage.Type).toBe('AWS::ApiGatewayV2::Stage');
    expect(stage.Properties.StageName).toBe('$default');
    const settings = stage.Properties.DefaultRouteSettings;
    expect(settings.ThrottlingRateLimit).toBe(500);
    expect(settings.ThrottlingBurstLimit).toBe(1000);
    expect(settings.ThrottlingBurstLimit).toBeGreaterThanOrEqual(settings.ThrottlingRateLimit);
  });

  it('has Lambda write the logs of every function as JSON, filtered at LOG_LEVEL under its Lambda name', () => {
    const functions = Object.values(template.Resources).filter((r) => r.Type === 'AWS::Lambda::Function');
    expect(functions.length).toBe(Object.keys(state.service.functions).length);
    for (const fn of functions) {
      // The package ran with LOG_LEVEL=critical: the code's level as given, Lambda's FATAL for it.
      expect(fn.Properties.LoggingConfig).toEqual({ LogFormat: 'JSON', ApplicationLogLevel: 'FATAL' });
      expect(fn.Properties.Environment).toMatchObject({ Variables: { LOG_LEVEL: 'critical' } });
    }
  });

  it('keeps the logs of every function for 30 days', () => {
    const logGroups = Object.values(template.Resources).filter((r) => r.Type === 'AWS::Logs::LogGroup');
    expect(logGroups.length).toBe(Object.keys(state.service.functions).length);
    for (const group of logGroups) expect(group.Properties.RetentionInDays).toBe(30);
  });
});
