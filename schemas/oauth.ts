/**
 * The login endpoints' queries (CONTRACT "Login"), the signed `state`, and what we accept from an auth
 * server (token answer, userinfo / admin user).
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';

/** A name under `config.oauth` (`default` unless the login asks for another). */
const oauthName = z.string().check(z.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be the name of an oauth entry of the site'));

// The format and pattern for the OpenAPI document only: lib/oauth/redirect-url.ts checks it (400):
// absolute, http(s) (https outside the local stage), no credentials, a host of the site's allowedDomains.
const url = z
  .string()
  .check(z.minLength(1), z.maxLength(2048))
  .register(z.globalRegistry, { format: 'uri', pattern: '^https?://[^/?#@\\s]+(?:[/?#].*)?$' });

export const loginQuery = z.object({
  redirectUrl: z.optional(url),
  useOauth: z.optional(oauthName),
});
export type LoginQuery = z.infer<typeof loginQuery>;

/**
 * The auth server comes back with `code` and `state`, or with `error` (RFC 6749 4.1.2.1) when the
 * person cancelled. `state` is always required: without it we do not know where to send anybody.
 */
export const digestLoginQuery = z.object({
  state: z.string().check(z.minLength(1), z.maxLength(8192)),
  code: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  error: z.optional(z.string().check(z.maxLength(256))),
});
export type DigestLoginQuery = z.infer<typeof digestLoginQuery>;

export const logoutQuery = z.object({
  redirectUrl: z.optional(url),
  useOauth: z.optional(oauthName),
});
export type LogoutQuery = z.infer<typeof logoutQuery>;

/** The claims of a login `state` (lib/oauth/state.ts). */
export const loginStateClaims = z.object({
  siteId: z.int().check(z.positive()),
  /** Where the person goes after login, already checked against `allowedDomains`. */
  redirectUrl: z.string(),
  /** The `config.oauth` entry the login started with. */
  oauth: oauthName,
  /** This API's digest-login URL sent as `redirect_uri`; the code exchange must repeat it exactly. */
  callback: z.string(),
  /** SHA-256 (base64url) of the nonce in the browser's login cookie (lib/oauth/state.ts). */
  nonceHash: z.string().check(z.minLength(1), z.maxLength(100)),
});
export type LoginStateClaims = z.infer<typeof loginStateClaims>;

/** RFC 6749 5.1; `token_type` must be Bearer (case-insensitive) when present. */
export const tokenResponse = z.looseObject({
  access_token: z.string().check(z.minLength(1), z.maxLength(8192)),
  token_type: z.optional(z.string().check(z.refine((t) => t.toLowerCase() === 'bearer', 'must be Bearer'))),
});

const optionalName = z.optional(z.nullable(z.string().check(z.maxLength(255))));

/**
 * A user as the auth server describes it (userinfo and the admin API). Loose: servers add fields.
 * The user id is `id`, else `sub` (CONTRACT "Decided details"); OpenID-style `given_name` /
 * `family_name` are accepted when `firstName` / `lastName` are absent. What a login may store of it
 * (reserved keys, storability) is checked on top by lib/auth-server/user-answer.ts.
 */
export const authServerUserShape = z
  .looseObject({
    id: z.optional(z.union([z.string().check(z.minLength(1), z.maxLength(255)), z.int().check(z.nonnegative())])),
    sub: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
    email: z.optional(z.nullable(z.string().check(z.maxLength(254)))),
    firstName: optionalName,
    lastName: optionalName,
    given_name: optionalName,
    family_name: optionalName,
    role: z.optional(z.unknown()),
    extraData: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  })
  .check(z.refine((u) => u.id !== undefined || u.sub !== undefined, { message: 'has neither id nor sub' }));
export type AuthServerUser = z.infer<typeof authServerUserShape>;
