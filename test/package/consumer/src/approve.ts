// A user's worker from the library (its audit log on, as by default) and the user's own Temporal
// client handed to `new AgentClient({ client, taskQueue })`: one run of an agent with a typed
// `outputSchema` asks to refund an order, this program approves the call, and prints the typed result.
// The task comes as the first argument; settings from the environment (TEMPORAL_ADDRESS,
// TEMPORAL_TASK_QUEUE, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, AGENT_WORKSPACE, AGENT_AUDIT_DIR).
import { Client, Connection } from '@temporalio/client';
import { z } from 'zod';
import { createAgentWorker, defineAgent, defineTool, ToolResult } from 'durable-agent';
import { AgentClient } from 'durable-agent/client';

const refundOrder = defineTool({
  name: 'refund_order',
  description: 'Refunds an order.',
  scope: 'write', // writes ask a person by default
  inputSchema: z.object({ orderId: z.string() }),
  async execute({ orderId }) {
    return ToolResult.success(`refunded ${orderId}`);
  },
});

const refunds = defineAgent({
  name: 'refunds',
  description: 'Refunds orders.',
  modelTier: 'balanced',
  tools: ['refund_order'],
  systemPrompt: 'Refund the orders you are asked to refund.',
  maxIterations: 5,
  outputSchema: z.object({ refunded: z.array(z.string()) }),
});

const taskQueue = process.env.TEMPORAL_TASK_QUEUE;
if (!taskQueue) throw new Error('set TEMPORAL_TASK_QUEUE');
const agentWorker = await createAgentWorker({ agents: [refunds], tools: [refundOrder] });
const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS });
const agents = new AgentClient({ client: new Client({ connection }), taskQueue });
try {
  const summary = await agentWorker.worker.runUntil(async () => {
    const run = await agents.start(refunds, { task: process.argv[2] ?? 'Refund order A-17' });
    const [pending] = await run.waitForApprovals({ timeoutMs: 60_000 });
    if (!pending) throw new Error('no call waits for approval');
    const decision = await run.approve({ callId: pending.callId, approver: 'ops', reason: 'checked' });
    const result = await run.result();
    // Typed from the agent's outputSchema: were `output` `unknown`, this line would not compile.
    const refunded: string[] = result.output?.refunded ?? [];
    return { workflowId: run.workflowId, tool: pending.tool, input: pending.input, decision, status: result.status, refunded };
  });
  console.log(JSON.stringify({ ...summary, auditLog: agentWorker.auditLog }));
} finally {
  await connection.close();
  await agentWorker.close();
}
