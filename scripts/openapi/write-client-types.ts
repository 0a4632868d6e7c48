/** Rewrites examples/typed-client/schema.d.ts from the current OpenAPI document (scripts/openapi/client-types.ts). */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLIENT_TYPES_FILE, clientTypes } from './client-types.ts';

writeFileSync(fileURLToPath(new URL(`../../${CLIENT_TYPES_FILE}`, import.meta.url)), await clientTypes());
console.log(`wrote ${CLIENT_TYPES_FILE}`);
