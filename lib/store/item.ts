/**
 * What every stored item carries that no record shows: its key attributes (the table's and its
 * indexes', as declared once in table-definition.json). One function strips them for every access
 * pattern that turns an item back into a record.
 */
import definition from './table-definition.json' with { type: 'json' };

const KEY_ATTRIBUTES: ReadonlySet<string> = new Set(definition.AttributeDefinitions.map((a) => a.AttributeName));

/** The item without PK, SK and the GSI key attributes. */
export function withoutKeys(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !KEY_ATTRIBUTES.has(name)));
}
