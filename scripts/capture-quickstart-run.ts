// Records the run examples/quickstart/test/replay.test.ts replays: the quickstart's agent and tool,
// the scripted turns of its own test, a person's approval, then the run exported as
// `agentctl replay --export` writes it. Run after changing the example's agent or tool on purpose,
// from the repository's root, once the example's dependencies link it to this checkout:
//   npm run build && (cd examples/quickstart && npm install) && npx tsx scripts/capture-quickstart-run.ts
// It starts its own Temporal dev server unless TEMPORAL_ADDRESS names one.
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { exportRecordedRun } from '../src/client/replay/recorded-run-file';
import type { AgentDefinitionInput } from '../src/contract/agent-definition';
import type { Tool } from '../src/runtime/tools/tool-definition';
import { reply, startAgentTestEnvironment, text, toolCall } from '../src/testing';

const EXAMPLE = path.join(__dirname, '..', 'examples', 'quickstart');
const TARGET = path.join(EXAMPLE, 'test', 'recorded', 'printer-fire.json');

/** The example's own module (it imports the package: this checkout, once linked), loaded by path so this checkout's typecheck does not follow it. */
const load = (file: string) => import(path.join(EXAMPLE, 'src', file)) as Promise<Record<string, unknown>>;

async function main(): Promise<void> {
  const helpdesk = (await load('agents.ts')).helpdesk as AgentDefinitionInput;
  const createTicket = (await load('tools.ts')).createTicket as Tool;
  const env = await startAgentTestEnvironment({ agents: [helpdesk], tools: [createTicket], address: process.env.TEMPORAL_ADDRESS });
  try {
    env.model.script('printer is on fire', [
      reply(text('That is urgent.'), toolCall('create_ticket', { title: 'Printer on fire', priority: 'urgent' })),
      reply(toolCall('complete_task', { summary: 'Filed ticket #1 (urgent).', status: 'success' })),
    ]);
    const run = await env.start({ agent: 'helpdesk', task: 'The printer is on fire!' });
    await run.waitForApprovals();
    await run.approve({ approver: 'dana', reason: 'urgent indeed' });
    await run.result();
    writeFileSync(TARGET, `${JSON.stringify(await exportRecordedRun(env.worker.client, run.workflowId), null, 1)}\n`);
    console.log(`wrote ${TARGET}`);
  } finally {
    await env.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
