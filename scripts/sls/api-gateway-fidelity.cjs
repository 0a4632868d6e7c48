/**
 * Local stage only (loaded by ./source-handlers.cjs inside the serverless-offline process): makes
 * what a client sees from serverless-offline what it sees from API Gateway (HTTP API, payload 2.0)
 * in front of our handlers. serverless-offline differs in ways that hide bugs from frontends:
 *
 * - CORS: it reflects any `Origin` with `Access-Control-Allow-Credentials: true` and rewrites every
 *   preflight to 200. API Gateway without a `cors` block (ours) passes the handler's answer through,
 *   so that hook of serverless-offline is not installed: the handlers' own CORS headers and 204 stand.
 * - Lambda errors and timeouts: it answers 200 with the error's stack trace. API Gateway answers an
 *   error without internals; here it is the CONTRACT body, 500 (InternalError) or 504 (GatewayTimeout).
 * - Bodies: it parses a JSON body and hands the handler a non-string for `false`, `0` or `null`.
 *   API Gateway sends the body text as it came; so does this (the JSON parse is skipped).
 * - Its own errors (bad percent-encoding, request line or headers too long) are bare hapi answers;
 *   here they get the CONTRACT body.
 * - `npm start` sends `X-Local-Instance-Probe` with its readiness probe; the answer carries this
 *   process's `LOCAL_INSTANCE_ID`, so the probe knows it reached its own server, not another one that
 *   holds the port.
 */
'use strict';

const NAMES = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  500: 'InternalError',
  502: 'BadGateway',
  504: 'GatewayTimeout',
};
const GENERIC_500 = 'Something went wrong on our side; the error has been logged';
const JSON_TYPES = new Set(['application/json', 'application/vnd.api+json']);
const INSTALLED = Symbol('apiGatewayFidelity');

const errorBody = (status, message) => ({
  status,
  error: NAMES[status] ?? (status >= 500 ? 'InternalError' : 'BadRequest'),
  message: status >= 500 && status !== 504 ? GENERIC_500 : message,
});

/** What serverless-offline answers (status 200) when the handler threw or timed out. */
function lambdaFailure(response) {
  if (typeof response.source !== 'string' || !response.source.includes('"stackTrace"')) return undefined;
  try {
    const parsed = JSON.parse(response.source);
    if (parsed && typeof parsed.errorMessage === 'string' && Array.isArray(parsed.stackTrace) && 'errorType' in parsed) return parsed;
  } catch {
    // an ordinary answer
  }
  return undefined;
}

function install(server) {
  const instanceId = process.env.LOCAL_INSTANCE_ID;

  // Bodies reach the handler as text, whatever JSON they hold (serverless-offline only parses JSON
  // bodies to turn them back into text, except falsy ones). The Lambda event's headers come from the
  // raw request, so the handler still sees the client's Content-Type.
  server.ext('onPreHandler', (request, h) => {
    if (JSON_TYPES.has(request.mime)) request.mime = 'text/plain';
    return h.continue;
  });

  server.ext('onPreResponse', (request, h) => {
    let answer;
    const response = request.response;
    if (response.isBoom) {
      const status = response.output.statusCode;
      const said = response.output.payload.message;
      const message = status === 400 && (!said || said === 'Bad Request') ? 'Bad request: the URL could not be read (bad percent-encoding?)' : said;
      answer = h.response(errorBody(status, message)).code(status);
    } else {
      const failure = lambdaFailure(response);
      if (failure) {
        const timedOut = /\[504\]/.test(failure.errorMessage);
        answer = h.response(errorBody(timedOut ? 504 : 500, 'The request took longer than the function timeout')).code(timedOut ? 504 : 500);
      }
    }
    if (answer) answer.type('application/json; charset=utf-8');
    const target = answer ?? response;
    if (instanceId && request.headers['x-local-instance-probe'] !== undefined) target.header('x-local-instance', instanceId);
    return answer ?? h.continue;
  });

  // A request line or headers over Node's limit (16 KiB) never becomes a request: answer it here.
  server.listener.removeAllListeners('clientError');
  server.listener.on('clientError', (err, socket) => {
    if (!socket.writable) return socket.destroy(err);
    const tooLong = err.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify(errorBody(400, tooLong ? 'The request URL or headers are too long (over 16 KiB)' : 'The request could not be read'));
    socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
}

/** Patches hapi (the copy serverless-offline uses) before serverless-offline creates its servers. */
function installApiGatewayFidelity(serviceDir) {
  const Hapi = require(require.resolve('@hapi/hapi', { paths: [serviceDir] }));
  const proto = Object.getPrototypeOf(Hapi.server());
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const ext = proto.ext;
  proto.ext = function (event, method, options) {
    // serverless-offline's CORS hook (the only one that writes these headers): replaced by ours.
    if (event === 'onPreResponse' && typeof method === 'function' && String(method).includes('access-control-allow-credentials')) {
      install(this);
      return undefined;
    }
    return ext.call(this, event, method, options);
  };
}

module.exports = { installApiGatewayFidelity };
