// What every benchmark shares: its own Temporal dev server, a prebuilt workflow bundle, a worker on
// a fresh task queue pointed at the fake model, percentiles, and Markdown tables written to
// bench/results/ as well as printed.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { bundleWorkflowCode, DefaultLogger, Runtime, type WorkflowBundle } from '@temporalio/worker';
import { LOW_LATENCY_DYNAMIC_CONFIG, startDevServer, type DevServer, type DevServerOptions } from '../../scripts/temporal-dev-server';
import { createAgentWorker, WORKFLOWS_PATH, type AgentWorker, type AgentWorkerOptions } from '../../src/runtime/worker-setup/create-agent-worker';

export interface BenchEnv {
  server: DevServer;
  bundle: WorkflowBundle;
  close(): Promise<void>;
}

/** Dynamic config for a dev server left at Temporal's own history queue-reader rates (see LOW_LATENCY_DYNAMIC_CONFIG). */
export const TEMPORAL_DEFAULT_QUEUE_RATES: Record<string, null> = Object.fromEntries(Object.keys(LOW_LATENCY_DYNAMIC_CONFIG).map((key) => [key, null]));

/** Quiet Temporal logs: benchmarks print tables, and an activity failure is reported by the bench itself. */
let quieted = false;
export function quietRuntime(): void {
  // Once per process: a bench that starts several servers calls this for each.
  if (quieted) return;
  quieted = true;
  Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } } });
}

export async function startBenchEnv(options: Pick<DevServerOptions, 'dynamicConfig' | 'log'> = {}): Promise<BenchEnv> {
  quietRuntime();
  const [server, bundle] = await Promise.all([
    startDevServer({ headless: true, ...options }),
    bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('ERROR') }),
  ]);
  return { server, bundle, close: () => server.stop() };
}

/** History pages of the naive design carry multi-MiB events; the default 4 MiB gRPC limit refuses them. */
export const LARGE_MESSAGES = { 'grpc.max_receive_message_length': 128 * 1024 * 1024 };

export const uniqueId = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export async function benchWorker(
  env: BenchEnv,
  modelUrl: string,
  options: Omit<AgentWorkerOptions, 'address' | 'taskQueue' | 'env' | 'workflowBundle'> = {},
): Promise<AgentWorker & { taskQueue: string }> {
  const taskQueue = uniqueId('bench');
  const worker = await createAgentWorker({
    // As before the audit log was on by default: the figures stay comparable with earlier runs.
    auditLog: false,
    address: env.server.address,
    taskQueue,
    workspaceRoot: options.workspaceRoot ?? mkdtempSync(path.join(tmpdir(), 'bench-ws-')),
    env: { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: modelUrl },
    workflowBundle: env.bundle,
    ...options,
  });
  return { ...worker, taskQueue };
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Differences between consecutive timestamps: one per iteration when each stamps a model request. */
export const gaps = (stamps: readonly number[]) => stamps.slice(1).map((t, i) => t - stamps[i]!);

export const ms = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
export const kib = (bytes: number, digits = 1) => (bytes / 1024).toFixed(digits);
export const mib = (bytes: number, digits = 2) => (bytes / 1024 / 1024).toFixed(digits);

export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Prints the report and writes it to bench/results/<name>.md (or BENCH_RESULTS_DIR), with the machine and command. */
export function report(name: string, command: string, body: string): void {
  const cores = cpus();
  const header = [
    `# ${name}`,
    '',
    `Command: \`${command}\` · ${new Date().toISOString()} · Node ${process.version} · ${cores.length} × ${cores[0]?.model ?? 'cpu'}`,
    '',
  ].join('\n');
  const text = `${header}${body.trim()}\n`;
  console.log(`\n${text}`);
  // BENCH_RESULTS_DIR lets a test run a bench at a tiny size without overwriting the committed results.
  const dir = process.env.BENCH_RESULTS_DIR ?? path.join(__dirname, '..', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.md`), text);
}

/** A bench size from the command line (`--iterations 200`) or the environment, with a default. */
export function sizeArg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const raw = at >= 0 ? process.argv[at + 1] : process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number, not ${raw}`);
  return value;
}
