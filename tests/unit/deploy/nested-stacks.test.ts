/**
 * The stack split of scripts/sls/nested-stacks.cjs on small templates: what moves with a function,
 * how references cross between the root and a nested stack (parameters one way, outputs the other),
 * and what it refuses. tests/e2e/package.test.ts holds the real template to the same rules.
 */
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';

interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string | string[];
  Condition?: string;
  UpdatePolicy?: unknown;
}
interface Template {
  Resources: Record<string, Resource>;
  Outputs?: Record<string, { Value: unknown }>;
  Conditions?: Record<string, unknown>;
  Parameters?: Record<string, unknown>;
}
type Nested = Record<string, { group: string; fileName: string; template: Template }>;
const { splitTemplate } = createRequire(import.meta.url)('../../../scripts/sls/nested-stacks.cjs') as {
  splitTemplate: (t: Template, o: { templateUrl: (fileName: string) => unknown }) => Nested;
};

const fn = (handler: string, extra: Record<string, unknown> = {}): Resource => ({
  Type: 'AWS::Lambda::Function',
  Properties: { Handler: handler, Role: { 'Fn::GetAtt': ['ReadRole', 'Arn'] }, Code: { S3Bucket: { Ref: 'Bucket' } }, ...extra },
});

function template(): Template {
  return {
    Conditions: { HasDomain: { 'Fn::Equals': ['', 'x'] } },
    Resources: {
      Bucket: { Type: 'AWS::S3::Bucket' },
      ReadRole: { Type: 'AWS::IAM::Role' },
      HttpApi: { Type: 'AWS::ApiGatewayV2::Api' },
      HttpApiStage: { Type: 'AWS::ApiGatewayV2::Stage', Properties: { ApiId: { Ref: 'HttpApi' } }, DependsOn: ['VoteRoute'] },
      VoteLogGroup: { Type: 'AWS::Logs::LogGroup' },
      VoteLambdaFunction: { ...fn('functions/votes/cast.handler', { Tracing: { 'Fn::If': ['HasDomain', 'a', 'b'] } }), DependsOn: ['VoteLogGroup', 'ReadRole'] },
      VoteVersion: { Type: 'AWS::Lambda::Version', Properties: { FunctionName: { Ref: 'VoteLambdaFunction' } } },
      VoteIntegration: { Type: 'AWS::ApiGatewayV2::Integration', Properties: { ApiId: { Ref: 'HttpApi' }, IntegrationUri: { 'Fn::Sub': 'arn:${AWS::Partition}:${VoteLambdaFunction.Arn}/${HttpApi}' } } },
      VoteRoute: { Type: 'AWS::ApiGatewayV2::Route', Properties: { ApiId: { Ref: 'HttpApi' }, Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'VoteIntegration' }]] } } },
      ListLambdaFunction: fn('functions/votes/list.handler'),
      IdeaLambdaFunction: fn('functions/ideas/get.handler'),
      IdeaLogGroup: { Type: 'AWS::Logs::LogGroup' },
      AccessLogGroup: { Type: 'AWS::Logs::LogGroup' },
    },
    Outputs: { VoteVersionArn: { Value: { Ref: 'VoteVersion' } } },
  };
}

const split = () => {
  const root = template();
  root.Resources.IdeaLambdaFunction!.DependsOn = 'IdeaLogGroup';
  const nested = splitTemplate(root, { templateUrl: (fileName) => `https://bucket/dir/${fileName}` });
  return { root, nested };
};

describe('nested stacks', () => {
  it('moves each function with what belongs to it alone into its group\'s stack; shared resources stay in the root', () => {
    const { root, nested } = split();
    expect(Object.keys(nested).sort()).toEqual(['IdeasStack', 'VotesStack']);
    expect(Object.keys(nested.VotesStack!.template.Resources).sort()).toEqual(['ListLambdaFunction', 'VoteIntegration', 'VoteLambdaFunction', 'VoteLogGroup', 'VoteRoute', 'VoteVersion']);
    expect(Object.keys(nested.IdeasStack!.template.Resources).sort()).toEqual(['IdeaLambdaFunction', 'IdeaLogGroup']);
    expect(Object.keys(root.Resources).sort()).toEqual(['AccessLogGroup', 'Bucket', 'HttpApi', 'HttpApiStage', 'IdeasStack', 'ReadRole', 'VotesStack']);
    expect(root.Resources.VotesStack).toMatchObject({ Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: 'https://bucket/dir/cloudformation-template-nested-votes.json' } });
  });

  it('passes what a nested resource reads of the root as a parameter, and depends on what it depended on', () => {
    const { root, nested } = split();
    const votes = nested.VotesStack!.template;
    expect(votes.Resources.VoteLambdaFunction!.Properties!.Role).toEqual({ Ref: 'ReadRoleArn' });
    expect(votes.Resources.VoteLambdaFunction!.DependsOn).toEqual(['VoteLogGroup']);
    expect(root.Resources.VotesStack!.Properties!.Parameters).toEqual({ ReadRoleArn: { 'Fn::GetAtt': ['ReadRole', 'Arn'] }, Bucket: { Ref: 'Bucket' }, HttpApi: { Ref: 'HttpApi' } });
    expect(Object.keys(votes.Parameters!).sort()).toEqual(['Bucket', 'HttpApi', 'ReadRoleArn']);
    // The role is waited for through its parameter: no DependsOn besides.
    expect(root.Resources.VotesStack!.DependsOn).toBeUndefined();
    expect(root.Resources.IdeasStack!.DependsOn).toBeUndefined();
    // Fn::Sub's inline names: a root resource becomes a variable bound to the parameter; its own stay.
    expect(votes.Resources.VoteIntegration!.Properties!.IntegrationUri).toEqual({ 'Fn::Sub': ['arn:${AWS::Partition}:${VoteLambdaFunction.Arn}/${HttpApi}', { HttpApi: { Ref: 'HttpApi' } }] });
    expect(votes.Conditions).toEqual({ HasDomain: { 'Fn::Equals': ['', 'x'] } });
  });

  it('reads a nested resource from the root through the stack\'s outputs, and waits for its stack', () => {
    const { root, nested } = split();
    expect(root.Outputs!.VoteVersionArn!.Value).toEqual({ 'Fn::GetAtt': ['VotesStack', 'Outputs.VoteVersion'] });
    expect(nested.VotesStack!.template.Outputs).toEqual({ VoteVersion: { Value: { Ref: 'VoteVersion' } } });
    expect(root.Resources.HttpApiStage!.DependsOn).toEqual(['VotesStack']);
  });

  it('refuses a function outside functions/<group>/ and a circular dependency between the stacks', () => {
    const stray = template();
    stray.Resources.StrayLambdaFunction = fn('lib/stray.handler');
    expect(() => splitTemplate(stray, { templateUrl: String })).toThrow(/StrayLambdaFunction has no handler under functions\/<group>\//);
    const circular = template();
    // The root role would wait for the votes stack, which takes the role's ARN as a parameter.
    circular.Resources.ReadRole!.Properties = { Path: { Ref: 'VoteLogGroup' } };
    expect(() => splitTemplate(circular, { templateUrl: String })).toThrow(/circular dependency/);
  });
});
