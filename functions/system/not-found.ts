/**
 * The catch-all route (`$default`): an unknown path or method gets the CONTRACT 404 body, and a CORS
 * preflight (OPTIONS) gets 204 with the headers of the site named in the path.
 *
 * Under a site closed by Basic Auth an unknown path is a 401 first, like every other path of the
 * site (CONTRACT "Decided details, security"): without the credentials nobody learns which paths
 * exist. Preflights are the exception: browsers never send credentials on them, and they answer
 * nothing but the CORS headers.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { withHttpStack } from '#lib/http/stack';
import { corsHeaders, corsRequestOf, type CorsContext } from '#lib/http/cors';
import { notFound } from '#lib/errors';
import { assertBasicAuth } from '#lib/auth/basic-auth';
import { findSite } from '#lib/sites/site';
import { catchAll } from '#lib/routes/system/catch-all';

const SITE_IN_PATH = /^\/(?:api|oauth)\/site\/([1-9][0-9]{0,15})(?:\/|$)/;

const run = withHttpStack(async (event: APIGatewayProxyEventV2, context: Context) => {
  const method = event.requestContext.http.method.toUpperCase();
  const path = event.rawPath ?? event.requestContext.http.path;
  const id = SITE_IN_PATH.exec(path)?.[1];
  const site = id && Number.isSafeInteger(Number(id)) ? await findSite(Number(id)) : undefined;
  if (method === 'OPTIONS') {
    return {
      statusCode: 204,
      headers: corsHeaders(corsRequestOf(event), site?.config.allowedDomains),
      body: '',
    };
  }
  if (site) {
    (context as unknown as CorsContext).allowedDomains = site.config.allowedDomains;
    assertBasicAuth(site.config, event.headers.authorization, site.name);
  }
  throw notFound(`No route for ${method} ${path}`);
});

// Its access class travels with it, as apiHandler's do (tests/support/access-check.ts checks its reads).
export const handler = Object.assign(run, { dataAccess: catchAll.dataAccess, operationId: catchAll.functionName });
