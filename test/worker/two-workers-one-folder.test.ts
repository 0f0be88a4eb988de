// Issue 18, item 9: `npm run worker` started twice in one folder. Both must start (each process
// writes its own audit log, named by host and pid), serve the task queue together, and
// `agentctl audit verify` on the folder checks every log they wrote.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun } from '../../src/client/start-run';
import { waitFor } from '../support/agent-run-harness';
import { reply, startFakeAnthropic, toolCall, type FakeAnthropic } from '../support/fake-anthropic';
import { newClient, temporalAddress, uniqueId } from '../support/temporal';
import { agentctl } from '../client/agentctl-process';

const repoRoot = path.resolve(__dirname, '../..');

interface WorkerProcess {
  child: ChildProcess;
  output: string[];
}

/** `npm run worker` as an operator types it; detached, so its whole group (npm, sh, tsx, node) can be stopped. */
function npmRunWorker(env: NodeJS.ProcessEnv): WorkerProcess {
  const child = spawn('npm', ['run', '--silent', 'worker'], { cwd: repoRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { child, output };
}

async function stop(worker: WorkerProcess): Promise<void> {
  const pid = worker.child.pid;
  if (pid === undefined || worker.child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => worker.child.once('exit', () => resolve()));
  process.kill(-pid, 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }, 20_000);
  await exited;
  clearTimeout(timer);
}

describe('two workers started in the same folder', () => {
  let fake: FakeAnthropic;
  let client: Client;
  let dir: string;
  const workers: WorkerProcess[] = [];
  beforeAll(async () => {
    [fake, client] = await Promise.all([startFakeAnthropic(), newClient()]);
    dir = await mkdtemp(path.join(tmpdir(), 'two-workers-'));
  });
  afterAll(async () => {
    for (const worker of workers) await stop(worker);
    await client?.connection.close();
    await fake?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('both start, each with its own audit log, and audit verify checks every log of the folder', async () => {
    const auditDir = path.join(dir, 'audit');
    const heads = path.join(dir, 'heads');
    const workspace = path.join(dir, 'workspace');
    const taskQueue = uniqueId('two-q');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TEMPORAL_ADDRESS: temporalAddress(),
      TEMPORAL_TASK_QUEUE: taskQueue,
      ANTHROPIC_API_KEY: 'test',
      ANTHROPIC_BASE_URL: fake.baseUrl,
      AGENT_WORKSPACE: workspace,
      AGENT_AUDIT_DIR: auditDir,
      AGENT_AUDIT_HEAD_DIR: heads,
    };
    delete env.AGENT_AUDIT_LOG;
    await mkdir(workspace, { recursive: true });
    await writeFile(path.join(workspace, 'note.txt'), 'hello');
    workers.push(npmRunWorker(env), npmRunWorker(env));
    const logOf = (worker: WorkerProcess) => /Audit log: (\S+)/.exec(worker.output.join(''))?.[1];
    for (const worker of workers) {
      await waitFor(async () => (logOf(worker) ? true : undefined), 'a worker to start', 120_000).catch((error: unknown) => {
        throw new Error(`${String(error)}\n--- worker output ---\n${worker.output.join('')}`);
      });
      expect(worker.output.join('')).toContain(`Worker polling task queue "${taskQueue}"`);
    }
    const [first, second] = workers.map(logOf);
    expect(first).not.toBe(second);
    expect(path.dirname(first!)).toBe(auditDir);
    // Named by host and process id.
    for (const log of [first, second]) expect(path.basename(log!)).toMatch(/^[A-Za-z0-9._-]+-\d+\.log$/);

    // Runs served by whichever worker polls first; each call is recorded in that worker's own log.
    const runs = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const task = uniqueId(`two-${i}`);
        fake.script(task, [reply(toolCall('read_file', { path: 'note.txt' })), reply(toolCall('complete_task', { summary: 'read it', status: 'success' }))]);
        return startRun(client, { agent: 'general', task }, { taskQueue, workflowId: uniqueId('two-run') });
      }),
    );
    await Promise.all(runs.map((run) => run.result()));
    for (const worker of workers) expect(worker.child.exitCode, worker.output.join('')).toBeNull();

    const logs = (await readdir(auditDir)).filter((name) => name.endsWith('.log')).map((name) => path.join(auditDir, name));
    expect(logs.length).toBeGreaterThanOrEqual(1);
    for (const log of logs) expect([first, second]).toContain(log);
    const lines = (await Promise.all(logs.map((log) => readFile(log, 'utf8')))).join('').trim().split('\n');
    expect(lines.filter((line) => line.includes('"tool":"read_file"') && line.includes('"kind":"call"'))).toHaveLength(6);

    const verified = await agentctl(['audit', 'verify', auditDir, '--json'], { AGENT_AUDIT_HEAD_DIR: heads, TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, logs: logs.sort().map((file) => ({ file, ok: true })) });
  });
});
