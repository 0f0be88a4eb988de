// Connecting through a Temporal profile, and a server that refuses to register search attributes (as
// Temporal Cloud does for an API key that may not change the namespace), against the real dev server:
// a fresh namespace, selected by a profile file, that has no AgentName/AgentStatus yet.
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { describe, expect, it } from 'vitest';
import { createAgentWorker } from '../../../src/runtime/worker-setup/create-agent-worker';
import { ensureSearchAttributes } from '../../../src/runtime/worker-setup/search-attributes-setup';
import { agentctl } from '../../client/agentctl-process';
import { profileFile } from '../../support/temporal-profile';
import { quietTemporalLogs, tempWorkspace, waitFor } from '../../support/agent-run-harness';
import { useFakeModel } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';
import { startRun } from '../../../src/client/start-run';

/** What Temporal Cloud answers an API key without namespace-admin rights. */
const permissionDenied = async () => {
  throw Object.assign(new Error('7 PERMISSION_DENIED: Request unauthorized.'), { code: 7 });
};

async function freshNamespace(): Promise<string> {
  const namespace = uniqueId('agents-ns');
  const connection = await Connection.connect({ address: temporalAddress() });
  try {
    await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
    await waitFor(async () => (await connection.operatorService.listSearchAttributes({ namespace })) && true, `namespace ${namespace}`, 30_000);
  } finally {
    await connection.close();
  }
  return namespace;
}

describe('search attributes on a namespace chosen by a Temporal profile', () => {
  const bed = useFakeModel();

  it('a refused registration is a warning that says what to create, the worker still starts, and runs work once the attributes exist', async () => {
    quietTemporalLogs();
    const namespace = await freshNamespace();
    const config = profileFile({ address: temporalAddress(), namespace });
    const profileEnv = { TEMPORAL_CONFIG_FILE: config, TEMPORAL_PROFILE: 'staging' };

    const connection = await Connection.connect({ address: temporalAddress() });
    try {
      const refused = await ensureSearchAttributes(connection, namespace, permissionDenied);
      expect(refused.missing).toEqual(['AgentName', 'AgentStatus', 'ForkedFrom', 'AgentCostUsd']);
      expect(refused.warning).toContain('PERMISSION_DENIED');
      expect(refused.warning).toContain(`temporal operator search-attribute create --namespace ${namespace} --name AgentName --type Keyword --name AgentStatus --type Keyword --name ForkedFrom --type Keyword --name AgentCostUsd --type Double`);
      expect(refused.warning).toContain(`tcld namespace search-attributes add --namespace ${namespace} --search-attribute "AgentName=Keyword" --search-attribute "AgentStatus=Keyword" --search-attribute "ForkedFrom=Keyword" --search-attribute "AgentCostUsd=Double"`);

      const task = uniqueId('profile');
      bed.fake.script(task, [reply(toolCall('list_files', {})), reply(toolCall('complete_task', { summary: 'listed', status: 'success' }))]);
      const taskQueue = uniqueId('q');
      const worker = await createAgentWorker({
        auditLog: false,
        env: { ...profileEnv, TEMPORAL_TASK_QUEUE: taskQueue, ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: bed.fake.baseUrl },
        workspaceRoot: await tempWorkspace(),
        workflowBundle: bed.harness().workflowBundle,
        registerSearchAttributes: permissionDenied,
      });
      try {
        // The worker came up in the profile's namespace although it could not register anything.
        expect(worker.searchAttributes.warning).toMatch(/could not register the search attributes AgentName, AgentStatus, ForkedFrom, AgentCostUsd/);
        expect(worker.client.options.namespace).toBe(namespace);
        // An administrator creates them (here: the operator call the refusal told us to make).
        expect((await ensureSearchAttributes(connection, namespace)).registered).toEqual(['AgentName', 'AgentStatus', 'ForkedFrom', 'AgentCostUsd']);
        const id = uniqueId('run');
        await worker.worker.runUntil(async () => {
          const handle = await startRun(worker.client, { agent: 'general', task }, { taskQueue, workflowId: id });
          expect(await handle.result()).toMatchObject({ status: 'completed' });
        });
        // agentctl finds the run through the same profile, and not in the default namespace.
        const found = await agentctl(['result', id, '--json'], profileEnv);
        expect(found.code).toBe(0);
        expect(JSON.parse(found.stdout)).toMatchObject({ kind: 'completed', workflowId: id });
        const elsewhere = await agentctl(['result', id], { TEMPORAL_ADDRESS: temporalAddress() });
        expect(elsewhere.code).toBe(1);
        expect(elsewhere.stderr).toContain('Unknown run');
      } finally {
        await worker.close();
      }
    } finally {
      await connection.close();
    }
  });
});
