import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { workflowBundleFiles } from './scripts/workflow-bundle-files.mjs';

/**
 * The rule that matters most here: workflow code must be deterministic, so nothing under
 * src/workflows may import Node built-ins, the Anthropic SDK, the Temporal client or worker, or our
 * own I/O modules (activities, tools, the model client). Temporal's bundler would reject some of
 * these at worker start; the lint rule catches all of them at review time.
 */
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['.scratch/**', 'node_modules/**', 'dist/**', '.temporal/**', 'workspace/**', 'docs/**', 'bench/.results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Workflow code, and every module the workflow bundle loads (the contract, the run machine, the
    // approval policy, rule matching, the signature check...): all of it must be deterministic. The
    // list is walked from the bundle's entry (scripts/workflow-bundle-files.mjs), not kept by hand, so
    // a module the workflows start to import is held to the rule at once.
    files: ['src/workflows/**/*.ts', ...workflowBundleFiles(path.dirname(fileURLToPath(import.meta.url)))],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code must be deterministic: no Node built-ins.' })),
          patterns: [
            { group: ['@anthropic-ai/*'], message: 'Model calls belong in activities, not workflow code.', allowTypeImports: true },
            { group: ['@temporalio/client', '@temporalio/worker', '@temporalio/activity'], message: 'Workflow code may only use @temporalio/workflow and @temporalio/common.', allowTypeImports: true },
            { group: ['**/activities', '**/activities/*', '!**/activities/index'], message: 'Import activities as types only (proxyActivities).', allowTypeImports: true },
            { group: ['**/tools/builtin', '**/tools/builtin/*', '**/tools/workspace', '**/model/anthropic-client', '**/model/model-errors', '**/conversation/conversation-store', '**/worker-setup/*', '**/client/*'], message: 'These modules do I/O and must stay out of workflow code.', allowTypeImports: true },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'process', message: 'Workflow code must not read the environment.' }, { name: 'require', message: 'Use imports.' }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
