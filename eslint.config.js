// Flat config. `npm run lint` = eslint static_src --max-warnings 0.
import js from '@eslint/js'; // ships with eslint 9 (exact-version dependency), not a separate install
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The Node globals the build script and the top-level config files use (no `globals` package dependency).
const nodeGlobals = Object.fromEntries(
  [
    'process', 'console', 'Buffer', 'URL', 'URLSearchParams', 'setTimeout', 'clearTimeout', 'setInterval',
    'clearInterval', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'structuredClone', 'TextEncoder',
    'TextDecoder', 'AbortController', 'fetch', 'global',
  ].map((name) => [name, 'readonly']),
);

export default defineConfig(
  { ignores: ['app/static/dist/**', 'node_modules/**', '.venv/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['static_src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // core/ is what every module imports; it imports none of them (the event map's types live in core/ or context.ts)
    files: ['static_src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['../*/**', '!../context'],
          message: 'core/ imports only core/ and the context types',
        }],
      }],
    },
  },
  {
    // Components read the stores and send the intents of player/intents.ts (PlayerIntents): no controller class, no
    // media element, engine or platform call
    files: ['static_src/ui/**/*.{ts,tsx}'],
    ignores: ['static_src/ui/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: [
            '**/player/controller', '**/player/trackController', '**/player/platformController', '**/player/engine',
            '**/player/captions', '**/player/gain', '**/ads/*',
          ],
          message: 'the interface sends the intents of player/intents.ts (PlayerIntents); it never works the media',
        }],
      }],
    },
  },
  {
    // The ad chunk (ads/boot.ts, lazy) and the shell it draws on stay free of React, the interface and hls.js
    files: ['static_src/ads/**/*.ts', 'static_src/shell/**/*.ts'],
    ignores: ['static_src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['react', 'react/*', 'react-dom', 'react-dom/*', 'hls.js', '**/ui/*', '**/player/engine'],
          message: 'the ad chunk and the shell load without React, the interface or hls.js',
        }],
      }],
    },
  },
  {
    files: ['static_src/build.mjs', '*.js', '*.mjs', 'static_src/test/*.js'],
    languageOptions: { sourceType: 'module', globals: nodeGlobals },
  },
);
