// The run's cost in the `AgentCostUsd` search attribute and its result (issue 34, must-have 2), against
// the real dev server: upserted only when an iteration ended and the figure changed, and never on a
// namespace where the worker found the attribute missing (upserting it there would fail every
// workflow task of the run).
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Connection, type Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { startRun } from '../../src/client/start-run';
import { AgentCostUsdKey } from '../../src/contract/search-attributes';
import { createAgentWorker } from '../../src/runtime/worker-setup/create-agent-worker';
import { quietTemporalLogs, tempWorkspace, waitFor, withAgentWorker } from '../support/agent-run-harness';
import { useFakeModel } from '../support/agent-testbed';
import { reply, toolCall } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';

const MODEL = 'cost-test-model';
/** Each scripted reply uses 100 input and 20 output tokens: $0.0006 a reply at $3 / $15 per million. */
const PER_REPLY = (100 * 3 + 20 * 15) / 1_000_000;

async function pricesFile(): Promise<string> {
  const file = path.join(await tempWorkspace(), 'prices.json');
  await writeFile(file, JSON.stringify({ [MODEL]: { input: 3, output: 15 } }));
  return file;
}

const script = () => [reply(toolCall('list_files', {})), reply(toolCall('list_files', {})), reply(toolCall('complete_task', { summary: 'listed', status: 'success' }))];

/** The values of every `AgentCostUsd` upsert in the run's history, in order. */
async function costUpserts(client: Client, workflowId: string): Promise<number[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .filter((e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES)
    .map((e) => e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.AgentCostUsd)
    .filter((p) => p != null)
    .map((p) => defaultPayloadConverter.fromPayload<number>(p!));
}

describe('AgentCostUsd', () => {
  const bed = useFakeModel();

  it('holds the run cost, upserted at most once per iteration and only when it changed, and the result carries it', async () => {
    const task = uniqueId('cost task');
    bed.fake.script(task, script());
    await withAgentWorker({ ...bed.harness(), env: { AGENT_MODEL_PRICES_FILE: await pricesFile() } }, async ({ client, start }) => {
      const handle = await start({ agent: 'general', task, model: MODEL });
      const result = await handle.result();
      expect(result.status).toBe('completed');
      expect(result.costUsd).toBeCloseTo(3 * PER_REPLY, 9);
      const attribute = await waitFor(async () => (await handle.describe()).typedSearchAttributes.get(AgentCostUsdKey), 'the cost attribute');
      expect(attribute).toBe(result.costUsd);
      const upserts = await costUpserts(client, handle.workflowId);
      expect(upserts.length).toBeGreaterThan(0);
      expect(upserts.length).toBeLessThanOrEqual(result.iterations);
      expect(upserts.at(-1)).toBe(result.costUsd);
      // Only when it changed: no two upserts in a row carry the same figure.
      for (let i = 1; i < upserts.length; i += 1) expect(upserts[i]).not.toBe(upserts[i - 1]);
      // Visibility finds it (what `agentctl costs` sums).
      const listed = await waitFor(async () => {
        for await (const run of client.workflow.list({ query: `WorkflowId = '${handle.workflowId}' AND AgentCostUsd > 0` })) return run;
        return undefined;
      }, 'the run listed by its cost');
      expect(listed.workflowId).toBe(handle.workflowId);
    });
  });

  it('a model with no known price gives no cost and no upsert; the run completes as before', async () => {
    const task = uniqueId('unpriced task');
    bed.fake.script(task, script());
    await withAgentWorker(bed.harness(), async ({ client, start }) => {
      const handle = await start({ agent: 'general', task, model: 'model-nobody-priced' });
      const result = await handle.result();
      expect(result.status).toBe('completed');
      expect(result.costUsd).toBeUndefined();
      expect(await costUpserts(client, handle.workflowId)).toEqual([]);
    });
  });

  it('on a namespace without AgentCostUsd that the worker may not change, runs complete and carry their cost in the result only', async () => {
    quietTemporalLogs();
    const namespace = uniqueId('cost-ns');
    const connection = await Connection.connect({ address: temporalAddress() });
    try {
      await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
      // An administrator created the attributes of an earlier release, not the new one.
      const KEYWORD = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
      await waitFor(async () => {
        await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: { AgentName: KEYWORD, AgentStatus: KEYWORD, ForkedFrom: KEYWORD } });
        return true;
      }, `attributes on ${namespace}`, 30_000);
      const task = uniqueId('cost task');
      bed.fake.script(task, script());
      const taskQueue = uniqueId('q');
      const worker = await createAgentWorker({
        address: temporalAddress(),
        namespace,
        taskQueue,
        auditLog: false,
        env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: bed.fake.baseUrl, AGENT_MODEL_PRICES_FILE: await pricesFile() },
        workspaceRoot: await tempWorkspace(),
        workflowBundle: bed.harness().workflowBundle,
        registerSearchAttributes: async () => {
          throw Object.assign(new Error('7 PERMISSION_DENIED: Request unauthorized.'), { code: 7 });
        },
      });
      try {
        expect(worker.searchAttributes.missing).toEqual(['AgentCostUsd']);
        expect(worker.searchAttributes.warning).toContain('--name AgentCostUsd --type Double');
        expect(worker.searchAttributes.warning).toContain('Runs work without it, but do not publish their cost');
        await worker.worker.runUntil(async () => {
          const handle = await startRun(worker.client, { agent: 'general', task, model: MODEL }, { taskQueue, workflowId: uniqueId('run') });
          const result = await handle.result();
          expect(result.status).toBe('completed');
          expect(result.costUsd).toBeCloseTo(3 * PER_REPLY, 9);
          expect(await costUpserts(worker.client, handle.workflowId)).toEqual([]);
        });
      } finally {
        await worker.close();
      }
    } finally {
      await connection.close();
    }
  });
});
