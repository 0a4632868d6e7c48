/**
 * Refuses, before anything is built, what would break or expose a deployed stage:
 *
 * - a stage that serverless.yml does not declare deployable (`params.<stage>.deployable: true`):
 *   its protection settings would otherwise be guesses, and a stage named `test` on AWS is a mistake;
 * - on `deploy`: secrets in the stage's secret store that are missing, weak or the public dev
 *   defaults (`npm run secrets -- check`, the same checks the functions make; scripts/secrets.ts).
 *
 * Runs when the plugin is loaded, for `package`, `deploy` and `deploy function`: before any lifecycle
 * hook, so nothing is built or even announced ("Packaging ...") for a refused stage. The messages
 * name the fix. After a deploy it runs the smoke check (scripts/smoke.ts) against the
 * stage's URL; a failed check fails the deploy command (the stack stays as deployed: roll back by
 * docs/deploy.md "Rolling back").
 */
const { spawnSync } = require('node:child_process');
const path = require('node:path');

/** The commands that build or ship a stage. */
const GUARDED_COMMANDS = new Set(['package', 'deploy', 'deploy function']);

class DeployGuard {
  constructor(serverless, options, { log } = {}) {
    this.serverless = serverless;
    this.options = options;
    this.log = log;
    this.hooks = { 'after:deploy:deploy': () => this.smoke() };
    if (GUARDED_COMMANDS.has(this.command)) this.guard();
  }

  get command() {
    return (this.serverless.processedInput.commands || []).join(' ');
  }

  get stage() {
    return this.serverless.getProvider('aws').getStage();
  }

  guard() {
    const stage = this.stage;
    const declared = (this.serverless.configurationInput.params || {})[stage];
    if (!declared || declared.deployable !== true) {
      throw new this.serverless.classes.Error(
        `Stage "${stage}" is not declared deployable in serverless.yml. Declare it under params with its settings ` +
          `(params.${stage}.deployable: true; see the prod and staging blocks and docs/deploy.md "Stages"), ` +
          'or use a declared stage: ' +
          Object.entries(this.serverless.configurationInput.params || {})
            .filter(([, p]) => p && p.deployable === true)
            .map(([name]) => name)
            .join(', '),
      );
    }
    for (const name of ['JWT_SECRET', 'API_SERVICE_TOKENS']) {
      if (process.env[name] !== undefined && this.log) this.log.notice(`${name} is set in this shell and is not deployed: secrets come from the secret store (docs/deploy.md).`);
    }
    if (this.command.startsWith('deploy')) this.checkSecrets(stage);
  }

  /** The stage's stored secrets, checked by scripts/secrets.ts (it reads them with the deployer's credentials). */
  checkSecrets(stage) {
    const root = this.serverless.serviceDir;
    const region = this.serverless.getProvider('aws').getRegion();
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/secrets.ts'), 'check', '--stage', stage, '--region', region], {
      cwd: root,
      encoding: 'utf8',
      env: process.env,
    });
    const output = `${result.stdout || ''}${result.stderr || ''}`.trim();
    if (result.status !== 0) {
      throw new this.serverless.classes.Error(`The secrets of stage "${stage}" are not fit to deploy:\n${output}`);
    }
    if (this.log) this.log.notice(output);
  }

  /** The stage's public URL: the custom domain when set, else the HTTP API's own. */
  async stageUrl() {
    const provider = this.serverless.getProvider('aws');
    const domain = this.serverless.service.custom.domainName;
    if (domain) return `https://${domain}`;
    const stacks = await provider.request('CloudFormation', 'describeStacks', { StackName: provider.naming.getStackName() });
    const output = (stacks.Stacks[0].Outputs || []).find((o) => o.OutputKey === 'HttpApiUrl');
    return output && output.OutputValue;
  }

  async smoke() {
    if (this.options.noDeploy) return;
    const url = await this.stageUrl();
    if (!url) throw new this.serverless.classes.Error('No HttpApiUrl output: cannot run the smoke check (npm run smoke -- --url URL)');
    const root = this.serverless.serviceDir;
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/smoke.ts'), '--url', url], { cwd: root, encoding: 'utf8' });
    const output = `${result.stdout || ''}${result.stderr || ''}`.trim();
    if (result.status !== 0) throw new this.serverless.classes.Error(`The smoke check failed on ${url}:\n${output}`);
    if (this.log) this.log.notice(output);
  }
}

module.exports = DeployGuard;
