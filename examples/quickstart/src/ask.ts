// A client: starts a run with the task given on the command line, approves its ticket after showing
// it, and prints the result. Reads the same TEMPORAL_* settings as the worker.
import { AgentClient } from 'durable-agent/client';

const task = process.argv.slice(2).join(' ') || 'My laptop does not boot since the update.';
const agents = await AgentClient.connect();
try {
  const run = await agents.start({ agent: 'helpdesk', task });
  console.log(`started ${run.workflowId}`);
  for await (const event of run.events()) {
    if (event.type === 'approval') {
      console.log(`approving ${event.pending.tool} ${JSON.stringify(event.pending.input)}`);
      await run.approve({ callId: event.pending.callId, reason: 'quickstart approves every ticket' });
    }
    if (event.type === 'ended') console.log(`ended: ${event.outcome.kind}`);
  }
  const result = await run.result();
  console.log(result.completion?.summary);
} finally {
  await agents.close();
}
