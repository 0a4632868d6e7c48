/**
 * Bodies the domain checks against the site's own rules, after access (lib/content/body.ts): the
 * edge takes any JSON object, as `jsonObjectBody` does. Each route gets its own copy, so the document
 * can tell which body a route takes by the very object the handler validates with
 * (lib/openapi/components.ts shows each with the fields the domain checks).
 */
import { jsonObjectBody } from '#schemas/content-item';

export const siteRuledBody = (): typeof jsonObjectBody => jsonObjectBody.clone();
