/**
 * `npm start`, `npm test` and `npm run test:quick` run this first (package.json `pre` scripts): on a
 * Node outside package.json's `engines` it stops with one line that says what to do, where the
 * dependencies would otherwise fail in ways that do not say why. Plain JavaScript, so it runs on any
 * Node. (`npm ci` itself refuses such a Node: `engine-strict` in .npmrc.)
 */
import { readFileSync } from 'node:fs';
import satisfies from 'semver/functions/satisfies.js';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

if (!satisfies(process.version, engines.node)) {
  console.error(`Node ${process.version} is not supported: this project needs Node ${engines.node} (.nvmrc says 22: \`nvm use\` or \`fnm use\`).`);
  process.exit(1);
}
