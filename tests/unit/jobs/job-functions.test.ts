/**
 * Each job Lambda imports its own job's `run` (so its bundle holds that job only): the function file,
 * the job it names and the module it imports `run` from must be the same job.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JOB_NAMES } from '#schemas/job';

const dir = fileURLToPath(new URL('../../../functions/jobs/', import.meta.url));
const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

describe('job functions', () => {
  it('there is one per job', () => {
    expect(files.map((f) => f.replace(/\.ts$/, '')).sort()).toEqual([...JOB_NAMES].sort());
  });

  it.each(files)('%s runs the job it is named after, with that job\'s own run', (file) => {
    const name = file.replace(/\.ts$/, '');
    const source = readFileSync(dir + file, 'utf8');
    expect(source).toContain(`import { run } from '#lib/jobs/${name}';`);
    expect(source).toContain(`scheduledJob('${name}', run)`);
  });
});
