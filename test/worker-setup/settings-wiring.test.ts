// Settings reaching what they configure, not just their parser: AGENT_MAX_CACHED_WORKFLOWS in the
// Temporal Worker's own options, AGENT_PROMPT_CACHE in the request the Messages API receives, and
// TEMPORAL_TASK_QUEUE on the queue `npm run worker` (src/worker.ts, a real process) polls.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRun } from '../../src/client/start-run';
import { createAgentWorker } from '../../src/worker-setup/create-agent-worker';
import { tempWorkspace, waitFor, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { newClient, temporalAddress, uniqueId } from '../support/temporal';

const repoRoot = path.resolve(__dirname, '../..');
const bed = useAgentTestbed();
const done = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));

/** A worker built from `env` alone (as `npm run worker` builds it), closed again without polling. */
async function workerFrom(env: NodeJS.ProcessEnv) {
  return createAgentWorker({
    address: temporalAddress(),
    taskQueue: uniqueId('q-settings'),
    workspaceRoot: await tempWorkspace(),
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: bed.fake.baseUrl, ...env },
    workflowBundle: bed.harness().workflowBundle,
  });
}

describe('settings wiring', () => {
  it('AGENT_MAX_CACHED_WORKFLOWS becomes the Temporal worker\'s maxCachedWorkflows', async () => {
    const bounded = await workerFrom({ AGENT_MAX_CACHED_WORKFLOWS: '7' });
    const unbounded = await workerFrom({});
    try {
      expect(bounded.worker.options.maxCachedWorkflows).toBe(7);
      // Unset, the SDK sizes the cache from the heap: something other than the value above.
      expect(unbounded.worker.options.maxCachedWorkflows).not.toBe(7);
    } finally {
      // A Temporal worker holds its connection until it has run and shut down.
      for (const built of [bounded, unbounded]) {
        await built.worker.runUntil(Promise.resolve());
        await built.close();
      }
    }
  });

  it('AGENT_PROMPT_CACHE=1h puts an hour-long cache_control on the request the model receives', async () => {
    const task = uniqueId('cache-1h');
    bed.fake.script(task, [done()]);
    const result = await withAgentWorker({ ...bed.harness(), env: { AGENT_PROMPT_CACHE: '1h' } }, async ({ start }) => (await start({ agent: 'general', task })).result());
    expect(result.status).toBe('completed');
    const [request] = bed.fake.requestsFor(task);
    expect(request!.wire.system).toEqual([expect.objectContaining({ cache_control: { type: 'ephemeral', ttl: '1h' } })]);
    expect(request!.wire.tools!.at(-1)).toMatchObject({ cache_control: { type: 'ephemeral', ttl: '1h' } });
  });

  it('`npm run worker` polls TEMPORAL_TASK_QUEUE, and a run started on that queue is served', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'worker-settings-'));
    const taskQueue = uniqueId('q-env');
    const task = uniqueId('queue');
    bed.fake.script(task, [done()]);
    // Detached, so the group (tsx and its node child) can be stopped together.
    const child = spawn(path.join(repoRoot, 'node_modules/.bin/tsx'), ['src/worker.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: temporalAddress(),
        TEMPORAL_TASK_QUEUE: taskQueue,
        ANTHROPIC_API_KEY: 'sk-test-secret-key',
        ANTHROPIC_BASE_URL: bed.fake.baseUrl,
        AGENT_WORKSPACE: path.join(dir, 'workspace'),
        AGENT_AUDIT_DIR: path.join(dir, 'audit'),
        AGENT_AUDIT_HEAD_DIR: path.join(dir, 'heads'),
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const client = await newClient();
    try {
      await waitFor(async () => (output.includes('Worker polling') || child.exitCode !== null ? true : undefined), 'the worker to start', 60_000);
      expect(output).toContain(`Worker polling task queue "${taskQueue}"`);
      const handle = await startRun(client, { agent: 'general', task }, { taskQueue, workflowId: uniqueId('run') });
      expect((await handle.result()).status).toBe('completed');
      expect(output).not.toContain('sk-test-secret-key');
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
      await exited;
      await client.connection.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
