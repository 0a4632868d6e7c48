/**
 * Local stage only (serverless.yml lists it instead of serverless-esbuild for `--stage local`):
 * serverless-offline serves the handlers straight from TypeScript source, so start-up bundles nothing.
 * Its in-process runner (`useInProcess` in serverless.yml) is given our handler host (./handler-host.cjs):
 * a pool of threads that load the `.ts` handlers through tsx and run invocations side by side, as
 * Lambda scales a function out, instead of one thread per request in flight.
 * This plugin makes an edit live: on a change under functions/, lib/ or schemas/ the host starts
 * fresh threads (fresh module caches) for the next requests.
 * It also makes serverless-offline answer like API Gateway (./api-gateway-fidelity.cjs).
 * CommonJS because osls loads local plugins with require().
 */
'use strict';
const { existsSync, watch } = require('node:fs');
const { dirname, join } = require('node:path');
const { installApiGatewayFidelity } = require('./api-gateway-fidelity.cjs');
const { HandlerHost } = require('./handler-host.cjs');

const WATCHED = ['functions', 'lib', 'schemas'];

/** Where the local stage's secrets come from (lib/config/env.ts SECRET_VARIABLES). */
const LOCAL_SECRET_VARIABLES = ['JWT_SECRET', 'API_SERVICE_TOKENS'];

class SourceHandlers {
  constructor(serverless) {
    this.serverless = serverless;
    this.watchers = [];
    // The environment serverless-offline was started with, before its in-process runner adds the
    // functions' variables to it.
    this.startEnv = { ...process.env };
    const serviceDir = serverless.serviceDir || serverless.config.servicePath;
    installApiGatewayFidelity(serviceDir);
    // The schema check of serverless.yml is a quarter of osls's start-up, and the local stage never
    // deploys: every other stage (this plugin is the local stage's only) is checked on package and
    // deploy, and `serverless package --stage prod` runs in the tests (tests/e2e/package.test.ts).
    serverless.configSchemaHandler.validateConfig = async () => undefined;
    this.hooks = {
      'before:offline:start:init': () => {
        // Without it serverless-offline would start its own worker per function, and never ask the host.
        if (serverless.service.custom?.['serverless-offline']?.useInProcess !== true) {
          throw new Error('scripts/sls/source-handlers.cjs needs `useInProcess: true` under custom.serverless-offline');
        }
        this.host = new HandlerHost({ env: this.lambdaEnv() });
        serveFromHost(serviceDir, this.host);
        // The readiness probe of npm start and the tests calls the health function first.
        const health = serverless.service.functions?.health?.handler;
        if (health) sourceOf(join(serviceDir, health), (file, name) => this.host.prewarm(file, name));
        this.watch();
      },
      'offline:start:end': () => this.close(),
    };
  }

  /**
   * What serverless-offline gives every function (LambdaFunction.js): the AWS_ variables of its own
   * environment, the provider's `environment`, the region and IS_OFFLINE. The per-function names
   * (AWS_LAMBDA_FUNCTION_NAME, _HANDLER) are left out: one thread serves every function, and
   * nothing in functions/ or lib/ reads them (the invocation's context names the function).
   *
   * And the local stage's secrets: a deployed function reads them from the secret store, the local
   * stage from these variables of the environment it was started in (lib/store/secrets/load.ts,
   * lib/config/env.ts SECRET_VARIABLES); serverless.yml no longer passes them on, so without this every
   * function ran on the dev defaults and refused the service token the tests and `npm start` set.
   */
  lambdaEnv() {
    const provider = this.serverless.service.provider;
    const env = Object.fromEntries(Object.entries(this.startEnv).filter(([key]) => key.startsWith('AWS_')));
    Object.assign(env, {
      AWS_REGION: provider.region,
      AWS_DEFAULT_REGION: provider.region,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: provider.memorySize,
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      LANG: 'en_US.UTF-8',
      LAMBDA_TASK_ROOT: '/var/task',
      LAMBDA_RUNTIME_DIR: '/var/runtime',
    });
    Object.assign(env, provider.environment, { IS_OFFLINE: 'true' });
    for (const name of LOCAL_SECRET_VARIABLES) if (this.startEnv[name]) env[name] = this.startEnv[name];
    return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
  }

  watch() {
    const dir = this.serverless.serviceDir || this.serverless.config.servicePath;
    let timer;
    const changed = new Set();
    const reload = async () => {
      const files = [...changed];
      changed.clear();
      this.host.reload();
      process.stderr.write(`handlers reloaded (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''})\n`);
    };
    for (const folder of WATCHED) {
      const watcher = watch(join(dir, folder), { recursive: true }, (_event, file) => {
        if (!file || !/\.(ts|json)$/.test(String(file))) return;
        changed.add(join(folder, String(file)));
        clearTimeout(timer);
        // Editors write a file in several steps: one reload per burst.
        timer = setTimeout(() => void reload().catch((err) => console.error(`reload failed: ${err.message}`)), 50);
      });
      watcher.unref();
      this.watchers.push(watcher);
    }
  }

  close() {
    for (const watcher of this.watchers.splice(0)) watcher.close();
    return this.host?.close();
  }
}

const SOURCE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

/**
 * serverless-offline's in-process runner asks `load(servicePath, "<dir>/<module>.<export>")` of the
 * Lambda runtime's loader (its copy of aws-lambda-ric's UserFunction.js, CommonJS) for the handler
 * on every invocation. Replacing that export before the runner is first imported hands it the
 * host's function instead: serverless-offline keeps the HTTP side, the event, the timeout and the
 * error answers; the host runs the code.
 */
function serveFromHost(serviceDir, host) {
  const offlineEntry = require.resolve('serverless-offline', { paths: [serviceDir] });
  const loader = join(dirname(offlineEntry), 'lambda/handler-runner/in-process-runner/aws-lambda-ric/UserFunction.js');
  // Loaded already, its `load` may be bound in the runner: handlers would run in this process, once
  // loaded forever (an edit would never go live). Better to stop here than to serve stale code.
  if (require.cache[loader]) throw new Error(`serverless-offline loaded ${loader} before the handler host could replace its load()`);
  const userFunction = require(loader);
  const handlers = new Map();
  userFunction.load = async (_appRoot, fullHandlerString) => {
    let handler = handlers.get(fullHandlerString);
    if (!handler) {
      handler = sourceOf(fullHandlerString, (file, name) => host.handler(file, name));
      handlers.set(fullHandlerString, handler);
    }
    return handler;
  };
}

/** Calls `use` with the source file and export of a handler string (`<dir>/<module>.<export>`). */
function sourceOf(fullHandlerString, use) {
  const dot = fullHandlerString.lastIndexOf('.');
  const modulePath = fullHandlerString.slice(0, dot);
  const file = SOURCE_EXTENSIONS.map((ext) => modulePath + ext).find((f) => existsSync(f));
  if (!file) throw new Error(`No source file for the handler ${fullHandlerString}`);
  return use(file, fullHandlerString.slice(dot + 1));
}

module.exports = SourceHandlers;
