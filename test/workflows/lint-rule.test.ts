import * as path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { bundleAgentWorkflows } from '../support/agent-run-harness';
import { workflowBundleFiles } from '../../scripts/workflow-bundle-files.mjs';

const repoRoot = path.resolve(__dirname, '../..');
const RULE = '@typescript-eslint/no-restricted-imports';

/**
 * Lints `code` as if it were a file at `file` (relative to the repository), so the config that
 * applies to that path is used. The probe is never written to disk: other checks running on this
 * tree at the same time (lint, typecheck, bundling) must not see it.
 */
async function lintAs(file: string, code: string) {
  const eslint = new ESLint({ cwd: repoRoot });
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return result!.messages;
}

const ioProbe = [
  "import { readFileSync } from 'node:fs';",
  "import { spawn } from 'child_process';",
  "import Anthropic from '@anthropic-ai/sdk';",
  "import { Messages } from '@anthropic-ai/sdk/resources/messages';",
  "import { Connection } from '@temporalio/client';",
  "import { createActivities } from '../runtime/activities';",
  "import { builtinTools } from '../runtime/tools/builtin';",
  "import { resolveInWorkspace } from '../tools/workspace';",
  "import { createAnthropicClient } from '../model/anthropic-client';",
  'export const probe = [readFileSync, spawn, Anthropic, Messages, Connection, createActivities, builtinTools, resolveInWorkspace, createAnthropicClient];',
  '',
].join('\n');

describe('the workflow determinism lint rule', () => {
  it('refuses Node built-ins, the Anthropic SDK, the Temporal client and I/O modules under src/workflows', async () => {
    const messages = await lintAs('src/workflows/__lint_probe__.ts', ioProbe);
    const restricted = messages.filter((m) => m.ruleId === RULE);
    expect(restricted.map((m) => m.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(restricted.every((m) => m.severity === 2)).toBe(true);
    expect(restricted[0]?.message).toMatch(/Workflow code must be deterministic/);
    expect(restricted[2]?.message).toMatch(/Model calls belong in activities/);
  });

  it('refuses reading the environment in workflow code', async () => {
    const messages = await lintAs('src/workflows/__lint_probe__.ts', 'export const key = process.env.ANTHROPIC_API_KEY;\n');
    expect(messages.map((m) => m.ruleId)).toContain('no-restricted-globals');
  });

  it('allows type-only imports, which leave no code in the bundle', async () => {
    const code = [
      "import type Anthropic from '@anthropic-ai/sdk';",
      "import type { Activities } from '../runtime/activities';",
      'export type Probe = [Anthropic, Activities];',
      '',
    ].join('\n');
    expect(await lintAs('src/workflows/__lint_probe__.ts', code)).toEqual([]);
  });

  it('leaves the same imports alone outside src/workflows', async () => {
    const messages = await lintAs('src/runtime/activities/__lint_probe__.ts', ioProbe);
    expect(messages.filter((m) => m.ruleId === RULE)).toEqual([]);
  });

  it('finds nothing wrong in the real src/workflows', async () => {
    const eslint = new ESLint({ cwd: repoRoot });
    const results = await eslint.lintFiles(['src/workflows']);
    expect(results.length).toBeGreaterThan(10);
    const problems = results.flatMap((r) => r.messages.map((m) => `${path.relative(repoRoot, r.filePath)}:${m.line} ${m.ruleId}: ${m.message}`));
    expect(problems).toEqual([]);
  });
});

describe('the files the determinism rule covers', () => {
  /** The repository's source files webpack put into the workflow bundle, as the bundle names them. */
  const bundledSources = async () => {
    const { code } = await bundleAgentWorkflows();
    return [...new Set([...code.matchAll(/"\.\/(src\/[^"]+\.ts)"/g)].map((m) => m[1]!))].sort();
  };

  it('covers every source file the workflow bundle loads, and the walk that lists them finds exactly those', async () => {
    const eslint = new ESLint({ cwd: repoRoot });
    const bundled = await bundledSources();
    expect(bundled.length).toBeGreaterThan(50);
    // The config's list is walked from the entry; a real bundle is the proof the walk follows what webpack keeps.
    expect(workflowBundleFiles(repoRoot)).toEqual(bundled);
    const unlinted: string[] = [];
    for (const file of bundled) {
      const config = (await eslint.calculateConfigForFile(path.join(repoRoot, file))) as { rules?: Record<string, unknown> };
      if (!config.rules?.[RULE]) unlinted.push(file);
    }
    expect(unlinted, 'bundled into workflows but not held to the determinism rule').toEqual([]);
  }, 120_000);
});
