/**
 * Operations resources that follow from the compiled template, added to it after packaging
 * (docs/operations.md; tests/e2e/package.test.ts asserts on them):
 *
 * - Lambda errors and throttles alarms over every function, ten functions per alarm (a metric-math
 *   alarm takes at most ten metrics): a new function is covered without a line here;
 * - DynamoDB alarms: throttled reads or writes on the table and on each of its indexes (from
 *   lib/store/table-definition.json), and system errors;
 * - per-route throttles (serverless.yml custom.routeThrottles, by function) in the HTTP API stage's
 *   RouteSettings, which then depends on those routes;
 * - one CloudWatch dashboard;
 * - the jobs' schedules: an event EventBridge could not deliver to its job (after its own retries, or
 *   refused outright) goes to the jobs' dead-letter queue too, which a queue policy lets those rules
 *   (and only them) write to; and each job's async-invoke settings name the function as its schedule's
 *   permission does (by ARN), the one way Serverless Lens' ES1007 sees the two as one function.
 *
 * Every alarm notifies AlarmTopic (resources/operations.yml).
 */
const path = require('node:path');

const GROUP = 10;
/** The operations whose system errors are watched: every request kind the store sends. */
const STORE_OPERATIONS = ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'];

const alarm = (name, description, metrics, { threshold = 1, periods = 1, comparison = 'GreaterThanOrEqualToThreshold' } = {}) => ({
  Type: 'AWS::CloudWatch::Alarm',
  Properties: {
    AlarmName: name,
    AlarmDescription: description,
    ComparisonOperator: comparison,
    Threshold: threshold,
    EvaluationPeriods: periods,
    TreatMissingData: 'notBreaching',
    AlarmActions: [{ Ref: 'AlarmTopic' }],
    OKActions: [{ Ref: 'AlarmTopic' }],
    Metrics: metrics,
  },
});

/** A metric-math alarm's metrics: the sum of the given metrics (at most ten), returned as `total`. */
const sumOf = (label, metrics) => [
  { Id: 'total', Label: label, Expression: `SUM([${metrics.map((_, i) => `m${i}`).join(',')}])`, ReturnData: true },
  ...metrics.map((metric, i) => ({ Id: `m${i}`, ReturnData: false, MetricStat: { Metric: metric, Period: 60, Stat: 'Sum' } })),
];

class Operations {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = { 'after:aws:package:finalize:mergeCustomProviderResources': () => this.add() };
  }

  add() {
    const service = this.serverless.service;
    const prefix = `${service.service}-${this.serverless.getProvider('aws').getStage()}`;
    const resources = service.provider.compiledCloudFormationTemplate.Resources;
    const functionNames = Object.values(resources)
      .filter((r) => r.Type === 'AWS::Lambda::Function')
      .map((r) => r.Properties.FunctionName)
      .sort();
    const add = (id, resource) => {
      if (resources[id]) throw new this.serverless.classes.Error(`operations: ${id} exists already`);
      resources[id] = resource;
    };

    for (let g = 0; g * GROUP < functionNames.length; g++) {
      const group = functionNames.slice(g * GROUP, (g + 1) * GROUP);
      const list = group.map((f) => f.slice(prefix.length + 1)).join(', ');
      for (const [metric, what] of [['Errors', 'errors'], ['Throttles', 'throttles']]) {
        add(
          `Lambda${metric}Alarm${g + 1}`,
          alarm(
            `${prefix}-lambda-${what}-${g + 1}`,
            `Lambda ${what} in ${list} (docs/operations.md "lambda-${what}")`,
            sumOf(`${metric} of ${group.length} functions`, group.map((f) => ({ Namespace: 'AWS/Lambda', MetricName: metric, Dimensions: [{ Name: 'FunctionName', Value: f }] }))),
            { threshold: metric === 'Errors' ? 5 : 1, periods: metric === 'Errors' ? 5 : 1 },
          ),
        );
      }
    }

    const tableName = service.custom.tableName;
    const definition = require(path.join(this.serverless.serviceDir, 'lib/store/table-definition.json'));
    const throttles = (dimensions) => ['ReadThrottleEvents', 'WriteThrottleEvents'].map((m) => ({ Namespace: 'AWS/DynamoDB', MetricName: m, Dimensions: dimensions }));
    add('TableThrottleAlarm', alarm(`${prefix}-table-throttled`, `DynamoDB throttled reads or writes on ${tableName} (docs/operations.md "table-throttled")`, sumOf('throttle events', throttles([{ Name: 'TableName', Value: tableName }]))));
    for (const index of definition.GlobalSecondaryIndexes.map((i) => i.IndexName)) {
      add(
        `Table${index}ThrottleAlarm`,
        alarm(
          `${prefix}-table-${index.toLowerCase()}-throttled`,
          `DynamoDB throttled reads or writes on index ${index} of ${tableName} (docs/operations.md "table-throttled")`,
          sumOf('throttle events', throttles([{ Name: 'TableName', Value: tableName }, { Name: 'GlobalSecondaryIndexName', Value: index }])),
        ),
      );
    }
    add(
      'TableSystemErrorsAlarm',
      alarm(
        `${prefix}-table-system-errors`,
        `DynamoDB answered 500s on ${tableName} (docs/operations.md "table-system-errors")`,
        sumOf('system errors', STORE_OPERATIONS.map((op) => ({ Namespace: 'AWS/DynamoDB', MetricName: 'SystemErrors', Dimensions: [{ Name: 'TableName', Value: tableName }, { Name: 'Operation', Value: op }] }))),
      ),
    );

    this.addScheduleDeadLetters(resources);
    this.addRouteThrottles(resources, service.custom.routeThrottles || {});
    add('Dashboard', this.dashboard(prefix, functionNames, tableName, definition, service.custom));
  }

  /** Dead-letter config on every scheduled rule's targets, and the queue policy that lets those rules send. */
  addScheduleDeadLetters(resources) {
    const queue = 'JobsDeadLetterQueue';
    if (!resources[queue]) return;
    const rules = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Events::Rule' && r.Properties.ScheduleExpression);
    for (const [, rule] of rules) {
      for (const target of rule.Properties.Targets) {
        target.DeadLetterConfig = { Arn: { 'Fn::GetAtt': [queue, 'Arn'] } };
        target.RetryPolicy = { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 };
      }
    }
    for (const [, config] of Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::EventInvokeConfig')) {
      const ref = config.Properties.FunctionName && config.Properties.FunctionName.Ref;
      if (ref) config.Properties.FunctionName = { 'Fn::GetAtt': [ref, 'Arn'] };
    }
    if (rules.length === 0) return;
    resources.JobsDeadLetterQueuePolicy = {
      Type: 'AWS::SQS::QueuePolicy',
      Properties: {
        Queues: [{ Ref: queue }],
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Principal: { Service: 'events.amazonaws.com' },
              Action: 'sqs:SendMessage',
              Resource: { 'Fn::GetAtt': [queue, 'Arn'] },
              Condition: { ArnEquals: { 'aws:SourceArn': rules.map(([id]) => ({ 'Fn::GetAtt': [id, 'Arn'] })) } },
            },
          ],
        },
      },
    };
  }

  /** RouteSettings for every route whose integration calls a throttled function. */
  addRouteThrottles(resources, throttles) {
    const stage = resources.HttpApiStage;
    if (!stage) return;
    const settings = {};
    const dependsOn = [];
    for (const [functionName, limits] of Object.entries(throttles)) {
      const naming = this.serverless.getProvider('aws').naming;
      const lambdaId = naming.getLambdaLogicalId(functionName);
      const integrationId = naming.getHttpApiIntegrationLogicalId(functionName);
      const routes = Object.entries(resources).filter(
        ([, r]) => r.Type === 'AWS::ApiGatewayV2::Route' && JSON.stringify(r.Properties.Target || '').includes(integrationId),
      );
      if (!resources[lambdaId] || routes.length === 0) throw new this.serverless.classes.Error(`custom.routeThrottles names ${functionName}, which serves no route`);
      for (const [id, route] of routes) {
        settings[route.Properties.RouteKey] = { ThrottlingRateLimit: Number(limits.rate), ThrottlingBurstLimit: Number(limits.burst) };
        dependsOn.push(id);
      }
    }
    stage.Properties.RouteSettings = settings;
    stage.DependsOn = [...new Set([...(stage.DependsOn ? [].concat(stage.DependsOn) : []), ...dependsOn])];
  }

  dashboard(prefix, functionNames, tableName, definition, custom) {
    const region = { Ref: 'AWS::Region' };
    const ns = custom.metricsNamespace;
    const svc = custom.metricsService;
    const widget = (title, metrics, x, y, extra = {}) => ({ type: 'metric', x, y, width: 12, height: 6, properties: { title, region: '${Region}', view: 'timeSeries', stacked: false, metrics, ...extra } });
    const api = (m, stat) => ['AWS/ApiGateway', m, 'ApiId', '${ApiId}', { stat }];
    const lambda = (m) => [{ expression: `SEARCH('{AWS/Lambda,FunctionName} MetricName="${m}" FunctionName="${prefix}-"', 'Sum', 60)`, id: m.toLowerCase() }];
    const own = (m, label) => [ns, m, 'service', svc, { stat: 'Sum', label: label || m }];
    const body = {
      widgets: [
        widget('API requests, 4xx, 5xx', [api('Count', 'Sum'), api('4xx', 'Sum'), api('5xx', 'Sum')], 0, 0),
        widget('API latency p50 / p99 (ms)', [api('Latency', 'p50'), api('Latency', 'p99')], 12, 0),
        widget('Lambda errors by function', lambda('Errors'), 0, 6),
        widget('Lambda throttles by function', lambda('Throttles'), 12, 6),
        widget('Vote rounds accepted / refused, logins', [own('VoteRoundsAccepted'), own('VoteRoundsRefused'), own('Logins'), own('LoginsRefused')], 0, 12),
        widget('Job units done / failed, dead letters', [own('JobUnitsDone'), own('JobUnitsFailed'), ['AWS/SQS', 'ApproximateNumberOfMessagesVisible', 'QueueName', `${prefix}-jobs-dlq`, { stat: 'Maximum' }]], 12, 12),
        widget(
          'DynamoDB consumed capacity and throttles',
          [
            ['AWS/DynamoDB', 'ConsumedReadCapacityUnits', 'TableName', tableName, { stat: 'Sum' }],
            ['AWS/DynamoDB', 'ConsumedWriteCapacityUnits', 'TableName', tableName, { stat: 'Sum' }],
            ['AWS/DynamoDB', 'ReadThrottleEvents', 'TableName', tableName, { stat: 'Sum' }],
            ['AWS/DynamoDB', 'WriteThrottleEvents', 'TableName', tableName, { stat: 'Sum' }],
            ...definition.GlobalSecondaryIndexes.map((i) => ['AWS/DynamoDB', 'WriteThrottleEvents', 'TableName', tableName, 'GlobalSecondaryIndexName', i.IndexName, { stat: 'Sum' }]),
          ],
          0,
          18,
        ),
        widget('Responses 4xx / 5xx by route (the code\'s count)', [[{ expression: `SEARCH('{${ns},service,route} service="${svc}"', 'Sum', 300)`, id: 'routes' }]], 12, 18),
      ],
    };
    return {
      Type: 'AWS::CloudWatch::Dashboard',
      Properties: {
        DashboardName: prefix,
        DashboardBody: { 'Fn::Sub': [JSON.stringify(body), { Region: region, ApiId: { Ref: 'HttpApi' } }] },
      },
    };
  }
}

module.exports = Operations;
