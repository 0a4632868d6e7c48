/**
 * Local stage only (serverless.yml lists it instead of serverless-esbuild for `--stage local`):
 * serverless-offline serves the handlers straight from TypeScript source (it loads `.ts` through tsx,
 * one worker thread per function, each with a fresh module cache), so start-up bundles nothing.
 * This plugin makes an edit live: on a change under functions/, lib/ or schemas/ it asks
 * serverless-offline to drop its workers (`offline:functionsUpdated`, the event serverless-esbuild
 * also sends after a rebuild); the next request loads the new code.
 * It also makes serverless-offline answer like API Gateway (./api-gateway-fidelity.cjs).
 * CommonJS because osls loads local plugins with require().
 */
'use strict';
const { watch } = require('node:fs');
const { join } = require('node:path');
const { installApiGatewayFidelity } = require('./api-gateway-fidelity.cjs');

const WATCHED = ['functions', 'lib', 'schemas'];

class SourceHandlers {
  constructor(serverless) {
    this.serverless = serverless;
    this.watchers = [];
    installApiGatewayFidelity(serverless.serviceDir || serverless.config.servicePath);
    this.hooks = {
      'before:offline:start:init': () => this.watch(),
      'offline:start:end': () => this.close(),
    };
  }

  watch() {
    const dir = this.serverless.serviceDir || this.serverless.config.servicePath;
    let timer;
    const changed = new Set();
    const reload = async () => {
      const files = [...changed];
      changed.clear();
      await this.serverless.pluginManager.spawn('offline:functionsUpdated');
      process.stdout.write(`handlers reloaded (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''})\n`);
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
  }
}

module.exports = SourceHandlers;
