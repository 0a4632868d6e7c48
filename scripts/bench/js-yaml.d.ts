/**
 * The few js-yaml 4 APIs the bench uses. js-yaml is the YAML reader of osls (the `serverless`
 * devDependency), so it is installed wherever serverless.yml can be deployed; it ships no types.
 */
declare module 'js-yaml' {
  export class Type {
    constructor(tag: string, options: { kind: 'scalar' | 'sequence' | 'mapping'; construct?: (data: unknown) => unknown });
  }
  export class Schema {
    extend(types: Type[]): Schema;
  }
  export const DEFAULT_SCHEMA: Schema;
  export function load(text: string, options?: { schema?: Schema; filename?: string }): unknown;
}
