/**
 * Rules over the role hierarchy of CONTRACT (schemas/roles.ts): each role includes those below it. A
 * caller with no token has no role.
 */
import { ROLES, type Role } from '#schemas/roles';

export { ROLES, type Role };

const rank = (role: Role): number => ROLES.indexOf(role);

export const isRole = (value: unknown): value is Role => typeof value === 'string' && (ROLES as readonly string[]).includes(value);

/** True when `role` is `required` or above. `undefined` (no token) never satisfies a role. */
export const hasRole = (role: Role | undefined, required: Role): boolean =>
  role !== undefined && rank(role) >= rank(required);

/** Nobody may give a role above their own. */
export const mayGrant = (granter: Role | undefined, granted: Role): boolean =>
  granter !== undefined && rank(granted) <= rank(granter);

/** The lower of two roles; `floor` undefined (none recorded) leaves `role` as it is. */
export const lowerRole = (role: Role, floor: Role | undefined): Role => (floor !== undefined && rank(floor) < rank(role) ? floor : role);
