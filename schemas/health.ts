import '#schemas/zod-setup';
import * as z from 'zod/mini';

/** `GET /api/health` when the API can reach its table (else 503 with the error body). */
export const healthResponse = z.object({ status: z.literal('ok') });
