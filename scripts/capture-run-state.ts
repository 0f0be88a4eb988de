// Captures a real checkpoint of the current state version as a fixture.
//
//   npx tsx scripts/capture-run-state.ts test/fixtures/run-state-v<N>.json
//
// A run on a private dev server with the scripted fake Messages API takes one step, then parks on a
// write that needs a person; the `checkpoint` query's answer is written as the fixture. Parked there,
// the state has most of what a checkpoint can hold: messages, usage, a turn with a call waiting,
// decisions, lifecycle events, a thread (followUps), a restricted approver list and a spend budget (version 9). The migration
// test (test/workflows/compat/migrations/migrate-state.test.ts) reads every run-state-v*.json through the
// migration, and the drift test checks the current version's fixture fits the schema field for field.
import { writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { startRun } from '../src/client/start-run';
import { createAgentWorker } from '../src/runtime/worker-setup/create-agent-worker';
import { checkpointQuery } from '../src/workflows/definitions';
import { redactedThinking, reply, serverToolUse, startFakeAnthropic, thinking, toolCall, webSearchResult } from '../test/support/fake-anthropic';
import { gatedStepTool, stepTool } from '../test/support/step-script';
import { fixtureAgents, fixtureApprovalHandlers, fixtureGuardrails } from './capture-histories/agents';
import { pendingCall } from './capture-histories/support';
import { startDevServer } from './temporal-dev-server';

const TASK = 'fixture: checkpoint';

async function run(): Promise<void> {
  const [outFile] = process.argv.slice(2);
  if (!outFile) throw new Error('usage: tsx scripts/capture-run-state.ts test/fixtures/run-state-v<N>.json');
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const server = await startDevServer({ headless: true });
  const fake = await startFakeAnthropic();
  // The first reply carries the API's own blocks (thinking, redacted thinking, a server tool call and
  // its result) and their usage, so the fixture shows how a checkpoint keeps them (version 5).
  const apiBlocks = [thinking('I should take one step first.'), redactedThinking('redacted-fixture'), serverToolUse('web_search', { query: 'steps' }, 'srvtoolu_fixture'), webSearchResult('srvtoolu_fixture', ['https://example.com/steps'])];
  fake.script(TASK, [
    reply(...apiBlocks, toolCall('step', { n: 1 })).withUsage({ output_tokens_details: { thinking_tokens: 12 }, server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 } }),
    reply(toolCall('write_file', { path: 'out.txt', content: 'x' })),
  ]);
  const taskQueue = `run-state-${Date.now()}`;
  const agentWorker = await createAgentWorker({
    address: server.address,
    taskQueue,
    workspaceRoot: await mkdtemp(path.join(tmpdir(), 'run-state-ws-')),
    env: { ANTHROPIC_API_KEY: 'fixture', ANTHROPIC_BASE_URL: fake.baseUrl },
    agents: fixtureAgents,
    tools: [stepTool, gatedStepTool],
    guardrails: fixtureGuardrails,
    approvalHandlers: fixtureApprovalHandlers,
  });
  try {
    await agentWorker.worker.runUntil(async () => {
      const handle = await startRun(
        agentWorker.client,
        { agent: 'fixture', task: TASK, user: 'ana', approvers: ['ana'], followUps: true, budget: { maxUsd: 50, maxTokens: 1_000_000 } },
        { taskQueue, workflowId: 'fixture-run-state' },
      );
      await pendingCall(handle);
      const checkpoint = await handle.query(checkpointQuery);
      writeFileSync(outFile, `${JSON.stringify(checkpoint, null, 2)}\n`);
      console.log(`wrote ${outFile} (schemaVersion ${checkpoint.schemaVersion})`);
      await handle.terminate('checkpoint captured');
    });
    // A request no script answered means the run went off its script: the checkpoint is not the one described.
    if (fake.errors.length > 0) throw new Error(`the fake model refused ${fake.errors.length} request(s):\n${fake.errors.join('\n')}`);
  } finally {
    await agentWorker.close();
    fake.close();
    await server.stop();
  }
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
