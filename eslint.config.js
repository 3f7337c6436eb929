// Lint: typescript-eslint's type-aware rules (they read the types, so they catch promises nobody
// awaits and `any` leaking out of untyped input) and import-x's cycle check (value imports only;
// dependency-cruiser, run after it by `npm run lint`, sees `import type` too). Why not
// Biome: docs/development.md, "Lint".
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

export default tseslint.config(
  // test/lint/fixtures hold code that is wrong on purpose; test/lint/no-cycle.spec.ts lints them itself.
  { ignores: ['dist/**', 'node_modules/**', 'test-artifacts/**', 'src/console/assets/**', 'test/lint/fixtures/**'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    plugins: { 'import-x': importX },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    settings: {
      // Without these import-x does not parse .ts dependencies, and no-cycle silently finds nothing.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      // Sources import './x.js' for './x.ts' (NodeNext); the resolver maps the extension back.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // A leading underscore names what a destructuring drops on purpose (`{ id: _id, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Style only: an adapter answers a Promise-returning port synchronously (SQLite, in memory); no-floating-promises guards the callers.
      '@typescript-eslint/require-await': 'off',
      // Passing on an error of unknown type from an 'error' event is right; the rule is for `reject('a string')`.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // A hoisted `function done()` (it must exist before the timer that calls it) reaches the instance through `self`.
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['self'] }],
      // Vigil declares no enums; the only findings compare rrule's Frequency with numbers from its own options.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      // Its 26 findings are deliberate String(x) of JSON values (an event's data, a form field, an error body), each a string or number there.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Specs and benchmarks read real HTTP answers as `any` JSON bodies and then assert their shape with chai; the assertion is the check.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // chai's property assertions (`expect(x).to.be.true`) are expressions.
      '@typescript-eslint/no-unused-expressions': 'off',
      // Specs keep a store's methods to put them back after replacing them.
      '@typescript-eslint/unbound-method': 'off',
      // Assertion messages interpolate whatever they got, `unknown` included; that is what a failure should show.
      '@typescript-eslint/restrict-template-expressions': 'off',
    },
  },
);
