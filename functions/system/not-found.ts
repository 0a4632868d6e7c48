/**
 * The catch-all route (`$default`): an unknown path or method gets the CONTRACT 404 body, and a CORS
 * preflight (OPTIONS) gets 204 with the headers of the site named in the path.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { withHttpStack } from '#lib/http/handler';
import { corsHeaders } from '#lib/http/cors';
import { notFound } from '#lib/http/errors';
import { getSite } from '#lib/store/sites';

const SITE_IN_PATH = /^\/(?:api|oauth)\/site\/([1-9][0-9]{0,14})(?:\/|$)/;

async function allowedDomainsFor(path: string): Promise<string[] | undefined> {
  const id = SITE_IN_PATH.exec(path)?.[1];
  if (!id) return undefined;
  const site = await getSite(Number(id));
  return site?.config?.allowedDomains;
}

export const handler = withHttpStack(async (event: APIGatewayProxyEventV2) => {
  const method = event.requestContext.http.method.toUpperCase();
  const path = event.rawPath ?? event.requestContext.http.path;
  if (method === 'OPTIONS') {
    const domains = await allowedDomainsFor(path);
    return {
      statusCode: 204,
      headers: corsHeaders(event.headers.origin, method, domains, event.headers['access-control-request-method']),
      body: '',
    };
  }
  throw notFound(`No route for ${method} ${path}`);
});
