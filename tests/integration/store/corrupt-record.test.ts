/**
 * A stored item that does not have its kind's shape (lib/store/db/codec.ts) is the service's fault, not
 * the client's: the request is answered with the generic 500 InternalError and the log says which item
 * and what is wrong with it, without the item's values. Attributes no schema names still read.
 * The logger's level is read at import, so it is set before anything is imported (vi.hoisted).
 */
import { errorOf } from '#tests/support/bodies';
import type { IdeaRecord } from '#schemas/idea';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.LOG_LEVEL = 'error';
});

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { contentKeys } from '#lib/store/content/keys';
import { createSite, createUser } from '#tests/support/fixtures';
import { invoke } from '#tests/support/invoke';
import { validIdea } from '../ideas/helpers.ts';
import { handler as createIdea } from '../../../functions/ideas/create.ts';
import { handler as getIdea } from '../../../functions/ideas/get.ts';
import { handler as listIdeas } from '../../../functions/ideas/list.ts';

/** A JSON line of the logger, as far as these tests read it. */
interface LogLine {
  level?: string;
  error?: { name?: string; message: string; kind?: string; key?: string; problem?: unknown };
}

/** The JSON lines the logger writes (errors go to stderr) while `fn` runs, and what `fn` returned. */
async function withLogLines<T>(fn: () => Promise<T>): Promise<{ result: T; lines: LogLine[] }> {
  const written: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  };
  const spies = [vi.spyOn(process.stdout, 'write').mockImplementation(capture), vi.spyOn(process.stderr, 'write').mockImplementation(capture)];
  let result: T;
  try {
    result = await fn();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  const lines = written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
  return { result, lines };
}

afterEach(() => vi.restoreAllMocks());

async function storedIdea() {
  const site = await createSite();
  const member = await createUser(site.id);
  const res = await invoke<IdeaRecord>(createIdea, { method: 'POST', params: { siteId: site.id }, body: validIdea(), token: member.token });
  expect(res.status).toBe(201);
  return { siteId: site.id, ideaId: res.body.id };
}

const setAttribute = (key: { PK: string; SK: string }, name: string, value: unknown) =>
  doc.send(new UpdateCommand({ TableName: TABLE, Key: key, UpdateExpression: 'SET #a = :v', ExpressionAttributeNames: { '#a': name }, ExpressionAttributeValues: { ':v': value } }));

describe('a corrupt stored item', () => {
  it('is a 500 InternalError, logged with its key and first problem, on a read and a list alike', async () => {
    const { siteId, ideaId } = await storedIdea();
    const key = contentKeys.idea(siteId, ideaId);
    await setAttribute(key, 'title', 271_828);

    const { result: res, lines } = await withLogLines(() => invoke(getIdea, { params: { siteId, ideaId } }));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status: 500, error: 'InternalError', message: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/IDEA#|title|271828/);
    const logged = lines.find((line) => line.level === 'ERROR' && line.error?.name === 'CorruptRecordError');
    expect(logged, JSON.stringify(lines)).toBeDefined();
    expect(logged!.error!.message).toContain(`${key.PK} ${key.SK}`);
    expect(logged!.error).toMatchObject({ kind: 'idea or article', key: `${key.PK} ${key.SK}`, problem: { path: 'title' } });
    expect(logged!.error!.message).toMatch(/title .*expected string/);
    expect(JSON.stringify(logged)).not.toContain('271828');

    const list = await withLogLines(() => invoke(listIdeas, { params: { siteId } }));
    expect(list.result.status).toBe(500);
    expect(errorOf(list.result.body).error).toBe('InternalError');
  });

  it('an attribute no schema names is no corruption: the item still reads', async () => {
    const { siteId, ideaId } = await storedIdea();
    await setAttribute(contentKeys.idea(siteId, ideaId), 'addedByALaterRelease', { any: ['shape'] });
    const res = await invoke<IdeaRecord>(getIdea, { params: { siteId, ideaId } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(ideaId);
  });
});
