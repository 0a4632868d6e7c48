/**
 * Odd input that is VALID must be stored and read back exactly, or refused with a CONTRACT 4xx, never
 * a 5xx: texts of control characters, bidi overrides, zero-width and astral characters (and lone
 * surrogates), extraData and config of any JSON, records grown by merges until they no longer fit.
 * This is the other half of the hostile suite: the requests here may be accepted.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TOKEN } from '#tests/support/fixtures';
import { assertContractError, describe as show } from '#tests/support/hostile/contract';
import { oddString } from '#tests/support/hostile/arbitraries';
import { isStorableNumber } from '#lib/store/db/storable';
import { routeNamed } from '#tests/support/hostile/routes';
import { send, type HostileRequest } from '#tests/support/hostile/send';
import { buildSiteWorld, type SiteWorld } from '#tests/support/hostile/world';

const params = (seed: number) => ({ seed, numRuns: 15, endOnFailure: true });

let w: SiteWorld;
beforeAll(async () => {
  w = await buildSiteWorld();
});

/** JSON the table can hold (lib/store/db/storable.ts), with odd strings and keys: mostly accepted. */
const { storableJson } = fc.letrec<{ storableJson: unknown }>((tie) => ({
  storableJson: fc.oneof(
    { depthSize: 'small', maxDepth: 4 },
    oddString(0, 12),
    fc.string({ maxLength: 12 }),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }).filter(isStorableNumber),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('storableJson'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), oddString(1, 4)), tie('storableJson'), { maxKeys: 4 }),
  ),
}));

/** Mostly storable JSON, sometimes anything JSON can say: stored exactly or refused, never a failure. */
const anyJson = fc.oneof({ arbitrary: storableJson, weight: 5 }, { arbitrary: fc.jsonValue({ maxDepth: 4 }), weight: 1 });
const extraDataOf = (values: fc.Arbitrary<unknown>) =>
  fc.dictionary(fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), oddString(1, 4)), values, { maxKeys: 5 });
const anyExtraData = fc.oneof({ arbitrary: extraDataOf(storableJson), weight: 5 }, { arbitrary: extraDataOf(fc.jsonValue({ maxDepth: 4 })), weight: 1 });

/** What JSON makes of a value (`-0` is `0`, own `__proto__` keys stay), for comparing round trips. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/** extraData as stored from a create: top-level nulls are not stored. */
const storedExtraData = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(asJson(value) as Record<string, unknown>).filter(([, v]) => v !== null));

async function call(name: string, req: HostileRequest) {
  const route = routeNamed(name);
  const answer = await send(route.handler, route, req);
  return { answer, json: answer.status < 300 && answer.text ? (JSON.parse(answer.text) as Record<string, unknown>) : undefined };
}

let acceptedCount = 0;

/** Accepted (then `check` the record) or a CONTRACT 4xx; never a 5xx. */
async function acceptedOrRefused(name: string, req: HostileRequest, accepted: number[], check: (record: Record<string, unknown>) => Promise<void>) {
  const { answer, json } = await call(name, req);
  if (accepted.includes(answer.status)) {
    acceptedCount += 1;
    await check(json!);
  } else {
    assertContractError(answer, {}, req);
  }
}

/** Most of these inputs are valid: a property whose requests were all refused would prove nothing. */
function expectMostlyAccepted(before: number) {
  expect(acceptedCount - before).toBeGreaterThanOrEqual(10);
}

describe('odd but valid input is stored exactly or refused with a 4xx', () => {
  it('ideas: odd texts and any extraData, read back as sent', async () => {
    const before = acceptedCount;
    await fc.assert(
      fc.asyncProperty(oddString(10, 50), oddString(20, 60), oddString(140, 200), anyExtraData, async (title, summary, description, extraData) => {
        const body = { title, summary, description, extraData };
        await acceptedOrRefused('ideaCreate', { params: { siteId: String(w.siteId) }, token: w.moderator.token, body }, [201], async (created) => {
          const read = await call('ideaGet', { params: { siteId: String(w.siteId), ideaId: String(created.id) } });
          expect(read.answer.status, show(body)).toBe(200);
          expect(read.json).toMatchObject({ title, summary, description, extraData: storedExtraData(extraData) });
        });
      }),
      params(1),
    );
    expectMostlyAccepted(before);
  });

  it('arguments: odd descriptions, read back as sent', async () => {
    const before = acceptedCount;
    await fc.assert(
      fc.asyncProperty(oddString(30, 120), async (description) => {
        const req = { params: { siteId: String(w.siteId), ideaId: String(w.ideaId) }, token: w.member.token, body: { description } };
        await acceptedOrRefused('argumentCreate', req, [201], async (created) => {
          const read = await call('argumentGet', { params: { ...req.params, argumentId: String(created.id) } });
          expect(read.json?.description, show(description)).toBe(description);
        });
      }),
      params(2),
    );
    expectMostlyAccepted(before);
  });

  it('users: odd names and any extraData, read back as sent', async () => {
    const before = acceptedCount;
    await fc.assert(
      fc.asyncProperty(oddString(0, 60), oddString(0, 60), anyExtraData, async (firstName, gender, extraData) => {
        const req = { params: { siteId: String(w.siteId), userId: String(w.member2.id) }, token: w.member2.token, body: { firstName, gender, extraData } };
        await acceptedOrRefused('userUpdate', req, [200], async () => {
          const read = await call('userGet', { ...req, body: undefined });
          expect(read.json, show(req.body)).toMatchObject({ firstName: firstName.trim(), gender: gender.trim() });
          for (const [key, value] of Object.entries(storedExtraData(extraData))) expect((read.json!.extraData as Record<string, unknown>)[key]).toEqual(value);
        });
      }),
      params(3),
    );
    expectMostlyAccepted(before);
  });

  it('sites: odd titles and any JSON under unknown config keys, read back as sent', async () => {
    const before = acceptedCount;
    await fc.assert(
      fc.asyncProperty(oddString(0, 80), anyJson, async (title, custom) => {
        const req = { params: { siteId: String(w.siteId) }, token: SERVICE_TOKEN, body: { title, config: { ...hostileConfigKeepingFeatures(), custom } } };
        await acceptedOrRefused('siteUpdate', req, [200], async () => {
          const read = await call('siteGet', { params: req.params, token: SERVICE_TOKEN });
          expect(read.json?.title, show(title)).toBe(title);
          expect((read.json?.config as Record<string, unknown> | undefined)?.custom).toEqual(asJson(custom));
        });
      }),
      params(4),
    );
    expectMostlyAccepted(before);
  });

  it('newsletter: odd names are stored as sent', async () => {
    const before = acceptedCount;
    let n = 0;
    await fc.assert(
      fc.asyncProperty(oddString(0, 60), async (firstName) => {
        n += 1;
        const body = { email: `odd-${w.siteId}-${n}@example.org`, firstName };
        await acceptedOrRefused('newsletterSignupCreate', { params: { siteId: String(w.siteId) }, body }, [201], async (created) => {
          expect(created.firstName, show(firstName)).toBe(firstName.trim());
        });
      }),
      params(5),
    );
    expectMostlyAccepted(before);
  });
});

describe('records grown by merges', () => {
  it('an idea, an article and a user take extraData until a record is full, then 400 and unchanged', async () => {
    const chunk = (key: string) => ({ [key]: 'x'.repeat(120_000) });
    const targets: Array<[string, string, HostileRequest]> = [
      ['ideaUpdate', 'ideaGet', { params: { siteId: String(w.siteId), ideaId: String(w.idea2Id) }, token: w.moderator.token }],
      ['articleUpdate', 'articleGet', { params: { siteId: String(w.siteId), articleId: String(w.articleId) }, token: w.moderator.token }],
      ['userUpdate', 'userGet', { params: { siteId: String(w.siteId), userId: String(w.member.id) }, token: w.member.token }],
    ];
    for (const [update, get, req] of targets) {
      const statuses: number[] = [];
      for (const key of ['a', 'b', 'c', 'd']) {
        const { answer } = await call(update, { ...req, body: { extraData: chunk(key) } });
        statuses.push(answer.status);
        if (answer.status !== 200) assertContractError(answer, { status: 400 }, { update, key });
      }
      // Three chunks fit in 400 KB, the fourth does not.
      expect(statuses, update).toEqual([200, 200, 200, 400]);
      const read = await call(get, { ...req, body: undefined });
      expect(Object.keys(read.json!.extraData as object).filter((k) => k.length === 1).sort(), update).toEqual(['a', 'b', 'c']);
    }
  });
});

/** Keeps the hostile world's features on while the config is replaced. */
function hostileConfigKeepingFeatures() {
  return { votes: { isActive: true }, newslettersignup: { isActive: true } };
}
