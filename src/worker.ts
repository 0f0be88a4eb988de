import { runAgentWorker } from './runtime/worker-setup/run-agent-worker';

/**
 * `npm run worker`: serves the agent task queue until SIGINT/SIGTERM. Everything it does is
 * `runAgentWorker()`, which a program of its own can call too: the settings read from the environment
 * once and printed (secrets masked), lifecycle events to the console, the metrics collector (served on
 * `AGENT_METRICS_PORT` when set) and the audit log: `AGENT_AUDIT_LOG`, or by default a log of this
 * process's own in `AGENT_AUDIT_DIR` (./.agent-audit/<host>-<pid>.log), so a second worker started in
 * the same folder has its own log and starts too.
 */
runAgentWorker().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
