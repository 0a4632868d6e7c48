/**
 * The role hierarchy of CONTRACT, lowest first: each role includes those below it. Declared here so the
 * user schema, the store (stored roles, the role floor) and the access rules (lib/auth/roles.ts) share it.
 */
export const ROLES = ['anonymous', 'member', 'moderator', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];
