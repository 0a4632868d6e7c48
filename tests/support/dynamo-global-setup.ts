/**
 * One DynamoDB Local for the whole test run (in memory, free port), shared by every project that lists
 * this global setup: it starts with the first of them and stops after the last. Each project gets its
 * own table (`participation-test-<project>`), and tests use unique site ids, so files run in parallel
 * against the same database without colliding.
 */
import type { TestProject } from 'vitest/node';
import { startDynamoLocal, type DynamoLocal } from '../../scripts/dynamo-local.ts';

/** Kept on globalThis: vitest may load this module once per project, in one process. */
interface Shared {
  dynamo: Promise<DynamoLocal>;
  users: number;
}
const KEY = Symbol.for('participation-api.tests.dynamo-local');
const registry = globalThis as typeof globalThis & { [KEY]?: Shared };

function acquire(): Promise<DynamoLocal> {
  const shared = (registry[KEY] ??= { dynamo: startDynamoLocal({ use: 'tests' }), users: 0 });
  shared.users++;
  return shared.dynamo;
}

async function release(): Promise<void> {
  const shared = registry[KEY];
  if (!shared || --shared.users > 0) return;
  registry[KEY] = undefined;
  await shared.dynamo.then((dynamo) => dynamo.stop(), () => undefined);
}

/**
 * A start that fails (or runs past its budget on a very busy machine) does not abort the run: vitest
 * would end every project for a global setup that throws. It is handed to the project's files
 * instead (`layerStartError`), which fail with it (tests/support/integration-env.ts); the other
 * projects run on.
 */
export default async function setup(project: TestProject) {
  const tableName = `participation-test-${project.name}`;
  project.provide('tableName', tableName);
  let dynamo: DynamoLocal;
  try {
    dynamo = await acquire();
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
    process.env.STAGE = 'test';
    const { ensureTable } = await import('#lib/store/db/table');
    await ensureTable(tableName);
  } catch (error) {
    project.provide('dynamoEndpoint', 'http://127.0.0.1:9');
    project.provide('layerStartError', `DynamoDB Local did not start for the ${project.name} project: ${(error as Error).message}`);
    return release;
  }
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('layerStartError', '');
  return release;
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    tableName: string;
    /** Why DynamoDB Local or the local stack (offline-global-setup.ts) did not start; '' when they did. */
    layerStartError: string;
  }
}
