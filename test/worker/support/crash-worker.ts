// A worker process for the crash tests: the built-in agents plus `slow_step`, a tool that is safe to
// repeat and records every start and end of every call, so a test can count side effects exactly.
// Run with tsx; configured by the same environment as `npm run worker`.
import { appendFile, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { builtinAgents } from '../../../src/runtime/agents/builtin-agents';
import { auditLogPathFromEnv } from '../../../src/runtime/audit/audit-path';
import { defineTool } from '../../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../../src/contract/tool-result';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';

const slowStep = defineTool({
  name: 'slow_step',
  description: 'Does step n slowly; safe to repeat.',
  scope: 'write',
  idempotent: true,
  inputSchema: z.object({ n: z.number().int(), ms: z.number().int().min(0) }),
  async execute({ n, ms }, context) {
    const log = path.join(context.workspaceRoot, 'steps.log');
    await appendFile(log, `start ${n}\n`);
    const started = Date.now();
    while (Date.now() - started < ms) {
      context.heartbeat();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await appendFile(log, `end ${n}\n`);
    return ToolResult.success(`step ${n} done`);
  },
});

/** A read tool (so quick and idempotent by default: it runs as a local activity) that logs like slow_step. */
const quickProbe = defineTool({
  name: 'quick_probe',
  description: 'Reads step n, taking ms milliseconds; safe to repeat.',
  scope: 'read',
  inputSchema: z.object({ n: z.number().int(), ms: z.number().int().min(0) }),
  async execute({ n, ms }, context) {
    const log = path.join(context.workspaceRoot, 'probe.log');
    await appendFile(log, `start ${n}\n`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    await appendFile(log, `end ${n}\n`);
    return ToolResult.success(`probe ${n} done`);
  },
});

async function run(): Promise<void> {
  const general = builtinAgents.find((a) => a.name === 'general')!;
  // The suite's one workflow bundle (test/support/global-setup.ts), named in the environment this
  // process inherits: bundling here cost every crash worker 3-4 s of CPU. Run outside the suite, it bundles.
  const prebuilt = process.env.DURABLE_AGENT_TEST_BUNDLE;
  const { worker, close } = await createAgentWorker({
    agents: [{ ...general, tools: [...general.tools, 'slow_step', 'quick_probe'] }],
    tools: [slowStep, quickProbe],
    auditLog: auditLogPathFromEnv(process.env),
    workflowBundle: prebuilt ? { code: await readFile(prebuilt, 'utf8') } : undefined,
  });
  console.log('crash worker polling');
  try {
    await worker.run();
  } finally {
    await close();
  }
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
