// Issue 31, finding 6: a decision's audit line is on disk before any tool it lets run starts. The
// tool here is quick and idempotent, so it runs as a local activity inside the very workflow task
// that applied the decision: the tightest spot for the order to break.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { decideApprovalUpdate } from '../../../src/contract/agent-run-api';
import { ToolResult } from '../../../src/contract/tool-result';
import { defineTool } from '../../../src/runtime/tools/tool-definition';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { complete, parked } from '../approval-test-kit';

let auditLog = '';
/** For each call that started: whether its decision's line was in the audit log at that moment. */
const seenAtStart = new Map<string, boolean>();
const stamp = defineTool({
  name: 'stamp',
  description: 'Stamps a key (a write, so it needs approval; quick and safe to repeat).',
  scope: 'write',
  idempotent: true,
  quick: true,
  inputSchema: z.object({ key: z.string() }),
  async execute(_input, ctx) {
    const [run, callId] = [ctx.idempotencyKey.slice(0, ctx.idempotencyKey.lastIndexOf('/')), ctx.idempotencyKey.slice(ctx.idempotencyKey.lastIndexOf('/') + 1)];
    const lines = (await readFile(auditLog, 'utf8').catch(() => '')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { run?: string; callId?: string; kind?: string });
    if (!seenAtStart.has(callId)) seenAtStart.set(callId, lines.some((l) => l.run === run && l.callId === callId && l.kind === 'decision'));
    return ToolResult.success('stamped');
  },
});
const stamper: AgentDefinitionInput = { name: 'stamper', description: 'Stamps keys.', modelTier: 'fast', tools: ['stamp'], systemPrompt: 'You stamp.', maxIterations: 5 };

/** A slow disk: each audit write takes half a second, so a tool that does not wait for it is caught. */
const slowAudit: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    async execute(input, next) {
      if (ctx.info.activityType === 'recordAudit') await new Promise((resolve) => setTimeout(resolve, 500));
      return next(input);
    },
  },
});

describe('audit before action', () => {
  const bed = useAgentTestbed({ agents: [stamper], tools: [stamp] });
  const fake = bed.fake;

  it('no tool a person approved starts before the approval is in the audit log', async () => {
    const task = uniqueId('audit-first');
    const calls = ['a', 'b', 'c', 'd'];
    fake.script(task, [reply(...calls.map((key) => toolCall('stamp', { key }))), complete()]);
    auditLog = path.join(await mkdtemp(path.join(tmpdir(), 'audit-order-')), 'audit.log');
    await withAgentWorker({ ...bed.harness(), auditLog, workerOptions: { interceptors: { activity: [slowAudit] } } }, async ({ start }) => {
      const handle = await start({ agent: 'stamper', task });
      await parked(handle, calls.length);
      for (const [i] of calls.entries()) {
        await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: `toolu_0_${i}`, decision: 'approve', approver: 'ann' }] });
      }
      expect((await handle.result()).status).toBe('completed');
    });
    expect(Object.fromEntries(seenAtStart)).toEqual(Object.fromEntries(calls.map((_, i) => [`toolu_0_${i}`, true])));
  });
});
