import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { argumentKeys } from '#lib/store/arguments/keys';
import { userKeys } from '#lib/store/users/keys';
import { newId } from '#lib/store/db/ids';
import * as store from '#lib/store/arguments/arguments';
import { invoke } from '#tests/support/invoke';
import { countRequests } from '#tests/support/request-counter';
import { createSite, createUser, SERVICE_TOKEN } from '#tests/support/fixtures';
import { createIdea, removeIdeaItem } from '#tests/support/ideas-fixture';
import { argumentId, LONG, postArgument, world } from './helpers.ts';
import { handler as createArgument } from '../../../functions/arguments/create.ts';
import { handler as getArgument } from '../../../functions/arguments/get.ts';
import { handler as updateArgument } from '../../../functions/arguments/update.ts';
import { handler as deleteArgument } from '../../../functions/arguments/delete.ts';
import { handler as listArguments } from '../../../functions/arguments/list.ts';
import type { ArgumentRecordShape } from '#schemas/argument';
import { errorOf, type Deleted, type ListEnvelope } from '#tests/support/bodies';

const at = (w: { siteId: number; ideaId: number }, argumentId: number | string) => ({
  siteId: w.siteId,
  ideaId: w.ideaId,
  argumentId,
});

describe('creating arguments', () => {
  it('creates an argument as a member: 201 with the CONTRACT record, sentiment defaults to for', async () => {
    const w = await world();
    const res = await postArgument(w, w.member.token);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ['createdAt', 'description', 'id', 'ideaId', 'parentId', 'sentiment', 'siteId', 'updatedAt', 'userId'].sort(),
    );
    expect(res.body).toMatchObject({
      siteId: w.siteId,
      ideaId: w.ideaId,
      userId: w.member.id,
      parentId: null,
      sentiment: 'for',
      description: LONG,
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);

    const stored = await doc.send(new GetCommand({ TableName: TABLE, Key: argumentKeys.argument(w.siteId, w.ideaId, res.body.id) }));
    expect(stored.Item).toMatchObject({ ...userKeys.ownedBy(w.member.id, 'ARG', res.body.id), yes: 0 });

    const against = await postArgument(w, w.member.token, { sentiment: 'against' });
    expect(against.body.sentiment).toBe('against');
    expect(against.body.id).toBeGreaterThan(res.body.id);
  });

  it('needs a token (401) and rejects a bad sentiment and out-of-range descriptions (400)', async () => {
    const w = await world({ arguments: { descriptionMinLength: 10, descriptionMaxLength: 20 } });
    const anonymous = await invoke<ArgumentRecordShape>(createArgument, {
      method: 'POST',
      params: { siteId: w.siteId, ideaId: w.ideaId },
      body: { description: 'long enough text' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ status: 401, error: 'Unauthorized' });

    const sentiment = await postArgument(w, w.member.token, { description: 'long enough text', sentiment: 'neutral' });
    expect(sentiment.status).toBe(400);
    expect(sentiment.body).toMatchObject({ error: 'ValidationError', details: [{ path: 'sentiment' }] });

    for (const description of ['too short', 'x'.repeat(21), '        padded     ']) {
      const res = await postArgument(w, w.member.token, { description });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'ValidationError', details: [{ path: 'description' }] });
    }
    expect((await postArgument(w, w.member.token, { description: 'x'.repeat(20) })).status).toBe(201);
    expect((await postArgument(w, w.member.token, { description: 'x'.repeat(10) })).status).toBe(201);
    // Characters, not UTF-16 units: ten emoji are ten characters.
    expect((await postArgument(w, w.member.token, { description: '🙂'.repeat(10) })).status).toBe(201);

    const missing = await postArgument(w, w.member.token, { description: undefined });
    expect(missing.status).toBe(400);
    expect(errorOf(missing.body).details![0]!.path).toBe('description');
  });

  it('uses the default lengths 30..500', async () => {
    const w = await world();
    expect((await postArgument(w, w.member.token, { description: 'x'.repeat(29) })).status).toBe(400);
    expect((await postArgument(w, w.member.token, { description: 'x'.repeat(30) })).status).toBe(201);
    expect((await postArgument(w, w.member.token, { description: 'x'.repeat(500) })).status).toBe(201);
    expect((await postArgument(w, w.member.token, { description: 'x'.repeat(501) })).status).toBe(400);
  });

  it('answers 403 with closedText to members when arguments are closed; moderators may still post', async () => {
    const w = await world({ arguments: { isClosed: true, closedText: 'De reacties zijn gesloten' } });
    const res = await postArgument(w, w.member.token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ status: 403, error: 'Forbidden', message: 'De reacties zijn gesloten' });
    expect((await postArgument(w, w.moderator.token)).status).toBe(201);
    expect((await postArgument(w, SERVICE_TOKEN)).status).toBe(201);
  });

  it('lets only moderators set userId, which must be a user of the site', async () => {
    const w = await world();
    const member = await postArgument(w, w.member.token, { userId: w.other.id });
    expect(member.status).toBe(403);
    const asOther = await postArgument(w, w.moderator.token, { userId: w.other.id });
    expect(asOther.status).toBe(201);
    expect(asOther.body.userId).toBe(w.other.id);

    const foreign = await createUser((await createSite()).id, 'member');
    const nowhere = await postArgument(w, w.moderator.token, { userId: foreign.id });
    expect(nowhere.status).toBe(400);
    expect(errorOf(nowhere.body).details![0]!.path).toBe('userId');

    const service = await postArgument(w, SERVICE_TOKEN);
    expect(service.status).toBe(201);
    expect(service.body.userId).toBeNull();
  });

  it('answers 404 for an idea that does not exist or lives on another site, and 400 for bad ids', async () => {
    const w = await world();
    const otherSite = await createSite();
    const foreignIdea = await createIdea(otherSite.id, null);
    expect((await postArgument({ siteId: w.siteId, ideaId: 999_999_999 }, w.member.token)).status).toBe(404);
    const foreign = await postArgument({ siteId: w.siteId, ideaId: foreignIdea.id }, w.member.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ status: 404, error: 'NotFound', message: `Idea ${foreignIdea.id} not found on site ${w.siteId}` });
    for (const bad of ['abc', '0', '-1', '1.5', '012', '1e3']) {
      const res = await postArgument({ siteId: w.siteId, ideaId: bad as unknown as number }, w.member.token);
      expect(res.status).toBe(400);
    }
    expect((await postArgument({ siteId: 999_999_999, ideaId: w.ideaId }, w.member.token)).status).toBe(404);
  });

  it('makes replies to top-level arguments of the same idea only', async () => {
    const w = await world();
    const top = await argumentId(w, w.member.token);
    const reply = await postArgument(w, w.other.token, { parentId: top, sentiment: 'against' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ parentId: top, sentiment: 'against', userId: w.other.id });

    const nested = await postArgument(w, w.member.token, { parentId: reply.body.id });
    expect(nested.status).toBe(400);
    expect(errorOf(nested.body).details![0]).toMatchObject({ path: 'parentId' });

    const otherIdea = await createIdea(w.siteId, w.member.id);
    const elsewhere = await argumentId({ siteId: w.siteId, ideaId: otherIdea.id }, w.member.token);
    const crossIdea = await postArgument(w, w.member.token, { parentId: elsewhere });
    expect(crossIdea.status).toBe(400);
    expect((await postArgument(w, w.member.token, { parentId: 999_999_999 })).status).toBe(400);
    for (const parentId of ['1', 0, -3, 1.5]) {
      const res = await postArgument(w, w.member.token, { parentId });
      expect(res.status).toBe(400);
      expect(errorOf(res.body).details![0]!.path).toBe('parentId');
    }
    expect((await postArgument(w, w.member.token, { parentId: null })).body.parentId).toBeNull();
  });

  it('does not write an argument whose idea or parent was deleted after the checks (transaction conditions)', async () => {
    const w = await world();
    const now = new Date().toISOString();
    const item = (id: number, parentId: number | null) => ({
      id,
      siteId: w.siteId,
      ideaId: w.ideaId,
      userId: null,
      parentId,
      sentiment: 'for' as const,
      description: LONG,
      createdAt: now,
      updatedAt: now,
    });
    const orphanReply = newId();
    expect(await store.putNewArgument(item(orphanReply, 999_999_999))).toBe('parent-missing');
    expect(await store.getArgument(w.siteId, w.ideaId, orphanReply)).toBeUndefined();

    await removeIdeaItem(w.siteId, w.ideaId);
    const orphan = newId();
    expect(await store.putNewArgument(item(orphan, null))).toBe('idea-missing');
    expect(await store.getArgument(w.siteId, w.ideaId, orphan)).toBeUndefined();
    expect((await postArgument(w, w.member.token)).status).toBe(404);
  });
});

describe('reading one argument', () => {
  it('returns the record, with vote flags on request', async () => {
    const w = await world();
    const id = await argumentId(w, w.member.token);
    const { result: res, requests } = await countRequests(() => invoke<ArgumentRecordShape>(getArgument, { params: at(w, id) }));
    expect(res.status).toBe(200);
    expect(requests).toBe(3); // anonymous: the site, then the idea check and the argument side by side
    expect(res.body).toMatchObject({ id, ideaId: w.ideaId, siteId: w.siteId, description: LONG });
    expect(res.body).not.toHaveProperty('yes');
    expect(res.body).not.toHaveProperty('hasUserVoted');
    expect(res.body).not.toHaveProperty('voterIds');
    const flagged = await invoke<ArgumentRecordShape>(getArgument, { params: at(w, id), query: { withVoteCount: '1', withUserVote: 'true' }, token: w.member.token });
    expect(flagged.body).toMatchObject({ yes: 0, hasUserVoted: false });
    expect((await invoke(getArgument, { params: at(w, id), query: { withVoteCount: 'yes' } })).status).toBe(400);
  });

  it('answers 404 for an unknown argument, one of another idea or site, or an unknown idea', async () => {
    const w = await world();
    const id = await argumentId(w, w.member.token);
    const otherIdea = await createIdea(w.siteId, null);
    const other = await world();
    expect((await invoke(getArgument, { params: at(w, 999_999_999) })).status).toBe(404);
    const wrongIdea = await invoke<ArgumentRecordShape>(getArgument, { params: at({ siteId: w.siteId, ideaId: otherIdea.id }, id) });
    expect(wrongIdea.status).toBe(404);
    expect(errorOf(wrongIdea.body).message).toBe(`Argument ${id} not found on idea ${otherIdea.id}`);
    expect((await invoke(getArgument, { params: { siteId: other.siteId, ideaId: w.ideaId, argumentId: id } })).status).toBe(404);
    expect((await invoke(getArgument, { params: { siteId: w.siteId, ideaId: 999_999_999, argumentId: id } })).status).toBe(404);
    expect((await invoke(getArgument, { params: at(w, '01') })).status).toBe(400);
  });
});

describe('updating arguments', () => {
  const put = (w: { siteId: number; ideaId: number }, id: number, token: string | undefined, body: unknown) =>
    invoke<ArgumentRecordShape>(updateArgument, { method: 'PUT', params: at(w, id), body, ...(token ? { token } : {}) });

  it('updates partially as the owner', async () => {
    const w = await world();
    const created = (await postArgument(w, w.member.token, { sentiment: 'against' })).body;
    const res = await put(w, created.id, w.member.token, { description: `${LONG} Edited.` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, description: `${LONG} Edited.`, sentiment: 'against', userId: w.member.id });
    expect(res.body.createdAt).toBe(created.createdAt);
    expect(res.body.updatedAt >= created.updatedAt).toBe(true);
    const flipped = await put(w, created.id, w.member.token, { sentiment: 'for' });
    expect(flipped.body).toMatchObject({ sentiment: 'for', description: `${LONG} Edited.` });
    expect((await invoke<ArgumentRecordShape>(getArgument, { params: at(w, created.id) })).body.sentiment).toBe('for');
  });

  it('answers 401 without a token, 403 for another member, 200 for a moderator', async () => {
    const w = await world();
    const id = await argumentId(w, w.member.token);
    expect((await put(w, id, undefined, { description: LONG })).status).toBe(401);
    const other = await put(w, id, w.other.token, { description: `${LONG} hijacked` });
    expect(other.status).toBe(403);
    expect(errorOf(other.body).error).toBe('Forbidden');
    expect((await invoke<ArgumentRecordShape>(getArgument, { params: at(w, id) })).body.description).toBe(LONG);
    expect((await put(w, id, w.moderator.token, { description: `${LONG} moderated` })).status).toBe(200);
  });

  it('validates sentiment, description length and userId; userId is for moderators only', async () => {
    const w = await world();
    const id = await argumentId(w, w.member.token);
    expect((await put(w, id, w.member.token, { sentiment: 'maybe' })).status).toBe(400);
    expect((await put(w, id, w.member.token, { description: 'short' })).status).toBe(400);
    expect((await put(w, id, w.member.token, { description: 'x'.repeat(501) })).status).toBe(400);
    const member = await put(w, id, w.member.token, { userId: w.other.id });
    expect(member.status).toBe(403);
    expect((await invoke<ArgumentRecordShape>(getArgument, { params: at(w, id) })).body.userId).toBe(w.member.id);
    expect((await put(w, id, w.moderator.token, { userId: 999_999_999 })).status).toBe(400);

    const moved = await put(w, id, w.moderator.token, { userId: w.other.id });
    expect(moved.status).toBe(200);
    expect(moved.body.userId).toBe(w.other.id);
    const stored = await doc.send(new GetCommand({ TableName: TABLE, Key: argumentKeys.argument(w.siteId, w.ideaId, id) }));
    expect(stored.Item).toMatchObject(userKeys.ownedBy(w.other.id, 'ARG', id));
    // The old owner has lost it, the new one has it.
    expect((await put(w, id, w.member.token, { description: LONG })).status).toBe(403);
    expect((await put(w, id, w.other.token, { description: LONG })).status).toBe(200);
  });

  it('answers 404 for unknown arguments and ideas, and when the argument is of another idea', async () => {
    const w = await world();
    const id = await argumentId(w, w.member.token);
    const otherIdea = await createIdea(w.siteId, w.member.id);
    expect((await put(w, 999_999_999, w.member.token, { description: LONG })).status).toBe(404);
    expect((await put({ siteId: w.siteId, ideaId: otherIdea.id }, id, w.member.token, { description: LONG })).status).toBe(404);
    expect((await put({ siteId: w.siteId, ideaId: 999_999_999 }, id, w.member.token, { description: LONG })).status).toBe(404);
  });
});

describe('deleting arguments', () => {
  const del = (w: { siteId: number; ideaId: number }, id: number, token?: string) =>
    invoke<Deleted>(deleteArgument, { method: 'DELETE', params: at(w, id), ...(token ? { token } : {}) });

  it('deletes a top-level argument with its replies, and leaves other threads alone', async () => {
    const w = await world();
    const top = await argumentId(w, w.member.token);
    const replies = [await argumentId(w, w.other.token, { parentId: top }), await argumentId(w, w.moderator.token, { parentId: top })];
    const keep = await argumentId(w, w.other.token);
    const keepReply = await argumentId(w, w.member.token, { parentId: keep });

    expect((await del(w, top)).status).toBe(401);
    expect((await del(w, top, w.other.token)).status).toBe(403);
    const res = await del(w, top, w.member.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: top, deleted: true });
    for (const id of [top, ...replies]) expect((await invoke(getArgument, { params: at(w, id) })).status).toBe(404);
    const left = await invoke<ListEnvelope<ArgumentRecordShape>>(listArguments, { params: { siteId: w.siteId, ideaId: w.ideaId } });
    expect(left.body.records.map((r: { id: number }) => r.id)).toEqual([keep, keepReply]);
    expect((await del(w, top, w.member.token)).status).toBe(404);
  });

  it('deletes a single reply as its owner or a moderator', async () => {
    const w = await world();
    const top = await argumentId(w, w.member.token);
    const reply = await argumentId(w, w.other.token, { parentId: top });
    const reply2 = await argumentId(w, w.other.token, { parentId: top });
    expect((await del(w, reply, w.member.token)).status).toBe(403);
    expect((await del(w, reply, w.other.token)).status).toBe(200);
    expect((await del(w, reply2, w.moderator.token)).status).toBe(200);
    expect((await invoke(getArgument, { params: at(w, top) })).status).toBe(200);
  });

  it('answers 404 for another idea or an unknown idea', async () => {
    const w = await world();
    const id = await argumentId(w, w.member.token);
    const otherIdea = await createIdea(w.siteId, null);
    expect((await del({ siteId: w.siteId, ideaId: otherIdea.id }, id, w.moderator.token)).status).toBe(404);
    expect((await del({ siteId: w.siteId, ideaId: 999_999_999 }, id, w.moderator.token)).status).toBe(404);
    expect((await invoke(getArgument, { params: at(w, id) })).status).toBe(200);
  });
});
