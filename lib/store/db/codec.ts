/**
 * One codec per stored record kind (DESIGN habit 13): where its item's keys come from (keys.ts), how a
 * record becomes an item, and how an item read back becomes a record again, checked against the kind's
 * schema (schemas/stored/) instead of cast. A malformed item fails loudly with a CorruptRecordError
 * naming its key and first problem, never a stored text (`problemOf`; lib/errors.ts: logged, answered 500), so a legacy or hand-edited
 * item never flows into the domain unchecked.
 *
 * The schemas decide how attributes they do not name are treated; the stored ones keep them (future
 * fields, tombstone markers, an idea's `indexKeys`), as reads did before. Key attributes (PK, SK and
 * the GSI keys of table-definition.json) are never part of a record: stripped before the check.
 */
import { CorruptRecordError, errorPath, type ErrorDetail } from '#lib/errors';
import definition from '../table-definition.json' with { type: 'json' };

/** Key attributes of every item (the table's and its indexes', as table-definition.json declares them). */
const KEY_ATTRIBUTES: ReadonlySet<string> = new Set(definition.AttributeDefinitions.map((a) => a.AttributeName));

/** The item without PK, SK and the GSI key attributes: what no record shows. */
export function withoutKeys(item: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const name of Object.keys(item)) if (!KEY_ATTRIBUTES.has(name)) record[name] = item[name];
  return record;
}

/**
 * What the codec needs of a schema: zod's `safeParse`. Structural, so lib/store names no validation
 * library (tests/unit/foundation/layers.test.ts); a zod schema of schemas/stored/ fits as it is.
 */
interface RecordSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<SchemaIssue> } };
}

interface SchemaIssue {
  code?: string;
  path: PropertyKey[];
  message: string;
}

/**
 * What is wrong with an item, holding no text of the item: a writer chooses the map keys of what it
 * stores (a vote's idea id, an `extraData` key: an e-mail address, say), and every log line, job
 * report and audit output prints this. So the path keeps its first attribute (one the schema names:
 * an issue arises only where the schema looks) and array indexes, and shows every key below the first
 * attribute as `*` (a field name and a map key look alike there); an issue that lists keys it found is
 * described without them. The operator reads the item itself by the key reported with it.
 */
function problemOf(issue: SchemaIssue | undefined): ErrorDetail {
  if (issue === undefined) return { path: '', message: 'does not match its schema' };
  const [first, ...below] = issue.path;
  const masked = first === undefined ? [] : [String(first), ...below.map((part) => (typeof part === 'number' ? part : '*'))];
  return { path: errorPath(masked), message: issue.code === 'unrecognized_keys' ? 'has attributes its schema does not name' : issue.message };
}

/** `At`: what locates an item whose record does not hold its own key (a link item: the site and the person). */
interface Codec<T extends object, At extends unknown[] = []> {
  readonly kind: string;
  /** The item to Put: the record's key attributes (table and indexes) and the record. */
  toItem(record: T, ...at: At): Record<string, unknown>;
  /** The record of an item read (whole, or as projected): checked once, or a CorruptRecordError. */
  fromItem(item: Record<string, unknown>): T;
  /** The same check for a reader that reports a malformed item instead of failing (the vote record's audit). */
  check(item: Record<string, unknown>): Checked<T>;
}

interface CodecDefinition<T extends object, At extends unknown[] = []> {
  /** How logs name the kind (`site`, `user link`, ...). */
  kind: string;
  schema: RecordSchema<T>;
  /** The item's key attributes, from lib/store/db/keys.ts: the table key and the index keys it has. */
  keys: (record: T, ...at: At) => object;
}

/** Where an item is, for the log: its table key as read (projections without it say so). */
const keyOf = (item: Record<string, unknown>): string =>
  typeof item.PK === 'string' && typeof item.SK === 'string' ? `${item.PK} ${item.SK}` : '(key not read)';

/** An item that does not match its schema: its key as `PK/SK` and its first problem (`problemOf`: no stored text). */
export interface MalformedItem {
  key: string;
  problem: string;
}

/** An item read by a reader that must go on past a malformed one: its record, or what is wrong with it. */
export type Checked<T> = { record: T } | { malformed: MalformedItem };

/** `PK/SK` of an item, as the audit tools name an item they report. */
export const itemKeyOf = (item: Record<string, unknown>): string =>
  typeof item.PK === 'string' && typeof item.SK === 'string' ? `${item.PK}/${item.SK}` : '(key not read)';

/** The check of `recordReader` that reports instead of throwing. */
export function recordChecker<T>(schema: RecordSchema<T>): (item: Record<string, unknown>) => Checked<T> {
  return (item) => {
    const parsed = schema.safeParse(withoutKeys(item));
    if (parsed.success) return { record: parsed.data };
    const { path, message } = problemOf(parsed.error.issues[0]);
    return { malformed: { key: itemKeyOf(item), problem: `${path === '' ? 'the item' : path} ${message}` } };
  };
}

/**
 * The from-item half alone, for a view of items that is only ever read (the migration's view of
 * legacy users). One parse per item: the schema's output is the record.
 */
export function recordReader<T>(kind: string, schema: RecordSchema<T>): (item: Record<string, unknown>) => T {
  return (item) => {
    const parsed = schema.safeParse(withoutKeys(item));
    if (parsed.success) return parsed.data;
    throw new CorruptRecordError(kind, keyOf(item), problemOf(parsed.error.issues[0]));
  };
}

export function defineCodec<T extends object, At extends unknown[] = []>(definition: CodecDefinition<T, At>): Codec<T, At> {
  const { kind, schema, keys } = definition;
  return {
    kind,
    toItem: (record, ...at): Record<string, unknown> => ({ ...keys(record, ...at), ...(record as Record<string, unknown>) }),
    fromItem: recordReader(kind, schema),
    check: recordChecker(schema),
  };
}
