/**
 * One thread that runs every handler of the local stack (./handler-host-worker.cjs), in place of
 * serverless-offline's one worker thread per function instance. serverless-offline starts a new
 * instance, and so a new thread that loads tsx, the AWS SDK and lib/ again (about 0.6 s of CPU and
 * 50 MB), for each request that arrives while the others are busy: 10 requests in flight meant 10
 * threads per function. The host loads each module once and runs invocations side by side.
 *
 * `reload()` (a source file changed) retires the thread: the next invocation starts a fresh one, so
 * it loads the new code; the old thread ends once its invocations have answered. An invocation that
 * outlives its function timeout retires its thread too, as Lambda would end that sandbox (a handler
 * stuck in a loop would otherwise hold the host).
 */
'use strict';
const { Worker } = require('node:worker_threads');
const { join } = require('node:path');

const WORKER = join(__dirname, 'handler-host-worker.cjs');
/** How long past its timeout an invocation may run before its thread is ended. */
const GRACE_MS = 1_000;

class HandlerHost {
  /** @param {{ env: Record<string, string> }} options the Lambda environment of every function */
  constructor({ env }) {
    this.env = env;
    this.current = undefined;
    this.nextId = 0;
  }

  /** A function serverless-offline's in-process runner can call as the handler `exportName` of `file`. */
  handler(file, exportName) {
    return (event, context) => this.invoke(file, exportName, event, context);
  }

  invoke(file, name, event, context) {
    const thread = (this.current ??= this.start());
    const id = ++this.nextId;
    const remaining = context.getRemainingTimeInMillis();
    // Only the context's data crosses threads; the worker adds the runtime's methods again. Their
    // deadline is the function's timeout (whole seconds, as Lambda has them) counted from when the
    // module is loaded, as serverless-offline's own runner counts it: serverless-offline's timer,
    // which answers the 504, starts before the load, so it still ends a slow call before Middy's
    // early timeout (a few ms short of that deadline) turns it into a 500.
    const timeout = Math.ceil(remaining / 1000) * 1000;
    const { done: _d, fail: _f, succeed: _s, getRemainingTimeInMillis: _g, ...data } = context;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        thread.pending.delete(id);
        this.retire(thread);
        reject(new Error(`The handler ran past its timeout (${remaining} ms); its thread was ended`));
      }, remaining + GRACE_MS);
      timer.unref();
      thread.pending.set(id, { resolve, reject, timer });
      thread.worker.postMessage({ id, file, name, event, context: data, timeout });
    });
  }

  start() {
    const worker = new Worker(WORKER, { env: this.env });
    const thread = { worker, pending: new Map(), retired: false };
    worker.unref();
    worker.on('message', ({ id, result, error }) => {
      const call = thread.pending.get(id);
      if (!call) return;
      thread.pending.delete(id);
      clearTimeout(call.timer);
      if (error !== undefined) call.reject(Object.assign(new Error(error.message), { name: error.name, stack: error.stack ?? `${error.name}: ${error.message}` }));
      else call.resolve(result);
      if (thread.retired && thread.pending.size === 0) void worker.terminate();
    });
    worker.on('error', (err) => this.fail(thread, err));
    worker.on('exit', (code) => this.fail(thread, new Error(`The handler thread stopped (exit code ${code})`)));
    return thread;
  }

  /** Ends the thread's pending invocations with `err`; the next invocation starts a new thread. */
  fail(thread, err) {
    if (this.current === thread) this.current = undefined;
    thread.retired = true;
    for (const call of thread.pending.values()) {
      clearTimeout(call.timer);
      call.reject(err);
    }
    thread.pending.clear();
  }

  /** New invocations go to a new thread; this one ends when its last invocation has answered. */
  retire(thread) {
    if (this.current === thread) this.current = undefined;
    thread.retired = true;
    if (thread.pending.size === 0) void thread.worker.terminate();
  }

  reload() {
    if (this.current) this.retire(this.current);
  }

  async close() {
    const thread = this.current;
    this.current = undefined;
    if (thread) await thread.worker.terminate();
  }
}

module.exports = { HandlerHost };
