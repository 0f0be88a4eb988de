import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

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
    // Workflow code, and the pure modules it bundles (the approval policy, shell rule matching, the
    // signature check): all of it must be deterministic.
    files: [
      'src/workflows/**/*.ts',
      // The contract and the run state machine are bundled into every workflow.
      'src/contract/**/*.ts',
      'src/core/machine/**/*.ts',
      'src/core/approvals/approval-policy.ts',
      'src/contract/approval-decision.ts',
      'src/core/approvals/preference-rules.ts',
      'src/core/approvals/preference-messages.ts',
      'src/core/approvals/canonical-json.ts',
      'src/contract/shell-analysis.ts',
      'src/core/approvals/shell/match-command.ts',
      'src/core/approvals/shell/command-wrappers.ts',
      'src/core/approvals/signatures/decision-signature.ts',
      'src/core/approvals/signatures/strict-base64.ts',
    ],
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
