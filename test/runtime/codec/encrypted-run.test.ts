// A run on a worker with AGENT_ENCRYPTION_KEY, against the real dev server: what the server stores
// (fetched by a client without the key) holds none of the run's words, and agentctl with the key
// shows the run decoded.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { agentctl } from '../../client/agentctl-process';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { newClient, temporalAddress, uniqueId } from '../../support/temporal';

const KEY = `k1:${randomBytes(32).toString('base64')}`;

describe('a run with encrypted payloads', () => {
  const bed = useAgentTestbed({ env: { AGENT_ENCRYPTION_KEY: KEY } });

  it('stores no plaintext of the task, the tool output or the result, and agentctl with the key shows them', async () => {
    const secret = `SECRET-FILE-CONTENT-${uniqueId('s')}`;
    const task = `Read secret.txt and report it ${uniqueId('task')}`;
    bed.fake.script(task, [
      reply(toolCall('read_file', { path: 'secret.txt' })),
      reply(toolCall('complete_task', { summary: `The file says ${secret}`, status: 'success' })),
    ]);
    await withAgentWorker(bed.harness(), async (h) => {
      await writeFile(path.join(h.workspace, 'secret.txt'), secret);
      const handle = await h.start({ agent: 'general', task });
      expect((await handle.result()).completion?.summary).toBe(`The file says ${secret}`);
      // The model saw the output: the tool really ran and returned it.
      expect(JSON.stringify(bed.fake.requestsFor(task).at(-1)?.body.messages)).toContain(secret);

      // What the server keeps, read by a client that has no key.
      const plain = await newClient();
      try {
        const history = await plain.workflow.getHandle(handle.workflowId).fetchHistory();
        const bytes = Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1');
        expect(bytes).not.toContain(secret);
        expect(bytes).not.toContain('SECRET-FILE-CONTENT');
        expect(bytes).not.toContain(task);
        expect(bytes).toContain('binary/encrypted');
        // Without the key, the client cannot read the result either.
        const unreadable = await agentctl(['result', handle.workflowId], { TEMPORAL_ADDRESS: temporalAddress() });
        expect(unreadable.code).toBe(1);
        expect(unreadable.stdout).not.toContain(secret);
      } finally {
        await plain.connection.close();
      }

      const cli = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: h.taskQueue, AGENT_ENCRYPTION_KEY: KEY };
      const result = await agentctl(['result', handle.workflowId], cli);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`The file says ${secret}`);
      const status = await agentctl(['status', handle.workflowId], cli);
      expect(status.code).toBe(0);
      expect(status.stdout).toContain('read_file');
      expect(status.stdout).toContain(secret);
    });
  });
});
