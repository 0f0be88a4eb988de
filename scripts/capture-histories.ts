// Captures the event histories of one release's workflows as replay fixtures.
//
//   npx tsx scripts/capture-histories.ts test/fixtures/histories/<release> [scenario ...]
//
// Each scenario (scripts/capture-histories/*.ts) runs against a private dev server with the scripted
// fake Messages API, and its history is written as `<scenario>.json` (the JSON form the Temporal CLI
// and Web UI export), with the other workflows it involved beside it (`<scenario>-child.json`...). The
// replay test (test/workflows/replay.test.ts) replays every fixture against the current workflow code,
// so a change that alters the commands of an already-running workflow fails CI unless it is patched.
// Run it at each release and commit the new folder; old folders stay.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { createAgentWorker } from '../src/runtime/worker-setup/create-agent-worker';
import { startFakeAnthropic } from '../test/support/fake-anthropic';
import { gatedStepTool, stepTool } from '../test/support/step-script';
import { fixtureAgents, fixtureApprovalHandlers, fixtureGuardrails } from './capture-histories/agents';
import { approvals } from './capture-histories/approvals';
import { contained } from './capture-histories/contained';
import { firstRelease } from './capture-histories/first-release';
import { interleavings } from './capture-histories/interleavings';
import { people } from './capture-histories/people';
import type { Scenario } from './capture-histories/support';
import { team } from './capture-histories/team';
import { startDevServer } from './temporal-dev-server';

// `interleavings` first: its summarizer script must be found before the team group's catch-all.
const groups = [interleavings, firstRelease, approvals, team, people, contained];

async function run(): Promise<void> {
  const [outDir, ...only] = process.argv.slice(2);
  if (!outDir) throw new Error('usage: tsx scripts/capture-histories.ts <out-dir> [scenario ...]');
  const scenarios: Record<string, Scenario> = Object.assign({}, ...groups.map((g) => g.scenarios));
  const unknown = only.filter((name) => !(name in scenarios));
  if (unknown.length > 0) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${Object.keys(scenarios).join(', ')}`);
  Runtime.install({ logger: new DefaultLogger('WARN') });
  mkdirSync(outDir, { recursive: true });
  const server = await startDevServer({ headless: true });
  const fake = await startFakeAnthropic();
  for (const group of groups) group.scripts(fake);
  const taskQueue = `fixtures-${Date.now()}`;
  const agentWorker = await createAgentWorker({
    address: server.address,
    taskQueue,
    workspaceRoot: await mkdtemp(path.join(tmpdir(), 'fixture-ws-')),
    env: { ANTHROPIC_API_KEY: 'fixture', ANTHROPIC_BASE_URL: fake.baseUrl },
    agents: fixtureAgents,
    tools: [stepTool, gatedStepTool],
    guardrails: fixtureGuardrails,
    approvalHandlers: fixtureApprovalHandlers,
  });
  const { client } = agentWorker;
  try {
    await agentWorker.worker.runUntil(async () => {
      for (const [name, scenario] of Object.entries(scenarios)) {
        if (only.length > 0 && !only.includes(name)) continue;
        const saved: WorkflowHandle[] = [];
        const write = async (file: string, handle: WorkflowHandle) => {
          writeFileSync(path.join(outDir, `${file}.json`), `${historyToJSON(await handle.fetchHistory())}\n`);
          saved.push(handle);
          console.log(`wrote ${path.join(outDir, `${file}.json`)}`);
        };
        const handle = await scenario({ client, taskQueue, id: `fixture-${name}-${Date.now()}`, save: (suffix, h) => write(`${name}-${suffix}`, h) });
        await write(name, handle);
        // Parked workflows are left to nobody: end them so the server holds nothing open.
        for (const h of saved) {
          const latest = client.workflow.getHandle(h.workflowId);
          if ((await latest.describe()).status.name === 'RUNNING') await latest.terminate('fixture captured');
        }
      }
    });
    // A request no script answered means a scenario ran off its script: its history is not the path it names.
    if (fake.errors.length > 0) throw new Error(`the fake model refused ${fake.errors.length} request(s); fix the scenario scripts and capture again:\n${fake.errors.join('\n')}`);
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
