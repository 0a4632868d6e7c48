/**
 * The one update builder of the store (DESIGN habit 13): an UpdateItem's SET/REMOVE expression with
 * its name and value placeholders, from plain field maps. Placeholders are positional (`#u0`, `:u0`),
 * so no field name can collide with DynamoDB's reserved words or expression syntax, and a field whose
 * value is `undefined` is left as it is (a partial update writes only what changed).
 */
export interface UpdateParts {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

export function updateOf(set: Record<string, unknown>, remove: readonly string[] = []): UpdateParts {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  let i = 0;
  for (const [field, value] of Object.entries(set)) {
    if (value === undefined) continue;
    names[`#u${i}`] = field;
    values[`:u${i}`] = value;
    sets.push(`#u${i} = :u${i}`);
    i++;
  }
  const removes = remove.map((field, k) => {
    names[`#r${k}`] = field;
    return `#r${k}`;
  });
  if (sets.length === 0 && removes.length === 0) throw new Error('updateOf: nothing to update');
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].filter(Boolean).join(' ');
  return { UpdateExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}

/** An update plus a condition with its own placeholders (kept apart from the update's `#u`/`#r`/`:u`). */
export function withCondition(
  update: UpdateParts,
  condition: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> },
): UpdateParts & { ConditionExpression: string } {
  return {
    ...update,
    ConditionExpression: condition.expression,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...condition.names },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...condition.values },
  };
}
