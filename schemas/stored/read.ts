/**
 * How the stored-record schemas read (lib/store/db/codec.ts). An item may carry attributes its record
 * schema does not name (a tombstone's `deletingAt`, an idea's `indexKeys`, fields a later release
 * adds): reading keeps them, as before the codecs, and they never fail a read. The record's type
 * shows only what the schema names, so the domain does not lean on the rest by accident.
 */
import '#schemas/zod-setup';
import * as z from 'zod/mini';

export const keepingUnnamed = <S extends z.ZodMiniObject>(schema: S): z.ZodMiniType<z.output<S>> =>
  z.catchall(schema, z.unknown()) as unknown as z.ZodMiniType<z.output<S>>;

/** Stored ids and counts: safe integers (the marshaller refuses anything larger). */
export const storedInt = z.int();

/** Instants are ISO strings written by the service; a read checks the type, not the format (cost). */
export const storedInstant = z.string();

const INSTANT_FORM = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * An instant exactly as the service writes it (`Date#toISOString`: UTC, milliseconds, `Z`). Only such
 * text orders as its time does, byte by byte, so only such text may stand for a time in a key range
 * (another offset or form parses to a time that sorts elsewhere).
 */
export const isCanonicalInstant = (value: unknown): value is string =>
  typeof value === 'string' && INSTANT_FORM.test(value) && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
