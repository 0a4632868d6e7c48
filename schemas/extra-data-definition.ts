import '#schemas/zod-setup';
import * as z from 'zod/mini';

/**
 * Definitions of extraData fields, as a site writes them in `config.ideas.extraData`,
 * `config.articles.extraData` and `config.users.extraData` (spec "extraData of ideas and articles").
 * The site-config schema imports these; lib/extra-data validates values against them.
 */

/** Deepest nesting of `object` definitions (and so of checked values) we accept. Guards recursion. */
export const EXTRA_DATA_MAX_DEPTH = 10;

const extraDataFieldTypes = ['boolean', 'int', 'string', 'arrayOfStrings', 'enum', 'object'] as const;
const extraDataFieldTypeSchema = z.enum(extraDataFieldTypes);
export type ExtraDataFieldType = z.infer<typeof extraDataFieldTypeSchema>;

// Loose: site configs carry more keys per field (labels, `sitespecific` for users, UI hints) that
// other parts of the system read, so unknown keys are kept instead of rejected or stripped.
export const fieldDefinitionSchema: z.ZodMiniType<FieldDefinition> = z
  .looseObject({
    type: extraDataFieldTypeSchema,
    allowNull: z.optional(z.boolean()),
    values: z.optional(z.array(z.string())),
    // z.lazy, not a getter: mini's .check() clones the shape at once, before this const exists.
    subset: z.optional(z.record(z.string(), z.lazy((): z.ZodMiniType<FieldDefinition> => fieldDefinitionSchema))),
  })
  .check(
    z.superRefine((def, ctx) => {
      if (def.type === 'enum' && def.values === undefined) {
        ctx.addIssue({ code: 'custom', path: ['values'], message: 'values is required for type enum' });
      }
      if (def.type === 'object' && def.subset === undefined) {
        ctx.addIssue({ code: 'custom', path: ['subset'], message: 'subset is required for type object' });
      }
    }),
  );
// Written out: a schema that refers to itself cannot infer its own type.
export interface FieldDefinition {
  type: ExtraDataFieldType;
  allowNull?: boolean;
  values?: string[];
  subset?: Record<string, FieldDefinition>;
  [key: string]: unknown;
}

/** How many `subset` levels a definitions map has; stops counting past the limit. */
function definitionDepth(value: unknown, depth = 0): number {
  if (depth > EXTRA_DATA_MAX_DEPTH || typeof value !== 'object' || value === null) return depth;
  let deepest = depth;
  for (const def of Object.values(value)) {
    const subset: unknown = typeof def === 'object' && def !== null ? (def as { subset?: unknown }).subset : undefined;
    deepest = Math.max(deepest, subset === undefined ? depth + 1 : definitionDepth(subset, depth + 1));
    if (deepest > EXTRA_DATA_MAX_DEPTH) break;
  }
  return deepest;
}

// The depth check runs before the recursive parse (pipe stops on the first failure), so a hostile
// config nested thousands of levels deep is refused instead of overflowing the stack.
export const extraDataDefinitionsSchema = z.pipe(
  z.custom<unknown>((value) => definitionDepth(value) <= EXTRA_DATA_MAX_DEPTH, {
    message: `extraData definitions may nest at most ${EXTRA_DATA_MAX_DEPTH} levels deep`,
  }),
  z.record(z.string(), fieldDefinitionSchema),
);
