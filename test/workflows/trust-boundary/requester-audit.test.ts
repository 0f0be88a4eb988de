// Issue 32, must-have 1 (the requester recorded): a fork or resume of a run with approvers writes an
// audit line naming who asked, signed or not, from which run and iteration, at the new run's start,
// before any tool of it runs; `agentctl audit verify` still accepts the log.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApproverKey, KEYS_DIR_ENV } from '../../../src/client/approver-keys';
import { forkRun } from '../../../src/client/fork-run';
import { resumeRun } from '../../../src/client/resume-run';
import { agentctl } from '../../client/agentctl-process';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

const list = reply(toolCall('list_files', { path: '.' }));
const done = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

describe('the requester of a fork or resume is on the audit log (issue 32)', () => {
  const bed = useAgentTestbed();
  const savedKeysDir = process.env[KEYS_DIR_ENV];
  let dir: string;
  let registryFile: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'requester-audit-'));
    const keys = path.join(dir, 'keys');
    registryFile = path.join(dir, 'approvers.json');
    await writeFile(registryFile, JSON.stringify(createApproverKey('ana', { dir: keys }).registryEntry));
    process.env[KEYS_DIR_ENV] = keys;
  });
  afterAll(async () => {
    if (savedKeysDir === undefined) delete process.env[KEYS_DIR_ENV];
    else process.env[KEYS_DIR_ENV] = savedKeysDir;
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a signed request line for the fork and the resume before any of their calls, and the log verifies', async () => {
    const task = uniqueId('requester-audit');
    const auditLog = path.join(dir, 'audit.log');
    // The fake answers by the number of turns so far: the fork after iteration 1 lists files again; the resume completes.
    bed.fake.script(task, [list, list, done('done')]);
    await withAgentWorker({ ...bed.harness(), auditLog, env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start, client, taskQueue }) => {
      // Stopped at its cap before the work was done, so it may be resumed.
      const original = await start({ agent: 'general', task, user: 'ana', approvers: ['ana'], maxIterations: 2 });
      expect((await original.result()).status).toBe('max_iterations');
      const { handle: fork } = await forkRun(client, original.workflowId, { iteration: 1, taskQueue, requestedBy: 'ana', task: 'list again' });
      await fork.result();
      const { handle: resumed } = await resumeRun(client, original.workflowId, { taskQueue, requestedBy: 'ana', maxIterations: 1 });
      await resumed.result().catch(() => undefined);

      const records = (await readFile(auditLog, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const [run, kind, from] of [[fork.workflowId, 'fork', 'after iteration 1'], [resumed.workflowId, 'resume', 'from its last checkpoint']] as const) {
        const own = records.filter((r) => r.run === run);
        expect(own[0], `the first line of ${run}`).toMatchObject({
          kind: 'request',
          tool: kind,
          approver: 'ana',
          requestedBy: 'ana',
          verified: true,
          via: 'start',
          callId: `${kind}:${original.workflowId}`,
          reason: expect.stringContaining(`${kind} of ${original.workflowId} ${kind === 'fork' ? 'from its checkpoint ' : ''}${from}`),
        });
        expect(own.filter((r) => r.kind === 'request')).toHaveLength(1);
      }
      // The fork ran a call after its request line.
      expect(records.filter((r) => r.run === fork.workflowId).map((r) => r.kind)).toContain('call');
      expect(records.filter((r) => r.run === original.workflowId && r.kind === 'request')).toEqual([]);
    });
    const verified = await agentctl(['audit', 'verify', auditLog], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
  }, 120_000);
});
