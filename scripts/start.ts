// `npm start`: everything a newcomer needs in one terminal. An embedded Temporal dev server (or the
// one TEMPORAL_ADDRESS names), a worker in this process, and a sample agent run followed live, with
// a real Claude model when ANTHROPIC_API_KEY is set and the offline demo model otherwise. The worker
// and server stay up after the run (so parked runs continue) until Ctrl-C.
//
// START_EXIT_AFTER_RUN=1 exits after the sample run with its exit code (used by the tests and CI).
// START_TEMPORAL_PORT, START_UI_PORT and START_DB_FILE move the embedded server off its fixed ports
// and database file (when 7233/8233 are taken, and for tests, which cannot count on them being free).
import net from 'node:net';
import * as path from 'node:path';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { DefaultLogger } from '@temporalio/worker';
import { defaultApprover, sendDecision } from '../src/client/approval-helpers';
import { connectClient } from '../src/client/connect';
import { listPendingRuns } from '../src/cli/commands/pending';
import { followRun } from '../src/client/follow-run';
import { hintOnPark, promptOnPark, type ParkedHandlers } from '../src/client/follow-prompts';
import { approvalHint } from '../src/client/render-status';
import { exitCodeOf } from '../src/client/run-outcome';
import { startRun } from '../src/client/start-run';
import { temporalSettings } from '../src/runtime/config/worker-config';
import { DEMO_LABEL, startDemoModelServer } from '../src/runtime/demo/demo-model-server';
import { SAMPLE_TASK } from '../src/runtime/demo/sample-task';
import { describeWorkerSettings } from '../src/runtime/config/settings-banner';
import { parseWorkerSettings } from '../src/runtime/config/worker-settings';
import { createBuiltinHandlers } from '../src/runtime/lifecycle/builtin-handlers';
import { ConsoleLifecycleLogger } from '../src/runtime/lifecycle/console-logger';
import { installWorkerRuntime } from '../src/runtime/observability/runtime';
import { createAgentWorker, workerSettingsFrom } from '../src/runtime/worker-setup/create-agent-worker';
import { consoleOptions } from '../src/console/console-options';
import { ConsoleConfigError } from '../src/console/errors';
import { startConsole } from '../src/console/start-console';
import { startEncryptionCodecServer } from './start-codec-server';
import { startDevServer } from './temporal-dev-server';

const GRPC_PORT = 7233;
const UI_PORT = 8233;
const DB_FILE = path.join(__dirname, '..', '.temporal', 'dev.db');

/** A fixed port the embedded server needs is taken; the message says what to do instead. */
export class PortTakenError extends Error {
  override readonly name = 'PortTakenError';
}

/** A START_* setting that cannot be used; the message names it and what it should be. */
export class StartSettingError extends Error {
  override readonly name = 'StartSettingError';
}

const say = (line: string) => void process.stdout.write(`${line}\n`);

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

interface EmbeddedServer {
  port: number;
  uiPort: number;
  dbFile: string;
}

function embeddedServer(env: NodeJS.ProcessEnv): EmbeddedServer {
  const port = (name: string, fallback: number) => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 65_535) throw new StartSettingError(`${name}=${value} is not a TCP port: use a number from 1 to 65535, or unset it for ${fallback}.`);
    return n;
  };
  return { port: port('START_TEMPORAL_PORT', GRPC_PORT), uiPort: port('START_UI_PORT', UI_PORT), dbFile: env.START_DB_FILE || DB_FILE };
}

async function ensurePortsFree({ port: grpcPort, uiPort }: EmbeddedServer): Promise<void> {
  for (const [port, what] of [[grpcPort, 'Temporal gRPC'], [uiPort, 'Temporal Web UI']] as const) {
    if (await portIsFree(port)) continue;
    throw new PortTakenError(
      `Port ${port} (${what}) is already in use, so the embedded Temporal dev server cannot start. ` +
        `If another \`npm start\` or \`temporal server start-dev\` is running, stop it, or use it: ` +
        `TEMPORAL_ADDRESS=localhost:${grpcPort} npm start (or START_TEMPORAL_PORT / START_UI_PORT for other ports)`,
    );
  }
}

/** Runs parked before this start continue now that a worker is up; say how to decide them. */
async function reportWaitingRuns(client: Client): Promise<void> {
  const waiting = await listPendingRuns(client, 20).catch(() => []);
  if (waiting.length === 0) return;
  say(`\n${waiting.length} earlier run(s) are waiting for you:`);
  for (const run of waiting) {
    const calls = run.status?.pendingApprovals ?? [];
    const what = calls.length > 0 ? calls.map((p) => p.tool).join(', ') : (run.status?.pendingQuestion?.question ?? run.phase);
    say(`  ${run.workflowId}: ${run.phase} (${what})`);
    if (run.phase === 'waiting_input') say(`    Answer: npx agentctl reply ${run.workflowId} "..."`);
    else for (const line of approvalHint(run.workflowId, calls.map((p) => p.callId))) say(`    ${line}`);
  }
  say('');
}

/** Without a terminal nobody can answer: the demo approves its own write, and says so. */
function autoApproveDemo(handle: WorkflowHandle): ParkedHandlers {
  return {
    async onApprovals(_status, fresh) {
      for (const p of fresh) {
        say(`  stdin is not a terminal: auto-approving ${p.tool} for the demo (approver "npm-start-auto").`);
        await sendDecision(handle, { callId: p.callId, decision: 'approve', approver: 'npm-start-auto', reason: 'demo run without a terminal' });
      }
    },
    async onQuestion(status) {
      await hintOnPark(handle.workflowId, say).onQuestion(status);
    },
  };
}

/**
 * The SDK's warnings and errors, one line each: its INFO lines (bundler output, worker states) would
 * bury the run. A conversation-store miss is expected when a run moves to this new process (the
 * workflow resends the conversation), so it is not shown.
 */
function terminalLogger(): DefaultLogger {
  return new DefaultLogger('WARN', ({ level, message, meta }) => {
    const error = meta?.error as { type?: string; message?: string } | undefined;
    if (error?.type === 'ConversationStoreMiss') return;
    process.stderr.write(`[temporal ${level}] ${message}${error?.message ? `: ${error.message}` : ''}\n`);
  });
}

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // Parsed as `npm run worker` parses them, before anything starts: a bad value stops here, and each
  // unknown AGENT_* name gets its "did you mean" once.
  const { temporal, observability } = workerSettingsFrom(env);
  const { temporalMetricsUrl } = await installWorkerRuntime(observability, terminalLogger());
  const cleanups: (() => Promise<unknown>)[] = [];
  const cleanUp = async () => {
    for (const fn of cleanups.reverse()) await fn().catch((error: unknown) => say(`(cleanup: ${String(error)})`));
  };
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    // A server named by TEMPORAL_ADDRESS or a profile (TEMPORAL_PROFILE) is used as it is.
    let address = env.TEMPORAL_ADDRESS || env.TEMPORAL_PROFILE ? temporal.address : undefined;
    if (address) {
      // Fails with "cannot reach Temporal at ...; start it with ..." rather than a gRPC stack.
      await (await connectClient(temporal)).close();
      const source = temporal.source;
      say(`Using the Temporal server at ${address} (${source === 'environment' ? 'TEMPORAL_ADDRESS' : source}).`);
    } else {
      const embedded = embeddedServer(env);
      await ensurePortsFree(embedded);
      // With AGENT_ENCRYPTION_KEY the Web UI needs the codec server to show payloads decoded.
      const codec = await startEncryptionCodecServer(env, embedded.uiPort, say);
      if (codec) cleanups.push(() => codec.close());
      say('Starting the embedded Temporal dev server...');
      const server = await startDevServer({ port: embedded.port, uiPort: embedded.uiPort, dbFilename: embedded.dbFile, uiCodecEndpoint: codec?.uiEndpoint });
      cleanups.push(() => server.stop());
      address = server.address;
      const kept = path.relative(process.cwd(), embedded.dbFile) || embedded.dbFile;
      say(`Temporal dev server on localhost:${embedded.port}; Web UI: http://localhost:${embedded.uiPort} (runs are kept in ${kept})`);
    }

    let workerEnv: NodeJS.ProcessEnv = { ...env, TEMPORAL_ADDRESS: address };
    const demo = !env.ANTHROPIC_API_KEY;
    if (demo) {
      const model = await startDemoModelServer({ delayMs: Number(env.START_DEMO_DELAY_MS ?? 400) });
      cleanups.push(() => model.close());
      workerEnv = { ...workerEnv, ANTHROPIC_API_KEY: 'demo-offline', ANTHROPIC_BASE_URL: model.baseUrl };
      say(`${DEMO_LABEL} ANTHROPIC_API_KEY is not set, so this run uses an offline, scripted demo model, not Claude.`);
    } else {
      say('Model: Claude via the Anthropic API (ANTHROPIC_API_KEY is set).');
    }

    // The followed run is shown by the follower; the worker's log line for every other run (one
    // started from another terminal, an earlier parked one) is printed as it happens.
    let followed: string | undefined;
    const logger = new ConsoleLifecycleLogger({ includeTimestamps: true, write: (line) => say(`[worker] ${line}`) });
    // The worker's own settings: those above plus the server and model chosen here; the same banner as `npm run worker`.
    const settings = parseWorkerSettings(workerEnv);
    say(`Settings:\n${describeWorkerSettings(settings).map((line) => `  ${line}`).join('\n')}`);
    const builtins = await createBuiltinHandlers(settings.observability.metrics, [{ handle: (e) => (e.workflowId === followed ? undefined : logger.handle(e)) }], temporalMetricsUrl);
    cleanups.push(() => builtins.close());
    say('Starting the worker (bundling the workflow code takes a few seconds)...');
    const auditFile = settings.audit.log;
    const { worker, client, close } = await createAgentWorker({ address, settings, lifecycleHandlers: builtins.handlers, auditLog: auditFile });
    const running = worker.run();
    cleanups.push(async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await close();
    });
    const { taskQueue } = settings.temporal;
    say(`Worker running in this process on task queue "${taskQueue}".${auditFile ? ` Audit log: ${auditFile}` : ''}`);
    await startApprovalConsole(client, env, address !== env.TEMPORAL_ADDRESS, cleanups);
    await reportWaitingRuns(client);
    if (stop.signal.aborted) return 130;

    const task = demo ? `${DEMO_LABEL} ${SAMPLE_TASK}` : SAMPLE_TASK;
    const handle = await startRun(client, { agent: 'general', task }, { taskQueue });
    followed = handle.workflowId;
    say(`\nSample run ${handle.workflowId} (agent general): ${task}`);
    say(`Watch it in the Web UI too: ${uiUrl(env, handle.workflowId)}\n`);
    const interactive = Boolean(process.stdin.isTTY);
    const parked = interactive
      ? promptOnPark(handle, { input: process.stdin, output: process.stdout, approver: defaultApprover(env) }, say)
      : demo
        ? autoApproveDemo(handle)
        : hintOnPark(handle.workflowId, say);
    const result = await followRun(client, handle, { out: say, write: (fragment) => void process.stdout.write(fragment), ...parked, signal: stop.signal });
    followed = undefined;
    if (result.kind === 'stopped' || env.START_EXIT_AFTER_RUN === '1') return result.kind === 'stopped' ? 130 : exitCodeOf(result);

    say('\nThe worker keeps running, so runs started elsewhere are served too. In another terminal, try:');
    say('  npx agentctl run general "List the files and summarize them in summary.md"');
    say('  npx agentctl list        npx agentctl pending        npx agentctl status <workflowId>');
    say('Press Ctrl-C to stop the worker and the server.');
    await new Promise<void>((resolve) => (stop.signal.aborted ? resolve() : stop.signal.addEventListener('abort', () => resolve(), { once: true })));
    return 0;
  } finally {
    if (stop.signal.aborted) say('\nStopping: worker shutdown, then the Temporal dev server...');
    await cleanUp();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (stop.signal.aborted) say('Stopped. Parked runs are kept and continue after the next `npm start`.');
  }
}

/**
 * The approval console next to the worker, on loopback, reading the worker's workspace for diffs. A
 * taken port is not fatal: the sample run works without the page, and the message says what to set.
 */
async function startApprovalConsole(client: Client, env: NodeJS.ProcessEnv, embedded: boolean, cleanups: (() => Promise<unknown>)[]): Promise<void> {
  try {
    const options = consoleOptions({
      workspace: path.resolve(env.AGENT_WORKSPACE ?? 'workspace'),
      uiBaseUrl: env.TEMPORAL_UI_URL || (embedded ? `http://localhost:${UI_PORT}` : undefined),
    }, env);
    const running = await startConsole(options, { client });
    cleanups.push(() => running.close());
    say(`Approval console: ${running.url}  (log in with the start token ${running.token})`);
  } catch (error) {
    if (!(error instanceof ConsoleConfigError)) throw error;
    say(`The approval console did not start: ${error.message} (AGENT_CONSOLE_PORT picks another port.)`);
  }
}

function uiUrl(env: NodeJS.ProcessEnv, workflowId: string): string {
  const namespace = temporalSettings(env).namespace;
  const base = env.TEMPORAL_ADDRESS ? '(your server\'s Web UI)' : `http://localhost:${embeddedServer(env).uiPort}`;
  return `${base}/namespaces/${namespace}/workflows/${encodeURIComponent(workflowId)}`;
}
