/**
 * The in-memory state of the local auth server: users, OAuth clients, one-time codes and access tokens.
 * Nothing here survives a restart; it is a stand-in for a real OAuth 2.0 server (openstad-auth or any
 * other) for local development and tests, never for production.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface AuthClient {
  clientId: string;
  clientSecret: string;
  /**
   * Host names a `redirect_uri` (authorize) or a logout `redirect_uri` may point to. Absent or empty:
   * any http(s) host (handy for `npm start` on changing ports; tests should set it).
   */
  allowedHosts?: string[];
}

export interface AuthUserSeed {
  id?: number;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  /** The role for every client that has no entry in `roles`. Absent: userinfo carries no role. */
  role?: string;
  /** Role per client id, like openstad-auth keeps roles per client (one client per site). */
  roles?: Record<string, string>;
  extraData?: Record<string, unknown>;
}

export interface StoredUser {
  id: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: string | undefined;
  roles: Record<string, string>;
  extraData: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

interface CodeGrant {
  clientId: string;
  redirectUri: string;
  userId: number;
  expiresAt: number;
}

interface AccessToken {
  clientId: string;
  userId: number;
  expiresAt: number;
}

const randomToken = () => randomBytes(24).toString('base64url');
const digest = (s: string) => createHash('sha256').update(s).digest();
/** Constant-time comparison of two secrets of any length. */
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

export class AuthState {
  private readonly users = new Map<number, StoredUser>();
  private readonly clients = new Map<string, AuthClient>();
  private readonly codes = new Map<string, CodeGrant>();
  private readonly tokens = new Map<string, AccessToken>();
  private nextUserId: number;

  constructor(
    clients: AuthClient[],
    users: AuthUserSeed[],
    private readonly codeTtlMs: number,
    private readonly tokenTtlMs: number,
    firstUserId = 1,
  ) {
    this.nextUserId = firstUserId;
    for (const client of clients) this.clients.set(client.clientId, client);
    for (const seed of users) this.addUser(seed);
  }

  client(clientId: string | null | undefined): AuthClient | undefined {
    return clientId ? this.clients.get(clientId) : undefined;
  }

  /** The client, when the id is known and the secret is right. */
  authenticate(clientId: string | null | undefined, secret: string | null | undefined): AuthClient | undefined {
    const client = this.client(clientId);
    if (!client || typeof secret !== 'string' || !sameSecret(secret, client.clientSecret)) return undefined;
    return client;
  }

  /** True when `uri` is an absolute http(s) URL this client (or, without a client, any client) allows. */
  allowsRedirect(client: AuthClient | undefined, uri: string | null | undefined): boolean {
    if (!uri) return false;
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    const candidates = client ? [client] : [...this.clients.values()];
    return candidates.some((c) => !c.allowedHosts?.length || c.allowedHosts.includes(url.hostname.toLowerCase()));
  }

  addUser(seed: AuthUserSeed): StoredUser {
    const id = seed.id ?? this.nextUserId;
    if (this.users.has(id)) throw new Error(`auth server: user ${id} exists`);
    if (this.userByEmail(seed.email)) throw new Error(`auth server: e-mail ${seed.email} exists`);
    this.nextUserId = Math.max(this.nextUserId, id + 1);
    const now = new Date().toISOString();
    const user: StoredUser = {
      id,
      email: seed.email,
      firstName: seed.firstName ?? null,
      lastName: seed.lastName ?? null,
      role: seed.role,
      roles: { ...(seed.roles ?? {}) },
      extraData: structuredClone(seed.extraData ?? {}),
      createdAt: now,
      updatedAt: now,
    };
    this.users.set(id, user);
    return user;
  }

  user(id: number): StoredUser | undefined {
    return this.users.get(id);
  }

  userByEmail(email: string): StoredUser | undefined {
    const wanted = email.trim().toLowerCase();
    for (const user of this.users.values()) if (user.email.toLowerCase() === wanted) return user;
    return undefined;
  }

  allUsers(): StoredUser[] {
    return [...this.users.values()];
  }

  deleteUser(id: number): boolean {
    for (const [token, grant] of this.tokens) if (grant.userId === id) this.tokens.delete(token);
    return this.users.delete(id);
  }

  issueCode(clientId: string, redirectUri: string, userId: number): string {
    const code = randomToken();
    this.codes.set(code, { clientId, redirectUri, userId, expiresAt: Date.now() + this.codeTtlMs });
    return code;
  }

  /**
   * Redeems a code once (RFC 6749 4.1.2: a code is single use). It is gone after the first attempt,
   * right or wrong, so a leaked code cannot be tried against other clients or redirect URIs.
   */
  redeemCode(code: string, clientId: string, redirectUri: string | null): number | undefined {
    const grant = this.codes.get(code);
    if (!grant) return undefined;
    this.codes.delete(code);
    if (grant.expiresAt < Date.now()) return undefined;
    if (grant.clientId !== clientId) return undefined;
    // RFC 6749 4.1.3: redirect_uri must be identical when it was part of the authorization request.
    if (redirectUri !== grant.redirectUri) return undefined;
    return this.users.has(grant.userId) ? grant.userId : undefined;
  }

  issueAccessToken(clientId: string, userId: number): { token: string; expiresIn: number } {
    const token = randomToken();
    this.tokens.set(token, { clientId, userId, expiresAt: Date.now() + this.tokenTtlMs });
    return { token, expiresIn: Math.floor(this.tokenTtlMs / 1000) };
  }

  accessToken(token: string): AccessToken | undefined {
    const grant = this.tokens.get(token);
    if (!grant) return undefined;
    if (grant.expiresAt < Date.now()) {
      this.tokens.delete(token);
      return undefined;
    }
    return grant;
  }
}

/** A user as one client sees it: the role is the client's own, else the user's general one. */
export function userForClient(user: StoredUser, clientId: string) {
  const role = user.roles[clientId] ?? user.role;
  return {
    id: user.id,
    sub: String(user.id),
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    ...(role !== undefined ? { role } : {}),
    extraData: structuredClone(user.extraData),
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}
