/**
 * Splits the compiled template into a root stack and one nested stack per function group (the folder
 * of functions/ a function's handler lives in: votes, ideas, oauth, ...), so that no stack comes near
 * CloudFormation's 500 resources however many routes a group gains (docs/deploy.md "What the stack
 * creates"; tests/e2e/package.test.ts asserts every stack's count).
 *
 * What moves: each Lambda function with the resources that belong to it alone (its log group, the API
 * integration and routes that call it, its invoke permissions, version, alias and deployment group,
 * schedule rule and async-invoke settings), found by following the references among them. Everything
 * shared stays in the root stack: the HTTP API and its stage, the roles, the table, alarms, topic,
 * queue, backup, dashboard, the CodeDeploy application. A reference from a nested resource to a root
 * resource becomes a stack parameter; one from the root to a nested resource becomes a stack output.
 *
 * Why not serverless-plugin-split-stacks: while packaging it lists the deployed stack's resources with
 * CloudFormation (to leave each where it is), so `serverless package` needs AWS credentials and the
 * AWS API, and the package test packages offline. The assignment here is a pure function of the
 * template instead: a function always lands in its group's stack, so a deploy never moves (deletes and
 * recreates) a function or its log group, unless the function moves to another folder of functions/.
 *
 * The nested templates are written where osls writes the root template (.serverless, which it then
 * moves to `--package DIR`, and back before a `deploy --package DIR`) and uploaded with the other
 * artifacts on deploy, into the same versioned artifact folder: `serverless rollback` to an older
 * deploy brings back that deploy's nested templates too.
 */
const fs = require('node:fs');
const path = require('node:path');

/** Resource types that belong to a single function and move with it. */
const MOVABLE = new Set([
  'AWS::Lambda::Function',
  'AWS::Logs::LogGroup',
  'AWS::Lambda::Permission',
  'AWS::Lambda::Version',
  'AWS::Lambda::Alias',
  'AWS::Lambda::EventInvokeConfig',
  'AWS::ApiGatewayV2::Integration',
  'AWS::ApiGatewayV2::Route',
  'AWS::CodeDeploy::DeploymentGroup',
  'AWS::Events::Rule',
]);
const NESTED_FILE = /^cloudformation-template-nested-[a-z0-9-]+\.json$/;
/** CloudFormation's limits per stack. */
const LIMITS = { resources: 500, parameters: 200, outputs: 200 };

const pascal = (s) => s.replace(/(^|[^a-zA-Z0-9])([a-zA-Z0-9])/g, (_, __, c) => c.toUpperCase());
const asList = (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The logical ids a value references: Ref, Fn::GetAtt, Fn::Sub's ${Id} / ${Id.Attr}, and Condition names apart. */
function referencesOf(value, out = { ids: new Set(), conditions: new Set() }) {
  if (Array.isArray(value)) value.forEach((v) => referencesOf(v, out));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'Ref' && typeof v === 'string') out.ids.add(v);
      else if (key === 'Fn::GetAtt') out.ids.add(typeof v === 'string' ? v.split('.')[0] : v[0]);
      else if (key === 'Fn::Sub') {
        const [text, vars = {}] = asList(v);
        for (const [, name] of String(text).matchAll(/\$\{([^!}][^}]*)\}/g)) if (!(name in vars)) out.ids.add(name.split('.')[0]);
        referencesOf(vars, out);
      } else if (key === 'Fn::If') {
        out.conditions.add(v[0]);
        referencesOf(v.slice(1), out);
      } else if (key === 'Condition' && typeof v === 'string') out.conditions.add(v);
      else referencesOf(v, out);
    }
  }
  return out;
}

/**
 * Replaces every reference to an id that `rewrite(id, attribute)` maps with what it returns (a
 * reference to a parameter or to a nested stack's output). Fn::Sub's inline ${Id} become variables.
 */
function rewriteReferences(value, rewrite) {
  if (Array.isArray(value)) return value.map((v) => rewriteReferences(v, rewrite));
  if (!value || typeof value !== 'object') return value;
  if (typeof value.Ref === 'string' && Object.keys(value).length === 1) return rewrite(value.Ref, undefined) || value;
  if (value['Fn::GetAtt'] && Object.keys(value).length === 1) {
    const [id, ...attribute] = typeof value['Fn::GetAtt'] === 'string' ? value['Fn::GetAtt'].split('.') : value['Fn::GetAtt'];
    return rewrite(id, attribute.join('.')) || value;
  }
  if (value['Fn::Sub'] !== undefined && Object.keys(value).length === 1) {
    const [text, vars = {}] = asList(value['Fn::Sub']);
    const newVars = rewriteReferences(vars, rewrite);
    const newText = String(text).replace(/\$\{([^!}][^}]*)\}/g, (whole, name) => {
      if (name in vars) return whole;
      const [id, ...attribute] = name.split('.');
      const replaced = rewrite(id, attribute.join('.'));
      if (!replaced) return whole;
      const variable = `${id}${attribute.join('')}`.replace(/[^A-Za-z0-9]/g, '');
      newVars[variable] = replaced;
      return `\${${variable}}`;
    });
    return Object.keys(newVars).length ? { 'Fn::Sub': [newText, newVars] } : { 'Fn::Sub': newText };
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'DependsOn' ? v : rewriteReferences(v, rewrite)]));
}

/** The group of a function: the folder under functions/ of its handler. */
function groupOfFunction(logicalId, resource) {
  const match = /^functions\/([^/]+)\//.exec(resource.Properties.Handler || '');
  if (!match) throw new Error(`nested stacks: ${logicalId} has no handler under functions/<group>/ (${resource.Properties.Handler})`);
  return match[1];
}

/**
 * Splits `template` (changed in place into the root template) and returns the nested templates by
 * the logical id of their stack resource: `{ [stackId]: { group, fileName, template } }`.
 * `templateUrl(fileName)` is the TemplateURL of a nested template once uploaded.
 */
function splitTemplate(template, { templateUrl, groupOf = groupOfFunction }) {
  const resources = template.Resources;
  const ids = Object.keys(resources);

  // Union the movable resources that reference (or depend on) each other: each cluster is one
  // function and what belongs to it alone.
  const parent = new Map(ids.filter((id) => MOVABLE.has(resources[id].Type)).map((id) => [id, id]));
  const find = (id) => (parent.get(id) === id ? id : (parent.set(id, find(parent.get(id))), parent.get(id)));
  for (const id of parent.keys()) {
    const linked = [...referencesOf(resources[id].Properties).ids, ...referencesOf(resources[id].UpdatePolicy).ids, ...asList(resources[id].DependsOn)];
    for (const other of linked) if (parent.has(other)) parent.set(find(other), find(id));
  }
  const clusters = new Map();
  for (const id of parent.keys()) clusters.set(find(id), [...(clusters.get(find(id)) || []), id]);

  /** logical id -> nested stack id, for everything that moves. */
  const stackOf = new Map();
  const groups = new Map();
  for (const members of clusters.values()) {
    const fns = members.filter((id) => resources[id].Type === 'AWS::Lambda::Function');
    if (fns.length !== 1) continue; // shared by no function or by several: stays in the root
    const group = groupOf(fns[0], resources[fns[0]]);
    const stackId = `${pascal(group)}Stack`;
    groups.set(stackId, group);
    for (const id of members) stackOf.set(id, stackId);
  }

  const nested = {};
  for (const [stackId, group] of [...groups].sort()) {
    const fileName = `cloudformation-template-nested-${group.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.json`;
    nested[stackId] = {
      group,
      fileName,
      template: { AWSTemplateFormatVersion: '2010-09-09', Description: `${group} functions (nested stack)`, Parameters: {}, Resources: {}, Outputs: {} },
      resource: { Type: 'AWS::CloudFormation::Stack', Properties: { TemplateURL: templateUrl(fileName), Parameters: {} }, DependsOn: [] },
    };
  }

  // Nested resources: references to the root become parameters, root DependsOn the stack's.
  for (const [id, stackId] of stackOf) {
    const stack = nested[stackId];
    const resource = resources[id];
    const rewrite = (target, attribute) => {
      if (!(target in resources) || stackOf.get(target) === stackId) return undefined;
      if (stackOf.has(target)) throw new Error(`nested stacks: ${id} (${stackId}) references ${target} of ${stackOf.get(target)}`);
      const name = `${target}${(attribute || '').replace(/[^A-Za-z0-9]/g, '')}`;
      stack.template.Parameters[name] = { Type: 'String' };
      stack.resource.Properties.Parameters[name] = attribute ? { 'Fn::GetAtt': [target, attribute] } : { Ref: target };
      return { Ref: name };
    };
    const moved = rewriteReferences(resource, rewrite);
    const dependsOn = asList(resource.DependsOn);
    const outside = dependsOn.filter((d) => stackOf.get(d) !== stackId);
    for (const d of outside) {
      if (stackOf.has(d)) throw new Error(`nested stacks: ${id} (${stackId}) depends on ${d} of ${stackOf.get(d)}`);
      stack.resource.DependsOn.push(d);
    }
    const inside = dependsOn.filter((d) => stackOf.get(d) === stackId);
    if (inside.length) moved.DependsOn = inside;
    else delete moved.DependsOn;
    for (const condition of referencesOf(resource).conditions) {
      stack.template.Conditions = stack.template.Conditions || {};
      stack.template.Conditions[condition] = template.Conditions[condition];
    }
    stack.template.Resources[id] = moved;
    delete resources[id];
  }

  // Root resources and outputs: references to a nested resource become the nested stack's outputs.
  const toOutput = (target, attribute) => {
    const stackId = stackOf.get(target);
    if (!stackId) return undefined;
    const name = `${target}${(attribute || '').replace(/[^A-Za-z0-9]/g, '')}`;
    nested[stackId].template.Outputs[name] = { Value: attribute ? { 'Fn::GetAtt': [target, attribute] } : { Ref: target } };
    return { 'Fn::GetAtt': [stackId, `Outputs.${name}`] };
  };
  for (const [id, resource] of Object.entries(resources)) {
    const rewritten = rewriteReferences(resource, toOutput);
    if (resource.DependsOn) rewritten.DependsOn = [...new Set(asList(resource.DependsOn).map((d) => stackOf.get(d) || d))];
    resources[id] = rewritten;
  }
  if (template.Outputs) template.Outputs = rewriteReferences(template.Outputs, toOutput);

  for (const [stackId, stack] of Object.entries(nested)) {
    stack.resource.DependsOn = [...new Set(stack.resource.DependsOn)].sort();
    if (!stack.resource.DependsOn.length) delete stack.resource.DependsOn;
    if (!Object.keys(stack.template.Outputs).length) delete stack.template.Outputs;
    resources[stackId] = stack.resource;
    const counts = { resources: Object.keys(stack.template.Resources).length, parameters: Object.keys(stack.template.Parameters).length, outputs: Object.keys(stack.template.Outputs || {}).length };
    for (const [what, limit] of Object.entries(LIMITS)) if (counts[what] > limit) throw new Error(`nested stacks: ${stackId} has ${counts[what]} ${what}, CloudFormation allows ${limit}`);
  }
  for (const t of [template, ...Object.values(nested).map((n) => n.template)]) statedOnce(t.Resources);
  assertAcyclic(resources);
  return nested;
}

/**
 * Drops a DependsOn that a reference of the same resource states already (osls writes both for a
 * route and its integration, a stage and its log group): CloudFormation waits all the same, and
 * cfn-lint (W3005) asks for the dependency once.
 */
function statedOnce(resources) {
  for (const resource of Object.values(resources)) {
    if (!resource.DependsOn) continue;
    const referenced = referencesOf([resource.Properties, resource.UpdatePolicy]).ids;
    const rest = asList(resource.DependsOn).filter((d) => !referenced.has(d));
    if (rest.length) resource.DependsOn = rest;
    else delete resource.DependsOn;
  }
}

/** CloudFormation refuses a circular dependency; say which, at package time rather than at deploy. */
function assertAcyclic(resources) {
  const edges = (id) => [...referencesOf(resources[id].Properties).ids, ...asList(resources[id].DependsOn)].filter((d) => d in resources);
  const state = new Map();
  const visit = (id, trail) => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'open') throw new Error(`nested stacks: circular dependency ${[...trail, id].join(' -> ')}`);
    state.set(id, 'open');
    for (const d of edges(id)) visit(d, [...trail, id]);
    state.set(id, 'done');
  };
  for (const id of Object.keys(resources)) visit(id, []);
}

class NestedStacks {
  constructor(serverless, options) {
    this.serverless = serverless;
    this.options = options;
    this.provider = serverless.getProvider('aws');
    this.hooks = {
      'after:aws:package:finalize:mergeCustomProviderResources': () => this.split(),
      'aws:deploy:deploy:uploadArtifacts': () => this.upload(),
    };
  }

  /** Where osls writes the compiled template while packaging, and reads the package from to deploy. */
  get workPath() {
    return path.join(this.serverless.serviceDir, '.serverless');
  }

  split() {
    const provider = this.serverless.service.provider;
    const bucket = provider.deploymentBucket || { Ref: 'ServerlessDeploymentBucket' };
    const directory = this.serverless.service.package.artifactDirectoryName;
    const templateUrl = (fileName) => ({ 'Fn::Join': ['', ['https://s3.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/', bucket, `/${directory}/${fileName}`]] });
    let nested;
    try {
      nested = splitTemplate(provider.compiledCloudFormationTemplate, { templateUrl });
    } catch (error) {
      throw new this.serverless.classes.Error(error.message);
    }
    fs.mkdirSync(this.workPath, { recursive: true });
    for (const stack of Object.values(nested)) fs.writeFileSync(path.join(this.workPath, stack.fileName), JSON.stringify(stack.template, null, 2));
  }

  /** Uploads the nested templates into this deploy's artifact folder, next to the root template. */
  async upload() {
    if (this.serverless.service.provider.shouldNotDeploy) return;
    const uploadS3Object = require('serverless/lib/plugins/aws/lib/upload-s3-object');
    const setS3UploadEncryptionOptions = require('serverless/lib/aws/set-s3-upload-encryption-options');
    const bucket = await this.provider.getServerlessDeploymentBucketName();
    const directory = this.serverless.service.package.artifactDirectoryName;
    for (const fileName of fs.readdirSync(this.workPath).filter((f) => NESTED_FILE.test(f))) {
      let params = { Bucket: bucket, Key: `${directory}/${fileName}`, Body: fs.readFileSync(path.join(this.workPath, fileName)), ContentType: 'application/json' };
      const bucketObject = this.serverless.service.provider.deploymentBucketObject;
      if (bucketObject) params = setS3UploadEncryptionOptions(params, bucketObject);
      await uploadS3Object(this.provider, params);
    }
  }
}

module.exports = NestedStacks;
module.exports.splitTemplate = splitTemplate;
module.exports.NESTED_FILE = NESTED_FILE;
