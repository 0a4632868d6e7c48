import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { doc, TABLE } from '#lib/store/db/client';
import { argumentKeys } from '#lib/store/arguments/keys';
import { invoke } from '#tests/support/invoke';
import { createUser, SERVICE_TOKEN, type TestUser } from '#tests/support/fixtures';
import { createIdea } from '#tests/support/ideas-fixture';
import { countRequests } from '#tests/support/request-counter';
import { argumentId, world } from './helpers.ts';
import { handler as vote } from '../../../functions/arguments/vote.ts';
import { handler as getArgument } from '../../../functions/arguments/get.ts';
import type { ArgumentRecordShape } from '#schemas/argument';

const toggle = (w: { siteId: number; ideaId: number }, argumentId: number | string, token?: string, body?: unknown) =>
  invoke<ArgumentRecordShape>(vote, {
    method: 'POST',
    params: { siteId: w.siteId, ideaId: w.ideaId, argumentId },
    ...(token ? { token } : {}),
    ...(body !== undefined ? { body } : {}),
  });

async function storedVotes(siteId: number, ideaId: number, argumentId: number) {
  const out = await doc.send(new GetCommand({ TableName: TABLE, Key: argumentKeys.argument(siteId, ideaId, argumentId), ConsistentRead: true }));
  return { item: out.Item, yes: out.Item?.yes as number, voterIds: [...((out.Item?.voterIds as Set<number>) ?? [])].sort((a, b) => a - b) };
}

describe('argument vote toggle', () => {
  it('toggles the caller’s vote and answers the argument with yes and hasUserVoted', async () => {
    const w = await world();
    const id = await argumentId(w, w.member.token);
    const first = await toggle(w, id, w.other.token);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id, ideaId: w.ideaId, siteId: w.siteId, yes: 1, hasUserVoted: true });
    expect(first.body).not.toHaveProperty('voterIds');

    const second = await toggle(w, id, w.member.token, {});
    expect(second.body).toMatchObject({ yes: 2, hasUserVoted: true });
    const undo = await toggle(w, id, w.other.token);
    expect(undo.body).toMatchObject({ yes: 1, hasUserVoted: false });
    const redo = await toggle(w, id, w.other.token);
    expect(redo.body).toMatchObject({ yes: 2, hasUserVoted: true });
    expect(await storedVotes(w.siteId, w.ideaId, id)).toMatchObject({ yes: 2, voterIds: [w.member.id, w.other.id].sort((a, b) => a - b) });

    const both = await toggle(w, id, w.member.token);
    expect(both.body).toMatchObject({ yes: 1, hasUserVoted: false });
    await toggle(w, id, w.other.token);
    const none = await storedVotes(w.siteId, w.ideaId, id);
    expect(none.yes).toBe(0);
    expect(none.voterIds).toEqual([]);
    // Votes never touch the argument's own fields.
    expect((await invoke<ArgumentRecordShape>(getArgument, { params: { siteId: w.siteId, ideaId: w.ideaId, argumentId: id } })).body.updatedAt).toBe(first.body.updatedAt);
  });

  it('needs a member: 401 without token, 403 for an anonymous-role user and for a service token', async () => {
    const w = await world();
    const id = await argumentId(w, w.member.token);
    const noToken = await toggle(w, id);
    expect(noToken.status).toBe(401);
    const anonymousRole = await createUser(w.siteId, 'anonymous');
    expect((await toggle(w, id, anonymousRole.token)).status).toBe(403);
    expect((await toggle(w, id, SERVICE_TOKEN)).status).toBe(403);
    expect((await toggle(w, id, w.moderator.token)).status).toBe(200);
    expect((await storedVotes(w.siteId, w.ideaId, id)).yes).toBe(1);
  });

  it('answers 404 for unknown arguments and ideas without creating anything, and 400 for bad ids', async () => {
    const w = await world();
    const id = await argumentId(w, w.member.token);
    const otherIdea = await createIdea(w.siteId, null);
    const unknown = await toggle(w, 999_999_999, w.member.token);
    expect(unknown.status).toBe(404);
    expect((await storedVotes(w.siteId, w.ideaId, 999_999_999)).item).toBeUndefined();
    const wrongIdea = await toggle({ siteId: w.siteId, ideaId: otherIdea.id }, id, w.member.token);
    expect(wrongIdea.status).toBe(404);
    expect((await storedVotes(w.siteId, otherIdea.id, id)).item).toBeUndefined();
    expect((await toggle({ siteId: w.siteId, ideaId: 999_999_999 }, id, w.member.token)).status).toBe(404);
    for (const bad of ['abc', '0', '-1', '1.5', '012']) expect((await toggle(w, bad, w.member.token)).status).toBe(400);
    expect((await storedVotes(w.siteId, w.ideaId, id)).yes).toBe(0);
  });

  it('costs site + caller (one BatchGet) + idea check + one UpdateItem', async () => {
    const w = await world();
    const id = await argumentId(w, w.member.token);
    const { requests, commands } = await countRequests(() => toggle(w, id, w.other.token));
    expect(requests).toBe(3);
    expect(commands).toEqual({ BatchGetItemCommand: 1, GetItemCommand: 1, UpdateItemCommand: 1 });
  });

  it('stays exact under concurrent toggles: 40 users at once, some toggling twice or three times', async () => {
    const w = await world();
    const id = await argumentId(w, w.member.token);
    const voters: TestUser[] = await Promise.all(Array.from({ length: 40 }, () => createUser(w.siteId, 'member')));
    // Users 0..9 toggle twice (net: no vote), 10..14 three times (net: voted), the rest once.
    const timesFor = (i: number) => (i < 10 ? 2 : i < 15 ? 3 : 1);
    const calls = voters.flatMap((user, i) => Array.from({ length: timesFor(i) }, () => user));
    const answers = await Promise.all(calls.map((user) => toggle(w, id, user.token)));
    expect(answers.map((a) => a.status).every((s) => s === 200)).toBe(true);

    const expected = voters.filter((_, i) => timesFor(i) % 2 === 1).map((u) => u.id).sort((a, b) => a - b);
    const stored = await storedVotes(w.siteId, w.ideaId, id);
    expect(expected).toHaveLength(30);
    expect(stored.voterIds).toEqual(expected);
    expect(stored.yes).toBe(stored.voterIds.length);
    // Every answer is a state the argument really passed through: a count between none and everybody,
    // the last toggle applied answered the final count, and each user's own answers alternate (a toggle
    // adds the vote when it is absent and takes it back when present), whatever the interleaving.
    for (const a of answers) {
      expect(Number.isInteger(a.body.yes) && a.body.yes! >= 0 && a.body.yes! <= voters.length).toBe(true);
    }
    expect(answers.some((a) => a.body.yes === expected.length)).toBe(true);
    voters.forEach((user, i) => {
      const own = answers.filter((_, k) => calls[k] === user).map((a) => a.body.hasUserVoted as boolean);
      expect(own.filter(Boolean), `user ${i}`).toHaveLength(Math.ceil(timesFor(i) / 2));
      expect(own.filter((v) => !v), `user ${i}`).toHaveLength(Math.floor(timesFor(i) / 2));
    });

    // Everybody once more, at once: the 30 take their vote back, the 10 double-togglers vote.
    await Promise.all(voters.map((user) => toggle(w, id, user.token)));
    const after = await storedVotes(w.siteId, w.ideaId, id);
    expect(after.voterIds).toEqual(voters.filter((_, i) => timesFor(i) === 2).map((u) => u.id).sort((a, b) => a - b));
    expect(after.yes).toBe(10);

    const listed = await invoke<ArgumentRecordShape>(getArgument, {
      params: { siteId: w.siteId, ideaId: w.ideaId, argumentId: id },
      query: { withVoteCount: '1', withUserVote: '1' },
      token: voters[0]!.token,
    });
    expect(listed.body).toMatchObject({ yes: 10, hasUserVoted: true });
  });
});
