// `npm run lint` (part of `npm run check`): ESLint's recommended rules and typescript-eslint's
// (syntax only, no type information: `npm run typecheck` is where the types are checked), and no
// import cycle between our own modules.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores([
    '**/node_modules/',
    '**/dist/',
    'test-output/',
    '.data/',
    // Written by `npm run sdk:generate` (sdk/generator/generate.ts); core.ts is written by hand.
    'sdk/src/schema.ts',
    'sdk/src/index.ts',
    'sdk/src/namespaces/',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      // Without .ts here import-x parses no TypeScript module and no-cycle never finds one.
      'import-x/extensions': ['.ts', '.js', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.node'],
          // The SDK imports its own modules as './core.js' (moduleResolution Bundler).
          extensionAlias: { '.js': ['.ts', '.js'] },
        }),
      ],
    },
    rules: {
      // Only our own modules: a cycle inside a package is not ours to fix, and following them doubles the time.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // `catch {}` is how the code says "nothing to do when this fails".
      'no-empty': ['error', { allowEmptyCatch: true }],
      // A leading underscore marks a name left unused on purpose (as tsc's noUnusedParameters reads it),
      // mostly a property taken out of an object with `const { a: _a, ...rest } = object`.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Tests reach into responses and internals whose shape they assert on.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
