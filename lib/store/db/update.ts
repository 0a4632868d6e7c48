/**
 * The one update builder of the store (DESIGN habit 13): an UpdateItem's expression with its name and
 * value placeholders, from plain field maps; every UpdateExpression of lib/store is written here.
 * Placeholders are positional (`#u0`, `:u0`), so no field name can collide with DynamoDB's reserved
 * words or expression syntax, and a field whose value is `undefined` is left as it is (a partial
 * update writes only what changed). A condition keeps its own placeholders beside it (`withCondition`).
 */

/** A top-level attribute, or a path into maps (`['votes', '12']`: the vote on idea 12). */
type AttributePath = string | readonly string[];

interface UpdateSpec {
  /** field = value; an undefined value leaves the field as it is. */
  set?: Record<string, unknown>;
  /** path = value, for paths into maps. */
  setAt?: ReadonlyArray<readonly [AttributePath, unknown]>;
  /** field = if_not_exists(field, value): the first write wins. */
  setIfAbsent?: Record<string, unknown>;
  /** field = field + n (the field must exist). */
  increment?: Record<string, number>;
  /** field = the current value of another attribute. */
  copy?: Record<string, string>;
  /** ADD: a number added to the field (a missing one counts from 0), or elements added to a set. */
  add?: Record<string, unknown>;
  /** DELETE: elements taken out of a set. */
  deleteFrom?: Record<string, unknown>;
  remove?: readonly AttributePath[];
}

interface UpdateParts {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

export function update(spec: UpdateSpec): UpdateParts {
  const names: Record<string, string> = {};
  const nameOf = new Map<string, string>();
  const values: Record<string, unknown> = {};
  let nextValue = 0;
  const name = (attribute: string) => {
    let placeholder = nameOf.get(attribute);
    if (!placeholder) {
      placeholder = `#u${nameOf.size}`;
      nameOf.set(attribute, placeholder);
      names[placeholder] = attribute;
    }
    return placeholder;
  };
  const path = (at: AttributePath) => (typeof at === 'string' ? [at] : at).map(name).join('.');
  const value = (v: unknown) => {
    const placeholder = `:u${nextValue++}`;
    values[placeholder] = v;
    return placeholder;
  };
  const defined = (fields: Record<string, unknown> | undefined) => Object.entries(fields ?? {}).filter(([, v]) => v !== undefined);

  const sets = [
    ...defined(spec.set).map(([field, v]) => `${path(field)} = ${value(v)}`),
    ...(spec.setAt ?? []).filter(([, v]) => v !== undefined).map(([at, v]) => `${path(at)} = ${value(v)}`),
    ...defined(spec.setIfAbsent).map(([field, v]) => `${path(field)} = if_not_exists(${path(field)}, ${value(v)})`),
    ...defined(spec.increment).map(([field, v]) => `${path(field)} = ${path(field)} + ${value(v)}`),
    ...Object.entries(spec.copy ?? {}).map(([field, from]) => `${path(field)} = ${path(from)}`),
  ];
  const adds = defined(spec.add).map(([field, v]) => `${path(field)} ${value(v)}`);
  const deletes = defined(spec.deleteFrom).map(([field, v]) => `${path(field)} ${value(v)}`);
  const removes = (spec.remove ?? []).map(path);
  const clauses = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
    deletes.length ? `DELETE ${deletes.join(', ')}` : '',
  ].filter(Boolean);
  if (clauses.length === 0) throw new Error('update: nothing to update');
  return {
    UpdateExpression: clauses.join(' '),
    ExpressionAttributeNames: names,
    ...(nextValue > 0 ? { ExpressionAttributeValues: values } : {}),
  };
}

/** SET the defined fields, REMOVE the listed ones: the common partial update. */
export const updateOf = (set: Record<string, unknown>, remove: readonly string[] = []): UpdateParts => update({ set, remove });

interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** An update plus a condition with its own placeholders (kept apart from the update's `#u`/`:u`). */
export function withCondition(parts: UpdateParts, condition: Condition): UpdateParts & { ConditionExpression: string } {
  const values = { ...parts.ExpressionAttributeValues, ...condition.values };
  return {
    UpdateExpression: parts.UpdateExpression,
    ConditionExpression: condition.expression,
    ExpressionAttributeNames: { ...parts.ExpressionAttributeNames, ...condition.names },
    ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
  };
}
