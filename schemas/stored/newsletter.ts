/** Newsletter signups (`SIGNUP#<id>`) and their confirm-token items: lib/store/newsletter/newsletter.ts. */
import '#schemas/zod-setup';
import * as z from 'zod/mini';
import { keepingUnnamed, storedInstant, storedInt } from '#schemas/stored/read';

export const storedSignup = keepingUnnamed(
  z.object({
    id: storedInt,
    siteId: storedInt,
    /** As sent, trimmed. */
    email: z.string(),
    /** Trimmed and lower-cased: the key of the e-mail guard. */
    emailKey: z.string(),
    firstName: z.nullable(z.string()),
    lastName: z.nullable(z.string()),
    confirmed: z.boolean(),
    createdAt: storedInstant,
    confirmedAt: z.optional(storedInstant),
    /** The logged-in user who signed up, if any (found again through GSI1 for anonymization). */
    userId: z.optional(z.nullable(storedInt)),
    /** Random salt the confirm token is derived from (lib/newsletter/token.ts); removed on confirm. */
    tokenSalt: z.optional(z.string()),
    /** sha256 of the confirm token: the SK of the token item; removed on confirm. */
    tokenHash: z.optional(z.string()),
  }),
);
export type StoredSignup = z.output<typeof storedSignup>;

/** The confirm-token item (and the e-mail guard): which signup it belongs to. */
export const storedSignupPointer = z.object({ signupId: storedInt });
