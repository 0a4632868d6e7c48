/**
 * The deploy artifact of a deployable stage (prod), as CloudFormation would get it: `serverless
 * package` runs offline (no AWS credentials), and the compiled template is held to what an operator
 * signs off (docs/deploy.md, docs/operations.md): no secret value anywhere in the output, every
 * function on the role of its access class and nothing more, tracing, access logs, alarms to the
 * alarm topic over every function and index, the jobs' dead-letter queue, a protected and backed-up
 * table, tags, per-route throttles, gradual deployment of the write routes, and every stack (the root
 * and one nested stack per function group, scripts/sls/nested-stacks.cjs) with headroom under
 * CloudFormation's 500 resources. The assertions read the stacks as one template: a nested resource's
 * parameter is replaced by what the root passes it, so they hold through the wiring between stacks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOk } from '#tests/support/run-process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACCESS_CLASSES, roleLogicalId, type AccessClass } from '#lib/config/access-classes';
import { OPENSTAD_FUNCTION } from '#lib/openstad/function';
import { SECRETS, type SecretName } from '#lib/config/secret-values';
import { jobAccessClass } from '#lib/jobs/lambda';
import { JOB_NAMES } from '#schemas/job';
import { ROUTES } from '#lib/openapi/routes';
import { catchAll } from '#lib/routes/system/catch-all';
import { CHECKPOINT_LAG_LIMIT_SECONDS } from '#lib/vote-record/schedule';
import definition from '../../lib/store/table-definition.json' with { type: 'json' };

const root = fileURLToPath(new URL('../..', import.meta.url));
/** What an operator may still have in the shell from before the secret store: it must go nowhere. */
const LEAKY = { JWT_SECRET: 'leaky-jwt-secret-never-deployed-0123456789abcdef', API_SERVICE_TOKENS: 'leaky-service-token-never-deployed-0123456789' };
/** CloudFormation's limits per stack, and the share of them any one stack may use. */
const CFN_LIMITS = { Resources: 500, Parameters: 200, Outputs: 200 };
const HEADROOM = 0.92;

interface State {
  service: { functions: Record<string, { package?: { artifact?: string } }>; provider: { stackTags: Record<string, string> } };
}
interface CfnResource {
  Type: string;
  Condition?: string;
  DependsOn?: string | string[];
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  Properties: Record<string, unknown> & { [k: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}
interface IamStatement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}
interface Template {
  Resources: Record<string, CfnResource>;
  Parameters?: Record<string, unknown>;
  Outputs?: Record<string, { Value: unknown }>;
  Conditions?: Record<string, unknown>;
}
interface NestedStack {
  id: string;
  file: string;
  template: Template;
  parameters: Record<string, unknown>;
}

const NESTED_FILE = /^cloudformation-template-nested-[a-z0-9-]+\.json$/;
let out: string;
let state: State;
let template: Template;
let nested: NestedStack[];
/** Every resource of the root and the nested stacks, nested parameters replaced by the root's values. */
let resources: Record<string, CfnResource>;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'sls-package-'));
  await runOk(process.execPath, ['node_modules/serverless/bin/serverless.js', 'package', '--stage', 'prod', '--package', out], {
    cwd: root,
    env: { ...process.env, ...LEAKY, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: 'none-such', SLS_TELEMETRY_DISABLED: '1', SLS_ESBUILD_WORK_FOLDER: '.esbuild-package', LOG_LEVEL: 'critical' },
  });
  state = JSON.parse(readFileSync(join(out, 'serverless-state.json'), 'utf8'));
  template = JSON.parse(readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8'));
  nested = Object.entries(template.Resources)
    .filter(([, r]) => r.Type === 'AWS::CloudFormation::Stack')
    .map(([id, r]) => {
      const file = JSON.stringify(r.Properties.TemplateURL).match(/\/([\w-]+\.json)"/)![1]!;
      return { id, file, template: JSON.parse(readFileSync(join(out, file), 'utf8')) as Template, parameters: r.Properties.Parameters as Record<string, unknown> };
    });
  resources = { ...template.Resources };
  for (const stack of nested) {
    for (const [id, resource] of Object.entries(stack.template.Resources)) {
      expect(resources[id], `${id} in one stack only`).toBeUndefined();
      resources[id] = withParameters(resource, stack.parameters);
    }
  }
});

/** A nested stack's value with each `Ref` to one of its parameters replaced by what the root passes. */
function withParameters<T>(value: T, parameters: Record<string, unknown>): T {
  return JSON.parse(JSON.stringify(value), (_, v: unknown) => {
    const ref = v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 ? (v as { Ref?: unknown }).Ref : undefined;
    return typeof ref === 'string' && ref in parameters ? parameters[ref] : v;
  }) as T;
}

/** The logical ids a value names through Ref, Fn::GetAtt and Fn::Sub, and the conditions it uses. */
function namesIn(value: unknown, names = { ids: new Set<string>(), conditions: new Set<string>() }) {
  if (Array.isArray(value)) for (const v of value) namesIn(v, names);
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'Ref') names.ids.add(v as string);
      else if (key === 'Fn::GetAtt') names.ids.add(typeof v === 'string' ? v.split('.')[0]! : (v as string[])[0]!);
      else if (key === 'Fn::Sub') {
        const [text, vars = {}] = Array.isArray(v) ? (v as [string, Record<string, unknown>]) : [v as string, {}];
        for (const [, name] of text.matchAll(/\$\{([^!}][^}]*)\}/g)) if (!(name! in vars)) names.ids.add(name!.split('.')[0]!);
        namesIn(vars, names);
      } else if (key === 'Fn::If') {
        names.conditions.add((v as string[])[0]!);
        namesIn((v as unknown[]).slice(1), names);
      } else if (key === 'Condition' && typeof v === 'string') names.conditions.add(v);
      else namesIn(v, names);
    }
  }
  return names;
}

afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

const asList = <T>(v: T | T[]) => (Array.isArray(v) ? v : [v]);
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const functions = () => ofType('AWS::Lambda::Function');
const isJob = (logicalId: string) => logicalId.startsWith('Job');
/** The logical id osls gives a function (`voteCast` -> `VoteCastLambdaFunction`). */
const lambdaId = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}LambdaFunction`;

/** Each function's declared access class: its route's `dataAccess`, the job's (lib/jobs/lambda.ts) for the jobs, the catch-all's own. */
function declaredClasses(): Map<string, AccessClass> {
  const classes = new Map<string, AccessClass>();
  for (const route of ROUTES) classes.set(lambdaId(route.functionName ?? route.operationId), route.dataAccess);
  classes.set(lambdaId(catchAll.functionName), catchAll.dataAccess);
  classes.set(lambdaId(OPENSTAD_FUNCTION.name), OPENSTAD_FUNCTION.dataAccess);
  for (const job of JOB_NAMES) classes.set(lambdaId(`job${job.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase())}`), jobAccessClass(job));
  return classes;
}

/**
 * The IAM actions the code needs, read from the commands lib/store sends. A transaction is authorised
 * per item, so TransactWrite/TransactGet count as the item actions they carry. lib/store/db/table.ts
 * (table creation for local runs and tests) is no Lambda's business and is left out.
 */
function actionsUsedByTheStore(): Set<string> {
  const dir = join(root, 'lib/store');
  // Every file of the entity folders and of db/ (the mechanism layer): one transact mechanism
  // (db/transact.ts) sends the items the entity files build, so the store is read as one text.
  const source = (readdirSync(dir, { recursive: true }) as string[])
    // lib/store/secrets sends the one SSM request, GetParameters: its grant is checked per class above.
    .filter((f) => f.endsWith('.ts') && f !== join('db', 'table.ts') && !f.startsWith(`secrets${sep}`))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  const actions = new Set<string>();
  const direct: Record<string, string> = { Get: 'GetItem', Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', Query: 'Query', Scan: 'Scan', BatchGet: 'BatchGetItem', BatchWrite: 'BatchWriteItem' };
  for (const [, name] of source.matchAll(/new (\w+?)(?:Item)?Command\(/g)) {
    if (name === 'TransactWrite') {
      for (const [, kind] of source.matchAll(/\b(Put|Update|Delete|ConditionCheck):\s*\{/g)) actions.add(kind === 'ConditionCheck' ? 'ConditionCheckItem' : direct[kind!]!);
    } else if (name === 'TransactGet') {
      actions.add('GetItem');
    } else {
      expect(direct[name!], `lib/store sends ${name}Command: map it to its IAM action here`).toBeDefined();
      actions.add(direct[name!]!);
    }
  }
  return actions;
}

function statementsOf(roleId: string): IamStatement[] {
  const role = resources[roleId];
  expect(role, roleId).toBeDefined();
  return (role!.Properties.Policies as Array<{ PolicyDocument: { Statement: unknown[] } }>)
    .flatMap((p) => p.PolicyDocument.Statement)
    .map((s) => ((s as { 'Fn::If'?: [string, IamStatement, unknown] })['Fn::If'] ? (s as { 'Fn::If': [string, IamStatement, unknown] })['Fn::If'][1] : (s as IamStatement)));
}

describe('serverless package (prod)', () => {
  it('packages every function as its own bundle, without AWS credentials', () => {
    const fns = Object.entries(state.service.functions);
    expect(fns.length).toBeGreaterThan(5);
    for (const [name, fn] of fns) {
      const artifact = fn.package?.artifact;
      expect(artifact, `artifact of ${name}`).toBeTruthy();
      expect(statSync(join(out, artifact!.split('/').pop()!)).size, `zip of ${name}`).toBeGreaterThan(10_000);
    }
  });

  it("carries the docs page's Swagger UI files in the docs function only, which reads them where it runs", async () => {
    for (const [name, fn] of Object.entries(state.service.functions)) {
      const listing = (await runOk('unzip', ['-l', join(out, fn.package!.artifact!.split('/').pop()!)])).stdout;
      const carries = ['swagger-ui-bundle.js', 'swagger-ui.css', 'package.json'].map((file) => listing.includes(`node_modules/swagger-ui-dist/${file}`));
      expect(carries, name).toEqual(name === 'docs' ? [true, true, true] : [false, false, false]);
    }
  });

  it('holds no secret value anywhere: template, state, or any file inside any artifact', async () => {
    const files = readdirSync(out);
    for (const file of files) {
      // (The values are ASCII: a text decoding of the unzipped bytes keeps them whole.)
      const text = file.endsWith('.zip') ? (await runOk('unzip', ['-p', join(out, file)])).stdout : readFileSync(join(out, file), 'latin1');
      for (const value of Object.values(LEAKY)) expect(text.includes(value), `${value} in ${file}`).toBe(false);
    }
    for (const [id, fn] of functions()) {
      const variables = Object.keys((fn.Properties.Environment as { Variables: Record<string, string> }).Variables);
      expect(variables, id).not.toContain('JWT_SECRET');
      expect(variables, id).not.toContain('API_SERVICE_TOKENS');
      expect((fn.Properties.Environment as { Variables: Record<string, string> }).Variables.SECRETS_PATH).toBe('/participation-api/prod/');
    }
  });

  it("puts every function on its access class's role, which holds that class's actions and nothing else", () => {
    const classes = declaredClasses();
    expect(classes.size).toBe(functions().length);
    const tableArn = JSON.stringify({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':dynamodb:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':table/participation-api-prod']] });
    for (const [id, fn] of functions()) {
      const accessClass = classes.get(id);
      expect(accessClass, `${id} has a declared access class`).toBeDefined();
      expect(fn.Properties.Role, id).toEqual({ 'Fn::GetAtt': [roleLogicalId(accessClass!), 'Arn'] });
    }
    expect(ofType('AWS::IAM::Role').map(([id]) => id).filter((id) => id.startsWith('AccessRole')).sort()).toEqual(Object.keys(ACCESS_CLASSES).map((c) => roleLogicalId(c as AccessClass)).sort());
    expect(resources.IamRoleLambdaExecution, 'no provider-wide role').toBeUndefined();

    for (const [name, grant] of Object.entries(ACCESS_CLASSES)) {
      const statements = statementsOf(roleLogicalId(name as AccessClass));
      const actions = statements.flatMap((s) => asList(s.Action) as string[]);
      for (const s of statements) {
        expect(s.Effect).toBe('Allow');
        for (const a of asList(s.Action) as string[]) {
          expect(a, 'no wildcard actions').not.toContain('*');
          expect(a).toMatch(/^(logs|xray|dynamodb|ssm|kms|sqs):/);
        }
        // X-Ray's actions take no resource; everything else names its resource.
        if (asList(s.Resource).includes('*')) expect(asList(s.Action).every((a) => String(a).startsWith('xray:')), JSON.stringify(s)).toBe(true);
      }
      const onTable = statements.filter((s) => JSON.stringify(s.Resource) === tableArn).flatMap((s) => asList(s.Action));
      expect(onTable.sort(), name).toEqual(grant.table.map((a) => `dynamodb:${a}`).sort());
      expect(actions.filter((a) => a.startsWith('dynamodb:')).sort(), `${name}: DynamoDB only on the table and (Query) its indexes`).toEqual(
        [...grant.table.map((a) => `dynamodb:${a}`), ...((grant.table as readonly string[]).includes('Query') ? ['dynamodb:Query'] : [])].sort(),
      );
      expect(actions.includes('ssm:GetParameters'), `${name} reads secrets`).toBe(grant.secrets.length > 0);
      expect(actions.includes('sqs:SendMessage'), `${name} sends dead letters`).toBe(grant.deadLetters);
      if (grant.secrets.length) {
        // Exactly the class's parameters, each by name: no wildcard under the stage's path.
        const ssm = statements.find((s) => asList(s.Action).includes('ssm:GetParameters'))!;
        const parameters = asList(ssm.Resource).map((r) => JSON.stringify(r).match(/:parameter\/participation-api\/prod\/([a-z-]+)"/)?.[1]);
        expect(parameters.sort(), name).toEqual((grant.secrets as readonly SecretName[]).map((secret) => SECRETS[secret].parameter).sort());
      }
    }
    // The secret store's one request is the GetParameters the reading classes are granted.
    expect(readFileSync(join(root, 'lib/store/secrets/parameter-provider.ts'), 'utf8')).toMatch(/new GetParametersCommand\(/);
    // The store's actions are exactly what the widest class grants: no action unused, none missing.
    expect([...actionsUsedByTheStore()].sort()).toEqual([...ACCESS_CLASSES.write.table].sort());
  });

  it('traces every function (X-Ray active)', () => {
    for (const [id, fn] of functions()) expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
  });

  it('has Lambda write the logs of every function as JSON, filtered at LOG_LEVEL under its Lambda name, kept 30 days', () => {
    for (const [, fn] of functions()) {
      expect(fn.Properties.LoggingConfig).toEqual({ LogFormat: 'JSON', ApplicationLogLevel: 'FATAL' });
      expect(fn.Properties.Environment).toMatchObject({ Variables: { LOG_LEVEL: 'critical' } });
    }
    const groups = ofType('AWS::Logs::LogGroup');
    expect(groups.length).toBe(functions().length + 1);
    for (const [, group] of groups) expect(group.Properties.RetentionInDays).toBe(30);
  });

  it('writes HTTP API access logs as JSON to a log group with retention', () => {
    const settings = resources.HttpApiStage!.Properties.AccessLogSettings as { DestinationArn: unknown; Format: string };
    expect(settings).toBeDefined();
    const line = JSON.parse(settings.Format.replace(/\$context\.[\w.]+/g, 'x'));
    expect(Object.keys(line)).toEqual(expect.arrayContaining(['requestId', 'ip', 'routeKey', 'status', 'latency']));
    const [groupId] = (settings.DestinationArn as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
    expect(resources[groupId]!.Properties.RetentionInDays).toBe(30);
  });

  it('alarms to the alarm topic on the API, every function, the table and each index, the jobs, and the budget', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm');
    for (const [id, alarm] of alarms) expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: 'AlarmTopic' }]);
    const ids = alarms.map(([id]) => id);
    expect(ids).toEqual(expect.arrayContaining(['Api5xxAlarm', 'ApiLatencyAlarm', 'JobUnitFailedAlarm', 'JobsDeadLetterAlarm', 'TableThrottleAlarm', 'TableSystemErrorsAlarm']));
    for (const index of definition.GlobalSecondaryIndexes) expect(ids, index.IndexName).toContain(`Table${index.IndexName}ThrottleAlarm`);

    // Every function is in exactly one errors alarm and one throttles alarm.
    const names = functions().map(([, fn]) => fn.Properties.FunctionName as string).sort();
    for (const metric of ['Errors', 'Throttles']) {
      const covered = alarms
        .filter(([id]) => id.startsWith(`Lambda${metric}Alarm`))
        .flatMap(([, a]) => (a.Properties.Metrics as Array<{ MetricStat?: { Metric: { MetricName: string; Dimensions: Array<{ Value: string }> } } }>).filter((m) => m.MetricStat).map((m) => m.MetricStat!.Metric.Dimensions[0]!.Value));
      expect(covered.sort(), metric).toEqual(names);
    }
    expect(resources.JobUnitFailedAlarm!.Properties).toMatchObject({ Namespace: 'ParticipationApi', MetricName: 'JobUnitsFailed', Dimensions: [{ Name: 'service', Value: 'participation-api-prod' }] });
    // The vote record's checkpoints behind schedule, or the checkpoint job not running at all (missing data breaches).
    expect(resources.VoteCheckpointLagAlarm!.Properties).toMatchObject({
      Namespace: 'ParticipationApi',
      MetricName: 'VoteCheckpointLagSeconds',
      Dimensions: [{ Name: 'service', Value: 'participation-api-prod' }],
      Statistic: 'Maximum',
      Threshold: CHECKPOINT_LAG_LIMIT_SECONDS,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'breaching',
      AlarmActions: [{ Ref: 'AlarmTopic' }],
    });

    const budget = resources.CostBudget!.Properties as { NotificationsWithSubscribers: Array<{ Subscribers: unknown[] }> };
    for (const n of budget.NotificationsWithSubscribers) expect(n.Subscribers).toEqual([{ SubscriptionType: 'SNS', Address: { Ref: 'AlarmTopic' } }]);
    expect(resources.AlarmEmailSubscription).toMatchObject({ Condition: 'HasAlarmEmail', Properties: { TopicArn: { Ref: 'AlarmTopic' }, Protocol: 'email' } });
    expect(ofType('AWS::CloudWatch::Dashboard')).toHaveLength(1);
  });

  it('sends a failed job run, after two retries, to the dead-letter queue', () => {
    const jobs = functions().filter(([id]) => isJob(id));
    expect(jobs.length).toBe(6);
    const configs = ofType('AWS::Lambda::EventInvokeConfig').map(([, c]) => c.Properties);
    for (const [id] of jobs) {
      const config = configs.find((c) => JSON.stringify(c.FunctionName).includes(id));
      expect(config, id).toMatchObject({ MaximumRetryAttempts: 2, DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': ['JobsDeadLetterQueue', 'Arn'] } } } });
    }
    // An event the schedule could not deliver to its job lands in the same queue, which only those rules may write to.
    const rules = ofType('AWS::Events::Rule');
    expect(rules.length).toBe(jobs.length);
    for (const [id, rule] of rules) {
      for (const target of rule.Properties.Targets as unknown[]) expect(target, id).toMatchObject({ DeadLetterConfig: { Arn: { 'Fn::GetAtt': ['JobsDeadLetterQueue', 'Arn'] } } });
    }
    const [statement] = (resources.JobsDeadLetterQueuePolicy!.Properties.PolicyDocument as { Statement: Array<{ Principal: unknown; Condition: { ArnEquals: { 'aws:SourceArn': unknown[] } } }> }).Statement;
    expect(statement!.Principal).toEqual({ Service: 'events.amazonaws.com' });
    const sources = JSON.stringify(statement!.Condition.ArnEquals['aws:SourceArn']);
    for (const [id] of rules) expect(sources, id).toContain(id);
  });

  it('keeps the table: retained, deletion-protected, point-in-time recovery, encrypted, backed up daily for a year, tagged', () => {
    const table = resources.Table!;
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Condition).toBe('ManageTable');
    expect(table.Properties).toMatchObject({ TableName: 'participation-api-prod', DeletionProtectionEnabled: true, BillingMode: 'PAY_PER_REQUEST', PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } });
    expect(table.Properties.SSESpecification).toEqual({ 'Fn::If': ['HasTableKmsKey', expect.objectContaining({ SSEType: 'KMS' }), { SSEEnabled: false }] });
    const rule = (resources.BackupPlan!.Properties.BackupPlan as { BackupPlanRule: Array<{ ScheduleExpression: string; Lifecycle: { DeleteAfterDays: number } }> }).BackupPlanRule[0]!;
    expect(rule.ScheduleExpression).toMatch(/^cron\(0 \d+ \* \* \? \*\)$/);
    expect(rule.Lifecycle.DeleteAfterDays).toBe(365);
    expect(JSON.stringify(resources.BackupSelection!.Properties)).toContain(':table/participation-api-prod');
    expect(state.service.provider.stackTags).toEqual({ service: 'participation-api', stage: 'prod', 'cost-center': 'participation' });
    for (const [id, r] of [...functions(), ['Table', table] as const, ['AlarmTopic', resources.AlarmTopic!] as const, ['JobsDeadLetterQueue', resources.JobsDeadLetterQueue!] as const]) {
      const tags = JSON.stringify(r.Properties.Tags);
      for (const key of ['service', 'stage', 'cost-center']) expect(tags, `${id} tag ${key}`).toContain(key);
    }
  });

  it('throttles the stage, and the vote, login and newsletter routes each on their own', () => {
    const stage = resources.HttpApiStage!;
    const defaults = stage.Properties.DefaultRouteSettings as { ThrottlingRateLimit: number; ThrottlingBurstLimit: number };
    expect(defaults).toMatchObject({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 });
    const routeKeys = ofType('AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey as string);
    const settings = stage.Properties.RouteSettings as Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }>;
    expect(Object.keys(settings).sort()).toEqual(
      ['POST /api/site/{siteId}/vote', 'GET /oauth/site/{siteId}/login', 'GET /oauth/site/{siteId}/digest-login', 'POST /api/site/{siteId}/newslettersignup', 'POST /api/site/{siteId}/confirm'].sort(),
    );
    for (const [key, limits] of Object.entries(settings)) {
      expect(routeKeys, key).toContain(key);
      expect(limits.ThrottlingRateLimit).toBeLessThan(defaults.ThrottlingRateLimit);
    }
    // The stage waits for the routes it names (CloudFormation refuses settings of a route not yet
    // made): for the nested stack that holds the route.
    const dependsOn = asList(stage.DependsOn!);
    for (const key of Object.keys(settings)) {
      const routeId = ofType('AWS::ApiGatewayV2::Route').find(([, r]) => r.Properties.RouteKey === key)![0];
      expect(dependsOn, key).toContain(nested.find((n) => routeId in n.template.Resources)?.id ?? routeId);
    }
    expect(resources.HttpApi!.Properties.DisableExecuteApiEndpoint).toEqual({ 'Fn::If': ['HasCustomDomain', true, false] });
    expect(resources.ApiDomainName!.Condition).toBe('HasCustomDomain');
  });

  it('deploys the write routes gradually behind an alias, rolled back by the 5xx alarm; the others at once', () => {
    const groups = ofType('AWS::CodeDeploy::DeploymentGroup');
    const classes = declaredClasses();
    const gradual = [...classes].filter(([, c]) => c === 'write' || c === 'door').map(([id]) => id);
    expect(groups.length).toBe(gradual.length);
    for (const [, group] of groups) expect(group.Properties.AlarmConfiguration).toEqual({ Alarms: [{ Name: { Ref: 'Api5xxAlarm' } }], Enabled: true });
    const aliases = ofType('AWS::Lambda::Alias').map(([id]) => id);
    for (const id of gradual) expect(aliases, id).toContain(`${id}AliasLive`);
    const versions = ofType('AWS::Lambda::Version').map(([, v]) => JSON.stringify(v.Properties.FunctionName));
    expect(versions.length).toBe(gradual.length);
  });

  it(`keeps every stack under CloudFormation's limits with ${Math.round((1 - HEADROOM) * 100)} % headroom: the functions in one nested stack per function group`, () => {
    const stacks = [['root', template] as const, ...nested.map((n) => [n.id, n.template] as const)];
    const size = (t: Template, what: keyof typeof CFN_LIMITS) => Object.keys(t[what] ?? {}).length;
    console.log(`resources per stack (${Object.keys(resources).length} in all, ${functions().length} functions): ${stacks.map(([id, t]) => `${id} ${size(t, 'Resources')}`).join(', ')}`);
    for (const [id, t] of stacks) for (const [what, limit] of Object.entries(CFN_LIMITS)) expect(size(t, what as keyof typeof CFN_LIMITS), `${id} ${what}`).toBeLessThanOrEqual(limit * HEADROOM);
    // Every function lives in the nested stack of its group (functions/<group>/), so a new route
    // grows its group's stack and never the root.
    expect(Object.values(template.Resources).filter((r) => r.Type === 'AWS::Lambda::Function')).toEqual([]);
    for (const stack of nested) {
      const groups = new Set(Object.values(stack.template.Resources).filter((r) => r.Type === 'AWS::Lambda::Function').map((r) => String(r.Properties.Handler).split('/')[1]));
      expect([...groups], stack.id).toHaveLength(1);
    }
  });

  it('wires the nested stacks: each is uploaded beside the root template, and names only its own resources, its parameters and its conditions', () => {
    const files = readdirSync(out).filter((f) => NESTED_FILE.test(f));
    expect(nested.map((n) => n.file).sort()).toEqual(files.sort());
    const pseudo = ['AWS::Region', 'AWS::AccountId', 'AWS::Partition', 'AWS::URLSuffix', 'AWS::StackName', 'AWS::StackId', 'AWS::NoValue'];
    for (const stack of nested) {
      const url = JSON.stringify(template.Resources[stack.id]!.Properties.TemplateURL);
      expect(url, stack.id).toContain(`{"Ref":"ServerlessDeploymentBucket"}`);
      expect(url, stack.id).toMatch(new RegExp(`/serverless/participation-api/prod/[^/"]+/${stack.file}"`));
      const declared = Object.keys(stack.template.Parameters ?? {});
      expect(Object.keys(stack.parameters).sort(), `${stack.id} parameters passed`).toEqual(declared.sort());
      const { ids, conditions } = namesIn(stack.template.Resources);
      for (const output of Object.values(stack.template.Outputs ?? {})) for (const id of namesIn(output.Value).ids) ids.add(id);
      for (const id of ids) expect(id in stack.template.Resources || declared.includes(id) || pseudo.includes(id), `${stack.id} names ${id}`).toBe(true);
      for (const condition of conditions) expect(stack.template.Conditions ?? {}, `${stack.id} condition ${condition}`).toHaveProperty(condition);
      for (const resource of Object.values(stack.template.Resources)) for (const d of asList(resource.DependsOn ?? [])) expect(stack.template.Resources, `${stack.id} DependsOn ${d}`).toHaveProperty(d);
    }
    // What the root reads of a nested stack is one of that stack's outputs.
    const root = namesIn(template.Resources);
    for (const output of Object.values(template.Outputs ?? {})) namesIn(output.Value, root);
    for (const [, r] of Object.entries(template.Resources)) for (const d of asList(r.DependsOn ?? [])) expect(template.Resources, `root DependsOn ${d}`).toHaveProperty(d);
    const outputsRead = JSON.stringify(template).matchAll(/"Fn::GetAtt":\["(\w+Stack)","Outputs\.(\w+)"\]/g);
    for (const [, stackId, output] of outputsRead) expect(nested.find((n) => n.id === stackId)!.template.Outputs, `${stackId}.${output}`).toHaveProperty(output!);
    for (const id of root.ids) expect(id in template.Resources || pseudo.includes(id), `root names ${id}`).toBe(true);
  });
});
