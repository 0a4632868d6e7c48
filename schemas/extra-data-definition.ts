// TEMPORARY stub until the extraData engine branch lands; replaced by the real schema.
import * as z from 'zod';
export const extraDataDefinitions = z.record(z.string(), z.looseObject({ type: z.enum(['boolean', 'int', 'string', 'arrayOfStrings', 'enum', 'object']) }));
