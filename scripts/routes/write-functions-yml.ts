/** Rewrites every functions/<resource>/functions.yml from the route declarations (./functions-yml.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { functionsYmlFiles } from './functions-yml.ts';

const root = join(import.meta.dirname, '../..');
for (const [file, content] of functionsYmlFiles()) {
  const path = join(root, file);
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    // A new resource: written below.
  }
  if (current === content) continue;
  writeFileSync(path, content);
  console.log(`wrote ${file}`);
}
