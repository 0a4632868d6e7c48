/**
 * The block `npm start` prints once the API answers: where everything is, the token to call it with,
 * where to log in, how to fill it with demo content. Short on purpose: it is what a developer copies
 * from, and it must fit on a screen.
 */
import { DEMO_SITE_ID } from './demo-site.ts';
interface StatusFacts {
  seconds: string;
  apiUrl: string;
  authUrl: string;
  demoUsers: string[];
  dynamoEndpoint: string;
  inMemory: boolean;
  dataDir: string;
  serviceToken: string;
  jobsEverySeconds: number;
}

export function statusBlock(f: StatusFacts): string {
  const login = `${f.apiUrl}/oauth/site/${DEMO_SITE_ID}/login?redirectUrl=${f.apiUrl}/api/site/${DEMO_SITE_ID}`;
  // The one-off scripts find this stack by themselves (scripts/start/running-stacks.ts).
  const seed = 'npm run seed -- --demo   (or npm start -- --demo)';
  const rows: Array<[string, string]> = [
    ['API', `${f.apiUrl}   (docs: ${f.apiUrl}/api/docs)`],
    ['Dev token', `X-Authorization: Bearer ${f.serviceToken}   (admin on every site)`],
    ['Log in', `${login}   (users: ${f.demoUsers.join(', ')})`],
    ['Demo content', seed],
    ['Auth server', f.authUrl],
    ['DynamoDB', `${f.dynamoEndpoint}   (${f.inMemory ? 'in memory: gone at Ctrl-C' : `data in ${f.dataDir}`})`],
    ['Jobs', `every ${f.jobsEverySeconds} s; one now: npm run job -- <name> [--site N] [--now ISO]`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    '',
    `The participation API is ready in ${f.seconds} s`,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    `  Try it: curl ${f.apiUrl}/api/site/${DEMO_SITE_ID}   Edits to functions/, lib/ and schemas/ are live on the next request. Ctrl-C stops.`,
    '',
  ].join('\n');
}
