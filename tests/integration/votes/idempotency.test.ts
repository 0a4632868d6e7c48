/**
 * Idempotency-Key on POST /vote: a retried round answers the first response and writes nothing twice.
 * Likes are used on purpose: without the key, sending the same round twice would cancel the vote.
 */
import { describe, expect, it } from 'vitest';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { doc } from '#lib/store/db/client';
import { updateSite } from '#lib/store/sites/sites';
import { idempotencyPutItem } from '#lib/store/ballots/idempotency';
import { getBallot } from '#lib/store/ballots/ballots';
import { createUser } from '#tests/support/fixtures';
import { castVotes, createIdea, createIdeas, expectTalliesMatchBallots, storedTallies, votingSite } from '#tests/support/vote-fixtures';
import { errorOf } from '#tests/support/bodies';

const key = (k: string) => ({ 'Idempotency-Key': k });

describe('Idempotency-Key', () => {
  it('a repeated round returns the first answer and does not toggle again', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const idea = await createIdea(site.id);
    const user = await createUser(site.id);
    const first = await castVotes(site.id, user.token, [{ ideaId: idea.id }], key('round-1'));
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await castVotes(site.id, user.token, [{ ideaId: idea.id }], key('round-1'));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await storedTallies(site.id)).toEqual({ [idea.id]: { yes: 1 } });
    expect((await getBallot(site.id, user.id))!.version).toBe(1);

    // `opinion` defaulted or written out is the same round.
    expect((await castVotes(site.id, user.token, { ideaId: idea.id, opinion: 'yes' }, key('round-1'))).status).toBe(200);
    // A new key is a new round: this one cancels the like.
    const cancel = await castVotes(site.id, user.token, [{ ideaId: idea.id }], key('round-2'));
    expect(cancel.body).toEqual([]);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({});
  });

  it('the same key with another round is a 409; keys are per user', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [a, b] = await createIdeas(site.id, 2);
    const user = await createUser(site.id);
    const other = await createUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: a }], key('k'))).status).toBe(200);
    const different = await castVotes(site.id, user.token, [{ ideaId: b }], key('k'));
    expect(different.status).toBe(409);
    expect(errorOf(different.body).error).toBe('Conflict');
    const otherUser = await castVotes(site.id, other.token, [{ ideaId: b }], key('k'));
    expect(otherUser.status).toBe(200);
    expect(otherUser.body.map((v) => v.userId)).toEqual([other.id]);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [a]: { yes: 1 }, [b]: { yes: 1 } });
  });

  it('replays the stored answer even after voting closed', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const idea = await createIdea(site.id);
    const user = await createUser(site.id);
    const first = await castVotes(site.id, user.token, [{ ideaId: idea.id }], key('before-close'));
    await updateSite(site.id, { config: { votes: { isActive: false } }, updatedAt: new Date().toISOString() });
    const replay = await castVotes(site.id, user.token, [{ ideaId: idea.id }], key('before-close'));
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect((await castVotes(site.id, user.token, [{ ideaId: idea.id }], key('after-close'))).status).toBe(403);
  });

  it('errors are not stored: a refused round can be fixed and sent with the same key', async () => {
    const site = await votingSite({ voteType: 'count', withExisting: 'replace', minIdeas: 2 });
    const [a, b] = await createIdeas(site.id, 2);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: a }], key('retry'))).status).toBe(400);
    expect((await castVotes(site.id, user.token, [{ ideaId: a }, { ideaId: b }], key('retry-2'))).status).toBe(200);
  });

  it('an expired stored answer is ignored and replaced', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [a, b] = await createIdeas(site.id, 2);
    const user = await createUser(site.id);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await doc.send(
      new TransactWriteCommand({
        TransactItems: [
          idempotencyPutItem(site.id, `vote#${user.id}`, 'old', { requestHash: 'other', response: {}, createdAt: twoDaysAgo.toISOString() }, 24 * 3600, twoDaysAgo),
        ],
      }),
    );
    const res = await castVotes(site.id, user.token, [{ ideaId: a }], key('old'));
    expect(res.status).toBe(200);
    expect((await castVotes(site.id, user.token, [{ ideaId: a }], key('old'))).body).toEqual(res.body);
    expect((await castVotes(site.id, user.token, [{ ideaId: b }], key('old'))).status).toBe(409);
  });

  it.each([[''], ['has space'], ['ä'], ['x'.repeat(129)], ['a/b']])('a malformed key %j is a 400', async (k) => {
    const site = await votingSite();
    const idea = await createIdea(site.id);
    const user = await createUser(site.id);
    const res = await castVotes(site.id, user.token, [{ ideaId: idea.id }], key(k));
    expect(res.status).toBe(400);
    expect(errorOf(res.body).error).toBe('BadRequest');
    expect(await getBallot(site.id, user.id)).toBeUndefined();
  });

  it('accepts 128 characters of [A-Za-z0-9_-]', async () => {
    const site = await votingSite();
    const idea = await createIdea(site.id);
    const user = await createUser(site.id);
    expect((await castVotes(site.id, user.token, [{ ideaId: idea.id }], key(`${'aZ0_-'.repeat(25)}abc`))).status).toBe(200);
  });

  it('30 concurrent duplicates: all get the same answer, the vote is stored once', async () => {
    const site = await votingSite({ voteType: 'likes' });
    const [a, b] = await createIdeas(site.id, 2);
    const user = await createUser(site.id);
    const body = [{ ideaId: a, opinion: 'yes' }, { ideaId: b, opinion: 'no' }];
    const results = await Promise.all(Array.from({ length: 30 }, () => castVotes(site.id, user.token, body, key('burst'))));
    expect(results.map((r) => r.status)).toEqual(Array(30).fill(200));
    for (const r of results) expect(r.body).toEqual(results[0]!.body);
    expect(results[0]!.body.map((v: { ideaId: number; opinion: string }) => [v.ideaId, v.opinion])).toEqual([[a, 'yes'], [b, 'no']]);
    expect(results.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(await expectTalliesMatchBallots(site.id)).toEqual({ [a]: { yes: 1 }, [b]: { no: 1 } });
    expect((await getBallot(site.id, user.id))!.version).toBe(1);
  });
});
