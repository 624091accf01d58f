import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { reactRefresh } from 'eslint-plugin-react-refresh';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const websocketImport = {
  name: 'react-use-websocket',
  message:
    "Import from '@/lib/websocket': Vite 8 breaks this package's default export in production builds.",
};

// Features do not import each other: what two features share lives in src/lib, src/components
// or src/stores, and only src/app (routes, layout) puts features together.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureBoundaries = features.map((feature) => ({
  files: [`src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [websocketImport],
        patterns: [
          {
            group: ['@/features/*', `!@/features/${feature}`, `!@/features/${feature}/**`],
            message:
              'Features do not import each other: move the shared piece to src/lib or src/components.',
          },
          {
            group: ['../../*', '../../../*'],
            message: `Import outside src/features/${feature} through '@/...' (and never from another feature).`,
          },
        ],
      },
    ],
  },
}));

export default defineConfig([
  globalIgnores(['dist', 'coverage', 'src/lib/api/schema.d.ts']),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [
      js.configs.recommended,
      tseslint.configs.recommended,
      reactHooks.configs.flat.recommended,
      reactRefresh.configs.vite(),
    ],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', websocketImport],
    },
  },
  ...featureBoundaries,
  {
    files: [
      'src/lib/**/*.{ts,tsx}',
      'src/components/**/*.{ts,tsx}',
      'src/hooks/**/*.{ts,tsx}',
      'src/stores/**/*.{ts,tsx}',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [websocketImport],
          patterns: [
            {
              group: ['@/features/*', '@/app/*'],
              message:
                'src/lib, src/components, src/hooks and src/stores do not import features or the app.',
            },
          ],
        },
      ],
    },
  },
  {
    // The route table declares its lazy pages next to the routes; it is never hot-replaced.
    files: ['**/*.test.{ts,tsx}', 'src/testing/**', 'src/app/router.tsx'],
    rules: { 'react-refresh/only-export-components': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', '*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
]);
