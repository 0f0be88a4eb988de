// A worker process that dies (SIGKILL: no shutdown, no workflow task completed) right after its
// `recordAudit` local activity wrote a decision line by CRASH_AFTER_APPROVER. The workflow task that
// ran that local activity is never completed, so the server times it out and hands it to the next
// worker: the fuzzer's seed 1 ("Workflow task not found" after a restart), made to happen every time.
// Run with tsx; configured by TEMPORAL_ADDRESS, AGENT_TASK_QUEUE, AGENT_AUDIT_LOG, AGENT_AUDIT_HEAD_DIR,
// ANTHROPIC_BASE_URL and CRASH_AFTER_APPROVER.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Context } from '@temporalio/activity';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, Next } from '@temporalio/worker';
import type { AuditEntry } from '../../../../src/runtime/audit/audit-record';
import { createAgentWorker } from '../../../../src/runtime/worker-setup/create-agent-worker';
import { findingNote, findingNoter } from './finding-agents';

const approver = process.env.CRASH_AFTER_APPROVER ?? '';

/** Lets `recordAudit` write, then kills this process if it wrote the decision by `approver`. */
class DieAfterLine implements ActivityInboundCallsInterceptor {
  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const result = await next(input);
    const entries = Context.current().info.activityType === 'recordAudit' ? ((input.args[0] ?? []) as AuditEntry[]) : [];
    if (entries.some((entry) => entry.approver === approver)) {
      console.log(`crash-after-line worker: wrote the decision by ${approver}; dying before the workflow task completes`);
      process.kill(process.pid, 'SIGKILL');
    }
    return result;
  }
}

async function run(): Promise<void> {
  // The suite's one workflow bundle (test/support/global-setup.ts), as crash-worker.ts takes it; run
  // outside the suite, it bundles (the activity interceptor below does not touch workflow code).
  const prebuilt = process.env.DURABLE_AGENT_TEST_BUNDLE;
  const { worker, close } = await createAgentWorker({
    address: process.env.TEMPORAL_ADDRESS,
    taskQueue: process.env.AGENT_TASK_QUEUE,
    workspaceRoot: await mkdtemp(path.join(tmpdir(), 'crash-after-line-')),
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: process.env.ANTHROPIC_BASE_URL, AGENT_AUDIT_HEAD_DIR: process.env.AGENT_AUDIT_HEAD_DIR },
    auditLog: process.env.AGENT_AUDIT_LOG,
    agents: [findingNoter],
    tools: [findingNote],
    workflowBundle: prebuilt ? { code: await readFile(prebuilt, 'utf8') } : undefined,
    workerOptions: { interceptors: { activity: [() => ({ inbound: new DieAfterLine() })] } },
  });
  console.log('crash-after-line worker polling');
  try {
    await worker.run();
  } finally {
    await close();
  }
}

run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
