// The workspace scan (issue 30): before a command, a root worker walks the workspace to hand entries
// to the sandbox user and, for a call a rule let write, to find the protected paths it must mount
// read-only. This measures what that walk costs, and what it does to the rest of the worker.
//
// Part 1, the scan alone (src/runtime/tools/sandbox/workspace-scan.ts, in a child process of its own):
// its time and peak RSS for workspaces of 10k, 100k and 300k folders already owned by the sandbox
// user (what a command's `mkdir` leaves), with how late a 20 ms timer fired (the event loop held)
// and how long an fs.stat waited (libuv's thread pool held) meanwhile.
//
// Part 2, a real worker (root, bubblewrap, commands as nobody; a child process of its own) on a
// 300k-folder workspace: one run's shell call, allowed by a rule, and meanwhile an unrelated run that
// only calls read_file, over and over until the shell call ends. It reports the worker's RSS before,
// its peak, and its RSS after, the unrelated run's latency against a quiet worker, and what the shell
// call answered.
//
//   npm run bench:scan -- [--sizes 10000,100000,300000] [--e2e-size 300000] [--parts 1,2] [--name workspace-scan]
//
// For "before", run this file against an earlier src/ (see bench/results/workspace-scan.md).
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { startRun } from '../src/client/start-run';
import { callId, stepOf } from '../test/support/step-script';
import type { ScanSample } from './workspace-scan/scan-process';
import type { ChildMessage, ParentMessage } from './workspace-scan/worker-process';
import { mib, ms, percentile, report, sizeArg, startBenchEnv, table, uniqueId, type BenchEnv } from './support/bench-env';
import { startFakeModel, taskOf, type MessagesBody, type ReplyBlock } from './support/fake-model';

const listArg = (name: string, fallback: number[]) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1]!.split(',').map(Number) : fallback;
};
const SIZES = listArg('sizes', [10_000, 100_000, 300_000]);
const E2E_SIZE = sizeArg('e2e-size', 300_000);
const PARTS = listArg('parts', [1, 2]);
const NAME = process.argv.includes('--name') ? process.argv[process.argv.indexOf('--name') + 1]! : 'workspace-scan';
/** The sandbox user of a root worker (nobody), who owns what a command made. */
const NOBODY = '65534:65534';
/** The entry cap this release ships with (AGENT_SCAN_MAX_ENTRIES). */
const DEFAULT_CAP = 100_000;

/**
 * A workspace owned by nobody, with hello.txt and, in `many`, either `count` empty folders
 * (`mkdir d{1..N}`: the issue's shape, the walk's worst) or `count / 11` folders of 10 files each
 * (`tree`: about as many entries, in the shape of a project).
 */
function buildWorkspace(count: number, shape: 'flat' | 'tree' = 'flat'): string {
  const root = mkdtempSync(path.join(tmpdir(), 'bench-scan-'));
  const many = path.join(root, 'many');
  mkdirSync(many);
  for (let i = 0; i < (shape === 'flat' ? count : Math.round(count / 11)); i += 1) {
    mkdirSync(path.join(many, `d${i}`));
    if (shape === 'tree') for (let f = 0; f < 10; f += 1) writeFileSync(path.join(many, `d${i}`, `file-${f}.ts`), '');
  }
  writeFileSync(path.join(root, 'hello.txt'), 'hello from the workspace\n');
  execFileSync('chown', ['-R', NOBODY, root]);
  return root;
}

function childResult<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`the child exited (${code}) before it reported`)));
  });
}

async function scanOnce(workspace: string, cap: number): Promise<ScanSample> {
  const child = fork(path.join(__dirname, 'workspace-scan', 'scan-process.ts'), [workspace, String(cap)], { execArgv: ['--import', 'tsx'] });
  const sample = await childResult<ScanSample>(child);
  await new Promise((resolve) => child.once('exit', resolve));
  return sample;
}

async function partOne(): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const shape of ['flat', 'tree'] as const) {
    for (const size of SIZES) {
      const workspace = buildWorkspace(size, shape);
      try {
        // The walk itself (no cap), then with the cap a worker has by default.
        const caps = size > DEFAULT_CAP ? [Number.POSITIVE_INFINITY, DEFAULT_CAP] : [Number.POSITIVE_INFINITY];
        for (const cap of caps) {
          const s = await scanOnce(workspace, cap);
          const label = shape === 'flat' ? `${size} folders` : `${Math.round(size / 11)} folders × 10 files`;
          rows.push([label, cap === Number.POSITIVE_INFINITY ? 'none' : cap, ms(s.ms, 0), ms(s.cpuMs, 0), mib(s.baselineRss, 0), mib(s.peakRss, 0), ms(s.loopDelayMaxMs, 0), `${ms(s.statP50Ms, 1)} / ${ms(s.statMaxMs, 0)}`, s.outcome]);
          console.log(rows.at(-1)!.join(' | '));
        }
      } finally {
        rmSync(workspace, { recursive: true, force: true });
      }
    }
  }
  return [
    '## Part 1: the scan alone',
    '',
    'Workspaces owned by nobody, walked as a root worker does before a command (owner nobody): N empty folders in one folder (the issue\'s shape), or N/11 folders of 10 files. One child process per row; "peak RSS" is its VmHWM, "CPU" its user and system time (main thread and file threads).',
    '',
    table(['workspace', 'cap', 'scan ms', 'CPU ms', 'RSS before MiB', 'peak RSS MiB', 'timer late, max ms', 'fs.stat p50 / max ms', 'outcome'], rows),
  ].join('\n');
}

interface Scenario {
  label: string;
  command: string;
  rule: unknown;
  cap?: number;
}

const SCENARIOS: Scenario[] = [
  { label: '`ls many | wc -l`, allowed by a rule (read-only): the call of the issue', command: 'ls many | wc -l', rule: 'shell' },
  { label: '`touch marker`, allowed by a rule with `"writes": true`', command: 'touch marker', rule: { tool: 'shell', writes: true } },
  { label: `\`touch marker\`, allowed with \`"writes": true\`, cap raised past the workspace (AGENT_SCAN_MAX_ENTRIES=1000000)`, command: 'touch marker', rule: { tool: 'shell', writes: true }, cap: 1_000_000 },
];

/** Replies by task: a scan run calls the shell once, a reader run calls read_file once; both then complete. */
function scriptedReply(commands: Map<string, string>, toolOutputs: Map<string, string>) {
  return (body: MessagesBody): ReplyBlock[] => {
    const task = taskOf(body);
    const step = stepOf({ body: body as never });
    if (step > 0) {
      const last = body.messages.at(-1)!;
      const result = Array.isArray(last.content) ? last.content.find((b) => b.type === 'tool_result') : undefined;
      const text = result && 'content' in result ? (typeof result.content === 'string' ? result.content : JSON.stringify(result.content)) : '';
      toolOutputs.set(task, text);
      return [{ type: 'tool_use', id: callId(step), name: 'complete_task', input: { summary: 'done', status: 'success' } }];
    }
    const command = commands.get(task);
    return command !== undefined
      ? [{ type: 'tool_use', id: callId(0), name: 'shell', input: { command } }]
      : [{ type: 'tool_use', id: callId(0), name: 'read_file', input: { path: 'hello.txt' } }];
  };
}

async function partTwo(env: BenchEnv, workspace: string): Promise<string> {
  const commands = new Map<string, string>();
  const toolOutputs = new Map<string, string>();
  const model = await startFakeModel(scriptedReply(commands, toolOutputs));
  const bundlePath = path.join(mkdtempSync(path.join(tmpdir(), 'bench-bundle-')), 'workflows.js');
  writeFileSync(bundlePath, env.bundle.code);
  const connection = await Connection.connect({ address: env.server.address });
  const client = new Client({ connection });
  const rows: (string | number)[][] = [];
  const answers: string[] = [];
  try {
    for (const scenario of SCENARIOS) {
      const taskQueue = uniqueId('scan');
      const child = fork(path.join(__dirname, 'workspace-scan', 'worker-process.ts'), [], {
        execArgv: ['--import', 'tsx'],
        env: {
          ...process.env,
          BENCH_ADDRESS: env.server.address,
          BENCH_TASK_QUEUE: taskQueue,
          BENCH_MODEL_URL: model.baseUrl,
          BENCH_BUNDLE: bundlePath,
          BENCH_WORKSPACE: workspace,
          ...(scenario.cap ? { AGENT_SCAN_MAX_ENTRIES: String(scenario.cap) } : {}),
        },
      });
      const messages: ChildMessage[] = [];
      child.on('message', (m: ChildMessage) => messages.push(m));
      const next = async (type: ChildMessage['type']) => {
        for (;;) {
          const at = messages.findIndex((m) => m.type === type);
          if (at >= 0) return messages.splice(at, 1)[0]!;
          if (child.exitCode !== null) throw new Error(`worker exited (${child.exitCode}) before "${type}"`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      const sample = async () => {
        child.send({ type: 'sample' } satisfies ParentMessage);
        return (await next('sample')) as Extract<ChildMessage, { type: 'sample' }>;
      };
      await next('ready');
      const read = async () => {
        const started = performance.now();
        const handle = await startRun(client, { agent: 'reader', task: uniqueId('read') }, { taskQueue });
        await handle.result();
        return performance.now() - started;
      };
      // Warm-up, then the unrelated run's latency on a quiet worker.
      for (let i = 0; i < 2; i += 1) await read();
      const quiet: number[] = [];
      for (let i = 0; i < 5; i += 1) quiet.push(await read());
      messages.length = 0;
      const before = await sample();

      const task = uniqueId('scan-task');
      commands.set(task, scenario.command);
      const started = performance.now();
      const scanRun = await startRun(client, { agent: 'scanner', task, toolApproval: { alwaysApproved: [scenario.rule] } } as never, { taskQueue });
      let scanDone = false;
      const scanResult = scanRun.result().finally(() => void (scanDone = true));
      await next('started');
      const during: number[] = [];
      // The unrelated run, again and again while the shell call is out (at least three times).
      while (!scanDone || during.length < 3) during.push(await read());
      await scanResult;
      const scanMs = performance.now() - started;
      const peak = await sample();
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      const after = await sample();
      child.send({ type: 'stop' } satisfies ParentMessage);
      await new Promise((resolve) => child.once('exit', resolve));
      const answer = (toolOutputs.get(task) ?? '(no answer)').replace(/\s+/g, ' ').trim().slice(0, 400);
      answers.push(`- ${scenario.label}: ${answer}`);
      rows.push([
        // A `|` in a cell would end it.
        scenario.label.replace(/\|/g, '\\|'),
        ms(scanMs / 1000, 1),
        mib(before.rss, 0),
        mib(peak.peakRss, 0),
        mib(after.rss, 0),
        `${ms(percentile(quiet, 50), 0)} / ${ms(Math.max(...quiet), 0)}`,
        `${ms(percentile(during, 50), 0)} / ${ms(Math.max(...during), 0)} (${during.length})`,
      ]);
      console.log(rows.at(-1)!.join(' | '));
    }
  } finally {
    await connection.close();
    await model.close();
    rmSync(path.dirname(bundlePath), { recursive: true, force: true });
  }
  return [
    `## Part 2: a real worker on a ${E2E_SIZE}-folder workspace`,
    '',
    "Root worker, bubblewrap, commands as nobody. A scan run makes one shell call; meanwhile a reader run (agent `reader`, one read_file, then complete_task) runs again and again until the shell call's run ends. Run latency is from start to result, model turns included. One worker process per row.",
    '',
    table(['shell call', 'shell run s', 'worker RSS before MiB', 'worker peak RSS MiB', 'RSS 5 s after MiB', 'reader run, quiet worker p50 / max ms', 'reader run, meanwhile p50 / max ms (runs)'], rows),
    '',
    'What the shell call answered:',
    '',
    ...answers,
  ].join('\n');
}

async function run(): Promise<void> {
  if (process.getuid?.() !== 0) throw new Error('Run this benchmark as root: it measures the root worker, which hands the workspace to the sandbox user.');
  const sections: string[] = [];
  if (PARTS.includes(1)) sections.push(await partOne());
  if (PARTS.includes(2)) {
    const env = await startBenchEnv();
    const workspace = buildWorkspace(E2E_SIZE);
    try {
      sections.push(await partTwo(env, workspace));
    } finally {
      rmSync(workspace, { recursive: true, force: true });
      await env.close();
    }
  }
  const args = process.argv.slice(2).join(' ');
  // Timings on a shared machine mean little without how busy it was.
  const load = `Load average (1, 5, 15 min) at the end: ${loadavg().map((l) => l.toFixed(1)).join(', ')} on ${cpus().length} cores.`;
  report(NAME, `npm run bench:scan${args ? ` -- ${args}` : ''}`, [load, ...sections].join('\n\n'));
}

run().catch((error) => {
  console.error(error);
  process.exit(1);
});
