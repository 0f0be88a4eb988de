import { temporalSettings } from './config/worker-config';
import { ConsoleLifecycleLogger } from './lifecycle/console-logger';
import { createAgentWorker } from './worker-setup/create-agent-worker';

/** `npm run worker`: serves the agent task queue until SIGINT/SIGTERM. */
async function run(): Promise<void> {
  const settings = temporalSettings();
  const { worker, registry, close } = await createAgentWorker({
    lifecycleHandlers: [new ConsoleLifecycleLogger({ includeTimestamps: true })],
  });
  console.log(
    `Worker polling task queue "${settings.taskQueue}" on ${settings.address} (namespace ${settings.namespace}); agents: ${[...registry.agents.keys()].join(', ')}`,
  );
  try {
    await worker.run();
  } finally {
    await close();
  }
}

run().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
