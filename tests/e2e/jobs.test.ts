/**
 * End to end: a scheduled job run through `npm run job` (scripts/job.ts, a separate process) against
 * the table serverless-offline serves, with its clock set by `--now`; the effect is then seen over HTTP.
 */
import { LOCAL_TABLE_NAME } from '../../scripts/local-stack-env.ts';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { errorOf, type ListEnvelope, type SiteBody } from '#tests/support/bodies';
import type { NotificationRecord } from '#schemas/notification';

const apiUrl = inject('apiUrl');
const root = fileURLToPath(new URL('../..', import.meta.url));
const auth = { 'X-Authorization': `Bearer ${SERVICE_TOKEN}`, 'Content-Type': 'application/json' };

const call = async <T = unknown>(method: string, path: string, body?: unknown) => {
  const res = await fetch(`${apiUrl}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: auth });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
};

describe('npm run job', () => {
  it('ends a project whose end date has passed, as the Lambda would', async () => {
    const created = await call<SiteBody>('POST', '/api/site/', {
      name: 'e2e lifecycle',
      config: { project: { endDate: '2040-01-01T00:00:00Z' }, notifications: { projectmanagerAddress: 'pm@city.example.org' } },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;

    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'job', '--', 'end-projects', '--site', String(id), '--now', '2040-01-02T00:00:00Z'], {
      cwd: root,
      // The table serverless-offline serves (scripts/job.ts defaults to it) on this run's DynamoDB Local.
      env: { ...process.env, DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT, TABLE_NAME: LOCAL_TABLE_NAME },
    });
    expect(stdout).toContain(`site ${id}: project ended, notification`);

    const site = await call<SiteBody>('GET', `/api/site/${id}`);
    expect(site.body.config.project).toMatchObject({ projectHasEnded: true, endDateNotificationSent: true });
    const outbox = await call<ListEnvelope<NotificationRecord>>('GET', `/api/site/${id}/notification?status=pending`);
    expect(outbox.status).toBe(200);
    expect(outbox.body.records).toEqual([expect.objectContaining({ kind: 'project-ended', to: 'pm@city.example.org', createdAt: '2040-01-02T00:00:00.000Z' })]);
    const idea = await call('POST', `/api/site/${id}/idea`, { title: 'A park by the river', summary: 'Green space for everyone nearby', description: 'x'.repeat(150) });
    expect(idea.status).toBe(403);
    expect(errorOf(idea.body).message).toMatch(/project has ended/);
  });
});
