// The worker: serves the helpdesk agent with your tool. Settings come from the environment:
// ANTHROPIC_API_KEY, TEMPORAL_ADDRESS (default localhost:7233), TEMPORAL_TASK_QUEUE (default agents),
// and the rest of the README's table. runAgentWorker does what `npm run worker` does: it prints the
// settings, writes the hash-chained audit log (./.agent-audit/), prints one line per lifecycle event,
// serves metrics when AGENT_METRICS_PORT is set, and stops on Ctrl-C.
import { runAgentWorker } from 'durable-agent';
import { helpdesk } from './agents.js';
import { createTicket } from './tools.js';

await runAgentWorker({ agents: [helpdesk], tools: [createTicket] });
