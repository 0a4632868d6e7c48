/**
 * The uniqueness key of a signup e-mail. Addresses are compared trimmed and case-insensitively: the
 * local part is case-sensitive in theory (RFC 5321) but no real mailbox provider treats `Ann@` and
 * `ann@` as different people, and a signup list with both would mail the same person twice.
 */
export const emailKey = (email: string): string => email.trim().toLowerCase();
