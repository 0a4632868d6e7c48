/**
 * The serverless function list, written from the route declarations (lib/routes): one
 * functions/<resource>/functions.yml per resource, which serverless.yml includes. Method, path,
 * handler and timeout are declared once, in lib/routes/<resource>/<action>.ts; these files are only
 * their YAML form. `npx tsx scripts/routes/write-functions-yml.ts` rewrites them, and
 * tests/unit/openapi/routes.test.ts fails while a committed file differs from what this writes.
 */
import { ROUTE_GROUPS } from '#lib/openapi/routes';
import type { Route } from '#lib/routes/route';
import { ACCESS_CLASSES, roleLogicalId, type AccessClass } from '#lib/config/access-classes';
import { OPENSTAD_FUNCTION } from '#lib/openstad/function';
import { SECRETS, type SecretName } from '#lib/config/secret-values';
import { catchAll } from '#lib/routes/system/catch-all';

/** Functions that serve no declared route, by resource: the HTTP API `$default` catch-all. */
const UNROUTED: Record<string, string> = {
  system:
    '# Unknown paths and methods, and CORS preflights, land here (HTTP API `$default` route).\n' +
    `${catchAll.functionName}:\n  handler: ${catchAll.handler}.handler\n  role: ${roleLogicalId(catchAll.dataAccess)}\n  versionFunction: false\n  events:\n    - httpApi: '*'\n`,
};

/**
 * Classes whose functions deploy gradually (serverless-plugin-canary-deployments, settings in
 * serverless.yml `custom.deploymentSettings`): the ones that write. The others deploy at once and
 * keep no version (a version is a stack resource, and a read-only function has nothing to roll back
 * gradually), which keeps the stack well under CloudFormation's 500 resources.
 */
const GRADUAL_CLASSES: ReadonlySet<AccessClass> = new Set(['write', 'door']);

interface LambdaFunction {
  name: string;
  handler: string;
  timeout: number | undefined;
  dataAccess: AccessClass;
  /** Files the function reads at run time (the routes' `packageFiles`), packaged with it. */
  packageFiles: string[];
  routes: Route[];
}

/** The routes of one resource grouped into their functions, in declaration order. */
function functionsOf(resource: string, routes: readonly Route[]): LambdaFunction[] {
  const byName = new Map<string, LambdaFunction>();
  for (const route of routes) {
    if (!route.handler.startsWith(`functions/${resource}/`)) throw new Error(`${route.operationId}: handler ${route.handler} is outside functions/${resource}/`);
    const name = route.functionName ?? route.operationId;
    const fn = byName.get(name);
    if (!fn) {
      byName.set(name, { name, handler: route.handler, timeout: route.timeout, dataAccess: route.dataAccess, packageFiles: [...(route.packageFiles ?? [])], routes: [route] });
      continue;
    }
    for (const file of route.packageFiles ?? []) if (!fn.packageFiles.includes(file)) fn.packageFiles.push(file);
    if (fn.handler !== route.handler || (route.timeout !== undefined && route.timeout !== fn.timeout) || route.dataAccess !== fn.dataAccess) {
      throw new Error(`${route.operationId}: function ${name} is declared with another handler, timeout or access class`);
    }
    fn.routes.push(route);
  }
  return [...byName.values()];
}

export function renderFunctionsYml(resource: string, routes: readonly Route[]): string {
  const lines = [
    `# Written from lib/routes/${resource} by scripts/routes/write-functions-yml.ts: edit the route declarations,`,
    '# not this file (tests/unit/openapi/routes.test.ts fails while the two differ).',
  ];
  for (const fn of functionsOf(resource, routes)) {
    lines.push(`${fn.name}:`, `  handler: ${fn.handler}.handler`);
    if (fn.timeout !== undefined) lines.push(`  timeout: ${fn.timeout}`);
    lines.push(`  role: ${roleLogicalId(fn.dataAccess)}`);
    lines.push(GRADUAL_CLASSES.has(fn.dataAccess) ? '  deploymentSettings: {}' : '  versionFunction: false');
    if (fn.packageFiles.length) lines.push('  package:', '    patterns:', ...fn.packageFiles.map((file) => `      - ${file}`));
    lines.push('  events:');
    for (const route of fn.routes) lines.push('    - httpApi:', `        method: ${route.method}`, `        path: ${route.path}`);
  }
  return `${lines.join('\n')}\n${UNROUTED[resource] ?? ''}`;
}

/** The OpenStad surface's one function (lib/openstad/function.ts): every method under its prefix. */
function renderOpenStadYml(): string {
  const fn = OPENSTAD_FUNCTION;
  return [
    '# Written from lib/openstad/function.ts by scripts/routes/write-functions-yml.ts (docs/openstad.md): one',
    "# function for every path under the prefix, which calls the main API's handlers in-process",
    '# (lib/openstad/dispatch.ts), so it needs what they all need.',
    `${fn.name}:`,
    `  handler: ${fn.handler}.handler`,
    `  timeout: ${fn.timeout}`,
    `  memorySize: ${fn.memorySize}`,
    `  role: ${roleLogicalId(fn.dataAccess)}`,
    GRADUAL_CLASSES.has(fn.dataAccess) ? '  deploymentSettings: {}' : '  versionFunction: false',
    '  events:',
    '    - httpApi:',
    "        method: '*'",
    `        path: ${fn.path}`,
    '',
  ].join('\n');
}

const json = (value: unknown) => JSON.stringify(value);
/** An ARN of this account and region (Fn::Join, not Fn::Sub: `${...}` is the framework's variable syntax). */
const arn = (service: string, resource: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:${service}:`, { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:${resource}`]],
});

/**
 * One IAM role per access class (lib/config/access-classes.ts), as CloudFormation resources that
 * serverless.yml includes: the functions' logs, X-Ray, the class's DynamoDB actions on this table
 * (Query also on its indexes), the stage's secret parameters its class names (each by name), the
 * jobs' dead-letter queue for the job class. Nothing else, and no wildcard but X-Ray's (its actions
 * have no resource-level permissions).
 */
function renderAccessRolesYml(): string {
  const lines = [
    '# Written from lib/config/access-classes.ts by scripts/routes/write-functions-yml.ts: edit the classes,',
    '# not this file (tests/unit/openapi/routes.test.ts fails while the two differ).',
    'Resources:',
  ];
  // By name, not GetAtt: after a restore the stage's table is another table (serverless.yml `tableName`).
  const tableArn = arn('dynamodb', 'table/${self:custom.tableName}');
  for (const [name, grant] of Object.entries(ACCESS_CLASSES) as [AccessClass, (typeof ACCESS_CLASSES)[AccessClass]][]) {
    const statements: unknown[] = [
      {
        Effect: 'Allow',
        Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        Resource: arn('logs', 'log-group:/aws/lambda/${self:service}-${sls:stage}-*:*'),
      },
      { Effect: 'Allow', Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], Resource: '*' },
    ];
    if (grant.table.length) statements.push({ Effect: 'Allow', Action: grant.table.map((a) => `dynamodb:${a}`), Resource: tableArn });
    if ((grant.table as readonly string[]).includes('Query')) statements.push({ Effect: 'Allow', Action: ['dynamodb:Query'], Resource: { 'Fn::Join': ['/', [tableArn, 'index', '*']] } });
    if (grant.secrets.length) {
      // Exactly the class's parameters: a function reads no secret its class does not name.
      const parameters = (grant.secrets as readonly SecretName[]).map((secret) => arn('ssm', `parameter\${self:custom.secretsPath}${SECRETS[secret].parameter}`));
      statements.push({ Effect: 'Allow', Action: ['ssm:GetParameters'], Resource: parameters });
      statements.push({ 'Fn::If': ['HasSecretsKmsKey', { Effect: 'Allow', Action: ['kms:Decrypt'], Resource: '${param:secretsKmsKeyArn}' }, { Ref: 'AWS::NoValue' }] });
    }
    if (grant.deadLetters) statements.push({ Effect: 'Allow', Action: ['sqs:SendMessage'], Resource: { 'Fn::GetAtt': ['JobsDeadLetterQueue', 'Arn'] } });
    lines.push(
      `  ${roleLogicalId(name)}:`,
      `    # ${grant.description}`,
      '    Type: AWS::IAM::Role',
      '    Properties:',
      `      AssumeRolePolicyDocument: ${json({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: ['lambda.amazonaws.com'] }, Action: ['sts:AssumeRole'] }] })}`,
      '      Policies:',
      `        - PolicyName: ${name}`,
      `          PolicyDocument: ${json({ Version: '2012-10-17', Statement: statements })}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Every generated file: path from the project root -> content. */
export function functionsYmlFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const names = new Set<string>();
  for (const [resource, routes] of Object.entries(ROUTE_GROUPS)) {
    for (const fn of functionsOf(resource, routes)) {
      if (names.has(fn.name)) throw new Error(`Function ${fn.name} is declared by two resources`);
      names.add(fn.name);
    }
    files.set(`functions/${resource}/functions.yml`, renderFunctionsYml(resource, routes));
  }
  files.set('functions/openstad/functions.yml', renderOpenStadYml());
  files.set('functions/access-roles.yml', renderAccessRolesYml());
  return files;
}
