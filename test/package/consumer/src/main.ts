// A user's worker and client in one ESM program (top-level await): serves the `support` agent with
// the tools of tools.ts, runs the tasks given as arguments on it, and prints their results as JSON.
// Settings come from the environment, as for any worker: TEMPORAL_ADDRESS, TEMPORAL_TASK_QUEUE,
// ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, AGENT_WORKSPACE.
import { createAgentWorker, type AgentDefinitionInput } from 'durable-agent';
import { connectClient, parseClientSettings, startRun, statusQuery, type AgentRunResult, type RunPhase } from 'durable-agent/client';
import { fileReport, lookupOrder } from './tools.js';

const agents: AgentDefinitionInput[] = [
  {
    name: 'support',
    description: 'Answers questions about orders.',
    modelTier: 'balanced',
    tools: ['lookup_order', 'file_report'],
    systemPrompt: 'You answer questions about orders. Look them up; never guess.',
    maxIterations: 10,
  },
];

const { worker, close } = await createAgentWorker({ agents, tools: [lookupOrder, fileReport] });
const settings = parseClientSettings(process.env);
const connection = await connectClient(settings.temporal);
try {
  const runs: { result: AgentRunResult; phase: RunPhase }[] = await worker.runUntil(async () => {
    const handles = await Promise.all(
      process.argv.slice(2).map((task) => startRun(connection.client, { agent: 'support', task }, { taskQueue: settings.temporal.taskQueue })),
    );
    // The typed result, then the typed status query (answered by this worker while it still runs).
    return Promise.all(handles.map(async (handle) => ({ result: await handle.result(), phase: (await handle.query(statusQuery)).phase })));
  });
  console.log(JSON.stringify(runs));
} finally {
  await connection.close();
  await close();
}
