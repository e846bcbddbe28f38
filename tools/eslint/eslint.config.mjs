// eslint.config.mjs: ESLint's settings for the browser client (web/js,
// ES modules in the browser) and its tests (tests/web, ES modules on
// Node.js), run by scripts/lint.sh. The recommended rules, plus a few
// that catch what review keeps finding: == where === was meant, var,
// a variable never changed declared with let.
import js from '@eslint/js';
import globals from 'globals';

const rules = {
  ...js.configs.recommended.rules,
  eqeqeq: ['error', 'always', { null: 'ignore' }],
  'no-var': 'error',
  'prefer-const': ['error', { destructuring: 'all' }],
  'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }],
};

export default [
  {
    files: ['web/js/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.browser },
    rules,
  },
  {
    files: ['tests/web/**/*.mjs'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    rules,
  },
];
