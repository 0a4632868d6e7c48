// Lint (issue 15 item 6): typescript-eslint's strict rules over every TypeScript file, run by `npm test`.
// Pure JavaScript on purpose: a linter shipped as per-platform binaries cannot be locked for `npm ci`
// from a registry that carries only some platforms.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.ci/**', '.stryker-tmp/**', '.serverless/**', '.esbuild/**', '.data/**', 'bench/**', 'reports/**', 'examples/typed-client/schema.d.ts', '**/*.cjs', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.strict],
    rules: {
      // tsconfig has noUncheckedIndexedAccess: `!` marks an index the code knows is there; the type
      // checker, not the linter, decides where one is needed.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `_name` marks what is destructured away on purpose (keys stripped from an item).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Cold start (issue 17): every bundle uses zod/mini; one import of classic zod would add ~60 KB to it.
    files: ['lib/**/*.ts', 'schemas/**/*.ts', 'functions/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: "Import 'zod/mini': classic zod doubles the bundle's zod." }] }] },
  },
  {
    // Declarations of an untyped library's API mirror its shape (classes with only a constructor).
    files: ['**/*.d.ts'],
    rules: { '@typescript-eslint/no-extraneous-class': 'off' },
  },
);
