/**
 * `npm run smoke -- --url URL`: is a deployed stage answering as it should? The health check (the
 * table is reachable), a public read (the site list), and the API's documentation (the page and the
 * OpenAPI document). Prints one line per check; exit 1 when any fails. A deploy runs it against the
 * stage's URL (scripts/sls/deploy-guard.cjs); run it by hand after a rollback or a restore.
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { url: { type: 'string' }, timeout: { type: 'string', default: '10000' } } });
const base = values.url?.replace(/\/+$/, '');
if (!base || !/^https?:\/\//.test(base)) {
  console.error('usage: npm run smoke -- --url https://<api>');
  process.exit(1);
}

interface Check {
  name: string;
  path: string;
  ok: (status: number, type: string, body: string) => string | undefined;
}

const json = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
};

export const CHECKS: Check[] = [
  { name: 'health', path: '/api/health', ok: (s, _t, b) => (s === 200 && (json(b) as { status?: string })?.status === 'ok' ? undefined : `expected 200 {"status":"ok"}, got ${s} ${b.slice(0, 200)}`) },
  { name: 'public read: the site list', path: '/api/site', ok: (s, t, b) => (s === 200 && t.includes('json') && json(b) !== undefined ? undefined : `expected 200 JSON, got ${s} ${t}`) },
  { name: 'docs page', path: '/api/docs', ok: (s, t) => (s === 200 && t.includes('text/html') ? undefined : `expected 200 text/html, got ${s} ${t}`) },
  { name: 'OpenAPI document', path: '/api/openapi.json', ok: (s, _t, b) => (s === 200 && typeof (json(b) as { openapi?: unknown })?.openapi === 'string' ? undefined : `expected 200 with an openapi version, got ${s}`) },
];

let failed = 0;
for (const check of CHECKS) {
  try {
    const answer = await fetch(`${base}${check.path}`, { signal: AbortSignal.timeout(Number(values.timeout)) });
    const problem = check.ok(answer.status, answer.headers.get('content-type') ?? '', await answer.text());
    console.log(`${problem ? 'FAIL' : 'ok  '} ${check.name} (GET ${check.path})${problem ? `: ${problem}` : ''}`);
    if (problem) failed += 1;
  } catch (error) {
    failed += 1;
    console.log(`FAIL ${check.name} (GET ${check.path}): ${(error as Error).message}`);
  }
}
console.log(failed ? `${failed} of ${CHECKS.length} checks failed on ${base}` : `all ${CHECKS.length} checks passed on ${base}`);
process.exitCode = failed ? 1 : 0;
