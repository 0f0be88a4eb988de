// Issue 34 in the console, without a browser: a run parked by its budget is an inbox entry (spent and
// limits, its approvers), and POST /api/budget-raises raises it as the logged-in person, signed with
// their key when the worker requires signatures, CSRF-checked like every other POST; someone who is
// not an approver gets the run's refusal.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApproverKey, KEYS_DIR_ENV } from '../../src/client/approver-keys';
import { RunsWatcher } from '../../src/console/runs/runs-watcher';
import { consoleRunsQuery } from '../../src/console/runs/run-list';
import { statusQuery } from '../../src/contract/agent-run-api';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { useAgentTestbed } from '../support/agent-testbed';
import { waitFor, waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { costly, spender } from '../support/budget-agents';
import { reply, toolCall } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { consoleFor } from './console-for';

const complete = () => reply(toolCall('complete_task', { summary: 'done', status: 'success' }));
const { approvers: _agentApprovers, ...open } = { ...spender, name: 'spender-open' };

describe('console: a budget wait', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, open] });
  const savedKeysDir = process.env[KEYS_DIR_ENV];
  afterEach(() => {
    if (savedKeysDir === undefined) delete process.env[KEYS_DIR_ENV];
    else process.env[KEYS_DIR_ENV] = savedKeysDir;
  });

  it('lists it in the inbox; a raise needs the session key, is refused for a non-approver with the run\'s reason, and is signed and applied for the approver', async () => {
    const keys = await mkdtemp(path.join(tmpdir(), 'console-budget-keys-'));
    const registry = path.join(keys, 'approvers.json');
    await writeFile(registry, JSON.stringify({ ...createApproverKey('alice', { dir: keys }).registryEntry, ...createApproverKey('bo', { dir: keys }).registryEntry }));
    process.env[KEYS_DIR_ENV] = keys;
    const task = uniqueId('console-budget');
    bed.fake.script(task, [costly(), costly(), complete()]);
    await withAgentWorker({ ...bed.harness(), env: { AGENT_APPROVERS_FILE: registry } }, async (harness) => {
      const { built, as } = await consoleFor(harness);
      const watcher = new RunsWatcher(harness.client, { query: consoleRunsQuery(`TaskQueue = '${harness.taskQueue}'`), limit: 50, pollMs: 60_000 });
      try {
        const handle = await harness.start({ agent: 'spender-open', task, approvers: ['alice'], budget: { maxUsd: 0.05 } });
        await waitForPhase(handle, 'waiting_budget');
        const entry = await waitFor(async () => (await watcher.tick()).inbox.find((e) => e.kind === 'budget' && e.workflowId === handle.workflowId), 'the budget entry');
        expect(entry).toMatchObject({ kind: 'budget', key: `${handle.workflowId}/budget`, rootWorkflowId: handle.workflowId, agent: 'spender-open', task, spentUsd: 0.04, maxUsd: 0.05, spentTokens: 24_000, approvers: ['alice'], signedDecisions: true });

        const raise = { workflowId: handle.workflowId, maxUsd: 1 };
        const alice = await as('alice');
        const forged = await alice.postJson('/api/budget-raises', raise, { csrf: null });
        expect(forged.status).toBe(403);
        const refused = await (await as('bo')).postJson('/api/budget-raises', raise);
        expect(await refused.json()).toEqual({ outcome: 'refused', message: '"bo" may not raise this run\'s budget (approvers: alice)' });
        expect(refused.status).toBe(409);
        const bad = await alice.postJson('/api/budget-raises', { workflowId: handle.workflowId });
        expect(bad.status).toBe(400);
        expect((await handle.query(statusQuery)).phase).toBe('waiting_budget');

        const applied = await alice.postJson('/api/budget-raises', raise);
        expect(await applied.json()).toEqual({ outcome: 'applied', message: 'budget raised to $1' });
        expect(applied.status).toBe(200);
        expect((await handle.result()).status).toBe('completed');
        expect((await handle.query(statusQuery)).events.find((e) => e.name === 'budgetRaised')?.data).toMatchObject({ maxUsd: 1, by: 'alice' });
      } finally {
        await watcher.close();
        await built.stop();
      }
    });
  });
});
