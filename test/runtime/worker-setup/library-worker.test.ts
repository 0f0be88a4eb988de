// One way to run a worker from a library: `createAgentWorker` (what the quickstart's worker.ts calls)
// and `runAgentWorker` (what `npm run worker` is) read the same settings, print the same banner where
// they do the same, say what differs, and both write the hash-chained audit log by default.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRun } from '../../../src/client/start-run';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';
import { UnknownOptionError } from '../../../src/runtime/config/connect-options';
import { TemporalUnreachableError } from '../../../src/contract/errors';
import { ModelProviderError } from '../../../src/runtime/model/providers/model-client';
import { tempWorkspace, waitFor } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { newClient, temporalAddress, uniqueId } from '../../support/temporal';

const repoRoot = path.resolve(__dirname, '../../..');
const bed = useAgentTestbed();

/** A worker process (`npm run worker`, or the library script), detached so its group stops together. */
function spawnProcess(script: string, env: NodeJS.ProcessEnv) {
  const { TEMPORAL_TASK_QUEUE: _queue, AGENT_AUDIT_LOG: _log, ...inherited } = process.env;
  const child = spawn(path.join(repoRoot, 'node_modules/.bin/tsx'), [script], { cwd: repoRoot, env: { ...inherited, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    exited,
    output: () => output,
    signal: (name: NodeJS.Signals) => process.kill(-child.pid!, name),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGINT');
      await exited;
    },
  };
}

/** The banner's lines, with what is this process's own (its pid in the audit file's name) made alike. */
function bannerOf(output: string): string[] {
  const lines = output.split('Settings:\n')[1]!.split('\n');
  const end = lines.findIndex((line) => !line.startsWith('  '));
  return lines.slice(0, end).map((line) => line.trim().replace(/-\d+\.log/, '-PID.log'));
}

describe('a worker from the library and `npm run worker`', () => {
  it('print the same settings, say what only runAgentWorker serves, and both write the audit log of their runs', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'library-worker-'));
    const env = (name: string) => ({
      TEMPORAL_ADDRESS: temporalAddress(),
      TEMPORAL_TASK_QUEUE: uniqueId(`q-${name}`),
      ANTHROPIC_API_KEY: 'sk-test-secret-key',
      ANTHROPIC_BASE_URL: bed.fake.baseUrl,
      AGENT_WORKSPACE: path.join(dir, name, 'workspace'),
      AGENT_AUDIT_DIR: path.join(dir, 'audit'),
      AGENT_AUDIT_HEAD_DIR: path.join(dir, 'heads'),
      AGENT_METRICS_PORT: '0',
      AGENT_SANDBOX: 'none',
    });
    const libraryEnv = env('library');
    const cliEnv = { ...env('cli'), TEMPORAL_TASK_QUEUE: libraryEnv.TEMPORAL_TASK_QUEUE.replace('library', 'cli') };
    const library = spawnProcess('test/runtime/worker-setup/support/library-worker.ts', libraryEnv);
    const cli = spawnProcess('src/worker.ts', cliEnv);
    const client = await newClient();
    try {
      for (const worker of [library, cli]) await waitFor(async () => (worker.output().includes('Worker polling') || worker.child.exitCode !== null ? true : undefined), 'the worker to start', 90_000);
      const [libraryBanner, cliBanner] = [bannerOf(library.output()), bannerOf(cli.output())];
      const differing = (name: string) => !name.startsWith('TEMPORAL_TASK_QUEUE') && !name.startsWith('AGENT_WORKSPACE') && !name.startsWith('AGENT_METRICS_PORT') && !name.startsWith('lifecycle events');
      expect(libraryBanner.filter(differing)).toEqual(cliBanner.filter(differing));
      expect(libraryBanner).toContain(`AGENT_AUDIT_LOG: ${path.join(dir, 'audit')}/${path.basename(libraryBanner.find((l) => l.startsWith('AGENT_AUDIT_LOG'))!.split(' ')[1]!)} (written)`);
      expect(libraryBanner.find((l) => l.startsWith('AGENT_METRICS_PORT'))).toMatch(/not served: createAgentWorker serves no metrics endpoint; use runAgentWorker/);
      expect(cliBanner.find((l) => l.startsWith('AGENT_METRICS_PORT'))).toMatch(/^AGENT_METRICS_PORT: http:\/\/127\.0\.0\.1:\d+\/metrics \(served\)$/);
      expect(libraryBanner).toContain('lifecycle events: not printed (pass a ConsoleLifecycleLogger in lifecycleHandlers, or use runAgentWorker)');
      expect(cliBanner).toContain('lifecycle events: printed, one line each');

      const runs: string[] = [];
      for (const taskQueue of [libraryEnv.TEMPORAL_TASK_QUEUE, cliEnv.TEMPORAL_TASK_QUEUE]) {
        const task = uniqueId('audited');
        bed.fake.script(task, [reply(toolCall('list_files', { path: '.' })), reply(toolCall('complete_task', { summary: 'listed', status: 'success' }))]);
        const handle = await startRun(client, { agent: 'general', task }, { taskQueue, workflowId: uniqueId('run') });
        expect((await handle.result()).status).toBe('completed');
        runs.push(handle.workflowId);
      }
      // Each process wrote its own log (named by host and pid), and each log holds its own run's decision.
      const logs = (await readdir(path.join(dir, 'audit'))).filter((f) => f.endsWith('.log'));
      expect(logs).toHaveLength(2);
      const contents = await Promise.all(logs.map((f) => readFile(path.join(dir, 'audit', f), 'utf8')));
      for (const run of runs) expect(contents.filter((text) => text.includes(`"run":"${run}"`))).toHaveLength(1);
    } finally {
      await Promise.all([library.stop(), cli.stop()]);
      await client.connection.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a worker that never ran closes, and a SIGTERM ends its process instead of being swallowed', async () => {
    const built = await createAgentWorker({ address: temporalAddress(), taskQueue: uniqueId('never'), workspaceRoot: await tempWorkspace(), auditLog: false, env: { ANTHROPIC_API_KEY: 'test' }, workflowBundle: bed.harness().workflowBundle });
    await expect(built.close()).resolves.toBeUndefined();
    await expect(built.close()).resolves.toBeUndefined();

    const dir = await mkdtemp(path.join(tmpdir(), 'never-run-'));
    const waiting = spawnProcess('test/runtime/worker-setup/support/library-worker.ts', {
      NEVER_RUN: '1',
      TEMPORAL_ADDRESS: temporalAddress(),
      ANTHROPIC_API_KEY: 'test',
      AGENT_WORKSPACE: path.join(dir, 'workspace'),
      AGENT_AUDIT_LOG: 'off',
      AGENT_SANDBOX: 'none',
    });
    try {
      await waitFor(async () => (waiting.output().includes('never run') || waiting.child.exitCode !== null ? true : undefined), 'the worker to be created', 90_000);
      const sent = Date.now();
      waiting.signal('SIGTERM');
      const code = await Promise.race([waiting.exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 20_000))]);
      expect(code, waiting.output()).not.toBe('hung');
      expect(Date.now() - sent).toBeLessThan(20_000);
    } finally {
      if (waiting.child.exitCode === null) waiting.signal('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses an option nothing reads, at run time as TypeScript does at compile time', async () => {
    // @ts-expect-error: `adress` is not an option (TypeScript refuses it; a JavaScript caller gets the error below).
    const creating = createAgentWorker({ adress: 'elsewhere:7233' });
    await expect(creating).rejects.toThrow(UnknownOptionError);
    await expect(creating).rejects.toThrow('createAgentWorker() does not take "adress" (did you mean "address"?)');
  });

  it('refuses to start without the model key its agents need, naming the variable to set', async () => {
    const error = await createAgentWorker({ address: '127.0.0.1:1', workspaceRoot: await tempWorkspace(), auditLog: false, env: { AGENT_SANDBOX: 'none' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelProviderError);
    expect((error as Error).message).toMatch(/ANTHROPIC_API_KEY is not set, and agents of this worker call Anthropic\. Set it/);
  });

  it('says which address it could not reach, where that came from and what to do', async () => {
    const error = await createAgentWorker({ address: '127.0.0.1:1', workspaceRoot: await tempWorkspace(), auditLog: false, env: { ANTHROPIC_API_KEY: 'test', AGENT_SANDBOX: 'none' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TemporalUnreachableError);
    expect((error as TemporalUnreachableError).retryable).toBe(true);
    expect((error as Error).message).toMatch(/^Cannot reach Temporal at 127\.0\.0\.1:1 \(.*; settings from options\)\. Start one with `npm start`.*TEMPORAL_ADDRESS/);
  });
});
