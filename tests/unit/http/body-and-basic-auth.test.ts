/**
 * The request body rules (lib/http/body.ts, CONTRACT "Requests") and site Basic Auth
 * (lib/auth/basic-auth.ts) as pure functions: the mutation run showed that only integration tests
 * reached them.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '#lib/errors';
import { assertBasicAuth, isBasicAuthActive } from '#lib/auth/basic-auth';
import { MAX_BODY_BYTES, parseJsonBody } from '#lib/http/body';
import type { SiteConfig } from '#lib/sites/config-defaults';

function failure(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected an ApiError');
}

const JSON_TYPE = 'application/json';

describe('parseJsonBody', () => {
  it('no body: undefined, whatever the content type', () => {
    for (const raw of [undefined, null, '']) expect(parseJsonBody(raw, false, undefined)).toBeUndefined();
    expect(parseJsonBody('   ', false, JSON_TYPE)).toBeUndefined();
  });

  it('parses JSON under application/json, +json types and parameters, case-insensitive', () => {
    expect(parseJsonBody('{"a":1}', false, JSON_TYPE)).toEqual({ a: 1 });
    expect(parseJsonBody('[1]', false, 'Application/JSON; charset=utf-8')).toEqual([1]);
    expect(parseJsonBody('"x"', false, 'application/vnd.api+json')).toBe('x');
  });

  it('takes a falsy JSON value the local stack hands over parsed (false, 0) as that JSON', () => {
    expect(parseJsonBody(false, false, JSON_TYPE)).toBe(false);
    expect(parseJsonBody(0, false, JSON_TYPE)).toBe(0);
  });

  it('decodes base64 bodies', () => {
    expect(parseJsonBody(Buffer.from('{"b":2}').toString('base64'), true, JSON_TYPE)).toEqual({ b: 2 });
  });

  it('415 for anything but JSON, naming what the body must be', () => {
    // `geo+json-seq` is a sequence of JSON texts, not one; `x-application/...` only contains a JSON type's name.
    for (const type of [undefined, 'text/plain', 'application/jsonx', 'application/x-www-form-urlencoded', 'text/json', 'application/geo+json-seq', 'x-application/vnd.a+json']) {
      expect(failure(() => parseJsonBody('{}', false, type)), String(type)).toMatchObject({ status: 415, error: 'UnsupportedMediaType', message: 'Request body must be application/json' });
    }
  });

  it('takes optional whitespace around the parameters of the content type', () => {
    expect(parseJsonBody('{"a":1}', false, ' application/json ; charset=utf-8')).toEqual({ a: 1 });
  });

  it("a route with its own media type (a merge patch) takes only that one, and says so on a 415", () => {
    const MERGE_PATCH = 'application/merge-patch+json';
    expect(parseJsonBody('{"a":null}', false, 'Application/Merge-Patch+JSON; charset=utf-8', MERGE_PATCH)).toEqual({ a: null });
    for (const type of [JSON_TYPE, 'application/vnd.api+json', undefined]) {
      expect(failure(() => parseJsonBody('{}', false, type, MERGE_PATCH)), String(type)).toMatchObject({ status: 415, message: `Request body must be ${MERGE_PATCH}` });
    }
  });

  it('413 past 256 KiB (counted in bytes), and exactly 256 KiB is taken', () => {
    const fits = `"${'a'.repeat(MAX_BODY_BYTES - 2)}"`;
    expect(parseJsonBody(fits, false, JSON_TYPE)).toHaveLength(MAX_BODY_BYTES - 2);
    expect(failure(() => parseJsonBody(`${fits} `, false, JSON_TYPE)).status).toBe(413);
    expect(failure(() => parseJsonBody(`"${'é'.repeat(MAX_BODY_BYTES / 2)}"`, false, JSON_TYPE)).status).toBe(413);
  });

  it('400 for broken JSON, an object body type, too deep a nesting, and reserved keys (with their paths)', () => {
    expect(failure(() => parseJsonBody('{"a":', false, JSON_TYPE))).toMatchObject({ status: 400, message: 'Request body is not valid JSON' });
    // A value handed over already parsed is taken only as a JSON scalar: an array is not turned into text.
    for (const parsed of [{ a: 1 }, [1], ['{}']]) {
      expect(failure(() => parseJsonBody(parsed, false, JSON_TYPE)), JSON.stringify(parsed)).toMatchObject({ status: 400, message: 'Request body is not valid JSON' });
    }
    const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(parseJsonBody(nested(64), false, JSON_TYPE)).toBeDefined();
    expect(failure(() => parseJsonBody(nested(65), false, JSON_TYPE))).toMatchObject({ status: 400, message: 'Request body is nested deeper than 64 levels' });
    const reserved = failure(() => parseJsonBody('{"a":{"__proto__":{}}}', false, JSON_TYPE));
    expect(reserved).toMatchObject({ status: 400, error: 'ValidationError' });
    expect(reserved.details?.map((d) => d.path)).toEqual(['a.__proto__']);
    expect(reserved.message).toBe('Invalid body: reserved object keys');
  });

  it('400 naming the fields whose text is not well-formed UTF-16 (a lone surrogate)', () => {
    const malformed = failure(() => parseJsonBody('{"ok":"x","title":"a\\ud800"}', false, JSON_TYPE));
    expect(malformed).toMatchObject({ status: 400, error: 'ValidationError', message: 'Invalid body: text that is not well-formed UTF-16' });
    expect(malformed.details?.map((d) => d.path)).toEqual(['title']);
  });
});

describe('site Basic Auth', () => {
  const closed = { basicAuth: { active: true, user: 'city', password: 's3cret:with:colons' } } as unknown as SiteConfig;
  const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

  it('is active only when the config says so', () => {
    expect(isBasicAuthActive({ basicAuth: { active: true } } as SiteConfig)).toBe(true);
    expect(isBasicAuthActive({ basicAuth: { active: false } } as SiteConfig)).toBe(false);
    expect(isBasicAuthActive({} as SiteConfig)).toBe(false);
    expect(() => assertBasicAuth({} as SiteConfig, undefined, 'Open')).not.toThrow();
  });

  it('lets the right user and password in (the password may hold colons; scheme in any case)', () => {
    expect(() => assertBasicAuth(closed, basic('city:s3cret:with:colons'), 'Town')).not.toThrow();
    expect(() => assertBasicAuth(closed, `bAsIc ${Buffer.from('city:s3cret:with:colons').toString('base64')}  `, 'Town')).not.toThrow();
  });

  it.each([
    ['no header', undefined],
    ['a bearer token', 'Bearer abc'],
    ['not base64', 'Basic ***'],
    ['a wrong password', basic('city:wrong')],
    ['a wrong user', basic('town:s3cret:with:colons')],
    ['no colon', basic('city')],
    ['an empty pair', basic(':')],
  ])('401 with a Basic challenge for %s', (_, header) => {
    const err = failure(() => assertBasicAuth(closed, header, 'Town "A"\r\n'));
    expect(err.status).toBe(401);
    expect(err.headers).toEqual({ 'WWW-Authenticate': 'Basic realm="Town A", charset="UTF-8"' });
  });

  it('a site without a configured password refuses everybody but an empty pair', () => {
    const unset = { basicAuth: { active: true } } as unknown as SiteConfig;
    expect(failure(() => assertBasicAuth(unset, basic('x:y'), 'T')).status).toBe(401);
    expect(() => assertBasicAuth(unset, basic(':'), 'T')).not.toThrow();
  });
});
