// The agent's regression test against a recorded run: test/recorded/printer-fire.json is a real run
// of this agent (written by `npx agentctl replay --export <workflowId> > test/recorded/printer-fire.json`).
// replayRecordedRun replays it in a shadow against the agent and tool as they are now: the model is
// answered from the record while the requests stay the same, and create_ticket (a write) never runs.
// Change the agent's prompt or the tool's schema and this test says where the run would go otherwise.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { replayRecordedRun } from 'durable-agent/testing';
import { helpdesk } from '../src/agents.js';
import { createTicket, tickets } from '../src/tools.js';

const recorded = new URL('../../test/recorded/printer-fire.json', import.meta.url);

test('the recorded printer-fire run replays unchanged against the agent as it is now', async () => {
  const history = JSON.parse(readFileSync(recorded, 'utf8'));
  const report = await replayRecordedRun({ history, agents: [helpdesk], tools: [createTicket], address: process.env.TEMPORAL_ADDRESS });
  assert.equal(report.diverged, false, `the run diverged: ${JSON.stringify(report.firstDivergence)}`);
  assert.equal(report.modelCalls.live, 0);
  // The recorded ticket was filed when the run was recorded; the replay filed nothing.
  assert.deepEqual(report.wouldRun.map((call) => [call.tool, call.recorded]), [['create_ticket', true]]);
  assert.deepEqual(tickets, []);
});
