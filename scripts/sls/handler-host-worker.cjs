/**
 * A thread of the handler host (started by ./handler-host.cjs): loads handlers from TypeScript
 * source through tsx and runs the invocations the serverless-offline process sends it. Each function
 * gets its own instance of the project's modules (./instance-modules.mjs), loaded on its first
 * invocation in this thread (its cold start); the dependencies under node_modules (tsx, the AWS SDK,
 * zod, Middy) are loaded once per thread. The host sends an instance one invocation at a time.
 * A fresh thread is a fresh module cache: that is how an edit goes live (the host starts new threads).
 */
'use strict';
const { parentPort } = require('node:worker_threads');
const { register } = require('node:module');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

// tsx's ES module loader for this thread (through our fix of its API, whatever the preloads were),
// then the per-function instances (registered last, so it resolves first and asks tsx).
require('./tsx-esm-api-fix.cjs');
require('tsx/esm/api').register();
register('./instance-modules.mjs', { parentURL: pathToFileURL(__filename).href, data: { projectRoot: pathToFileURL(join(__dirname, '..', '..', '/')).href } });

/** instance -> the promise of its module namespace; a failed load is forgotten so the next call retries. */
const modules = new Map();

function load(instance, file) {
  let loading = modules.get(instance);
  if (!loading) {
    loading = import(`${pathToFileURL(file).href}?lambda-instance=${encodeURIComponent(instance)}`);
    loading.catch(() => modules.delete(instance));
    modules.set(instance, loading);
  }
  return loading;
}

/** The Lambda context a handler sees: the data the host sent plus the runtime's methods. */
function lambdaContext(context, deadline, callback) {
  return {
    ...context,
    getRemainingTimeInMillis: () => Math.max(0, Math.floor(deadline - Date.now())),
    done: (err, result) => callback(err, result),
    fail: (err) => callback(err),
    succeed: (result) => callback(null, result),
  };
}

/** Calls a handler as the Node.js Lambda runtime does: its promise or its callback, whichever settles first. */
async function invoke(handler, event, contextData, deadline) {
  let callback;
  const called = new Promise((resolve, reject) => {
    callback = (err, result) => (err ? reject(err) : resolve(result));
  });
  const returned = handler(event, lambdaContext(contextData, deadline, callback), callback);
  return returned != null && typeof returned.then === 'function' ? Promise.race([called, returned]) : called;
}

/**
 * What crosses back of a thrown value: its name, message and stack. A structured clone of the value
 * itself is not always an Error on the other side (a module that failed to load arrives as a plain
 * object), and serverless-offline answers an error only for an Error.
 */
function thrown(value) {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (value && typeof value === 'object' && typeof value.message === 'string') return { name: String(value.name ?? 'Error'), message: value.message, stack: value.stack };
  return { name: 'Error', message: String(value) };
}

function answer(message) {
  try {
    parentPort.postMessage(message);
  } catch (err) {
    // An answer that cannot cross threads (a function in it) fails as the Lambda would: an error.
    parentPort.postMessage({ id: message.id, error: thrown(new Error(`The handler's answer could not be sent: ${err.message}`)) });
  }
}

parentPort.on('message', async ({ preload, id, instance, file, name, event, context, timeout }) => {
  // Loaded ahead of its first invocation (a failure is reported by that invocation).
  if (preload) return void load(preload.instance, preload.file).catch(() => undefined);
  try {
    const handler = (await load(instance, file))[name];
    if (typeof handler !== 'function') throw new Error(`${name} is not a function exported by ${file}`);
    // The deadline counts from now, once the function's modules are loaded (its cold start), as
    // Lambda and serverless-offline's runner count it; the host starts its own timer with it.
    parentPort.postMessage({ id, started: true });
    answer({ id, result: await invoke(handler, event, context, Date.now() + timeout) });
  } catch (error) {
    answer({ id, error: thrown(error) });
  }
});
