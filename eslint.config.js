// Lint: typescript-eslint's recommended rules over source, tests, scripts and benches.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/**', '.astro/**', 'node_modules/**', 'data/**', 'coverage/**', '.stryker-tmp/**', 'reports/**'] },
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
