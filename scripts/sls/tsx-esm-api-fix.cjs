/**
 * Preloaded (`--require`) into the serverless-offline process, and so into each of its handler
 * worker threads. serverless-offline loads a `.ts` handler after calling `register()` of
 * `tsx/esm/api` (tsx's ES module loader for that thread). In the tsx release we use, that CommonJS
 * entry resolves its loader against the wrong folder (`dist/esm/api/esm/index.mjs`) and throws;
 * serverless-offline then falls back to require(), which cannot load our ESM-only dependencies
 * (@middy/core). This registers the same loader (`tsx/esm`, dist/esm/index.mjs) the way tsx does.
 */
'use strict';
const { register } = require('node:module');
const { pathToFileURL } = require('node:url');
const { MessageChannel } = require('node:worker_threads');
const api = require('tsx/esm/api');

const apiUrl = pathToFileURL(require.resolve('tsx/esm/api')).href;

api.register = () => {
  const { port1, port2 } = new MessageChannel();
  port1.unref();
  register('../index.mjs', { parentURL: apiUrl, data: { port: port2 }, transferList: [port2] });
  return async () => undefined;
};
