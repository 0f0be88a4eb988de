// A worker as a library user writes it (the quickstart's worker.ts): createAgentWorker from the
// environment, its banner printed, run until SIGINT/SIGTERM. With NEVER_RUN=1 it builds the worker and
// never runs it, as a program that fails between the two would, and waits for a signal.
import { createAgentWorker } from '../../../../src/index';

async function main(): Promise<void> {
  const agentWorker = await createAgentWorker();
  console.log(`Settings:\n${agentWorker.describe().map((line) => `  ${line}`).join('\n')}`);
  if (process.env.NEVER_RUN === '1') {
    console.log('Worker created, never run');
    return;
  }
  console.log(`Worker polling task queue "${agentWorker.settings.temporal.taskQueue}"`);
  try {
    await agentWorker.worker.run();
  } finally {
    await agentWorker.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
