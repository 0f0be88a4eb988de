// The worker: serves the helpdesk agent with your tool. Settings come from the environment:
// ANTHROPIC_API_KEY, TEMPORAL_ADDRESS (default localhost:7233), TEMPORAL_TASK_QUEUE (default agent-tasks).
import { createAgentWorker, describeWorkerSettings } from 'durable-agent';
import { helpdesk } from './agents.js';
import { createTicket } from './tools.js';

const { worker, settings, close } = await createAgentWorker({ agents: [helpdesk], tools: [createTicket] });
console.log(describeWorkerSettings(settings).join('\n'));
try {
  await worker.run(); // until Ctrl-C
} finally {
  await close();
}
