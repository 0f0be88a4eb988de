// The agent's test: a real Temporal dev server (or TEMPORAL_ADDRESS's), a worker with the agent and the
// tool, and a scripted model that plays the turns below instead of calling Anthropic.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { reply, startAgentTestEnvironment, text, toolCall, type AgentTestEnvironment } from 'durable-agent/testing';
import { helpdesk } from '../src/agents.js';
import { createTicket, tickets } from '../src/tools.js';

let env: AgentTestEnvironment;
before(async () => {
  env = await startAgentTestEnvironment({ agents: [helpdesk], tools: [createTicket], address: process.env.TEMPORAL_ADDRESS });
});
after(() => env.close());

test('files a ticket once a person approves it', async () => {
  env.model.script('printer is on fire', [
    reply(text('That is urgent.'), toolCall('create_ticket', { title: 'Printer on fire', priority: 'urgent' })),
    reply(toolCall('complete_task', { summary: 'Filed ticket #1 (urgent).', status: 'success' })),
  ]);
  const run = await env.start({ agent: 'helpdesk', task: 'The printer is on fire!' });
  const [pending] = await run.waitForApprovals();
  assert.equal(pending?.tool, 'create_ticket');
  assert.equal(tickets.length, 0, 'nothing is filed before the approval');
  await run.approve({ approver: 'test' });
  const result = await run.result();
  assert.equal(result.completion?.summary, 'Filed ticket #1 (urgent).');
  assert.deepEqual(tickets, [{ title: 'Printer on fire', priority: 'urgent' }]);
  assert.deepEqual(env.model.errors, []);
});
