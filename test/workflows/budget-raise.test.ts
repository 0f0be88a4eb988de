// Issue 34, a raise is accountable: an approver's `raiseBudget` writes an audit line (who, from what to
// what, signed or not) before the run goes on, and `agentctl audit verify` and `audit prove` still
// pass on the log. Real server and worker, the Messages API faked at the HTTP level.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinAgents } from '../../src/runtime/agents/builtin-agents';
import { raiseBudget } from '../../src/client/raise-budget';
import { agentctl } from '../client/agentctl-process';
import { exportHistories } from '../runtime/audit/prove/proof-fixtures';
import { waitForPhase, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { costly, spender } from '../support/budget-agents';
import { uniqueId } from '../support/temporal';
import { complete } from './approval-test-kit';

const NO_SERVER = { TEMPORAL_ADDRESS: '127.0.0.1:1' };
const linesOf = async (file: string) => (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('a budget raise on the audit log', () => {
  const bed = useAgentTestbed({ agents: [...builtinAgents, spender] });
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'budget-raise-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes who raised it, from what to what and unsigned, before the answer and the next model call; verify and prove still pass', async () => {
    const task = uniqueId('raise-audit');
    const auditLog = path.join(dir, 'raise-audit.log');
    bed.fake.script(task, [costly(), costly(), complete()]);
    let workflowId = '';
    let histories: string[] = [];
    await withAgentWorker({ ...bed.harness(), auditLog }, async ({ start, client }) => {
      const handle = await start({ agent: 'spender', task, budget: { maxUsd: 0.05, maxTokens: 1_000_000 } });
      workflowId = handle.workflowId;
      await waitForPhase(handle, 'waiting_budget');
      expect(bed.fake.requestsFor(task)).toHaveLength(2);
      expect((await raiseBudget(handle, { maxUsd: 1, approver: 'ana' })).message).toContain('budget raised to $1');
      // On disk when the raise is answered.
      const raised = (await linesOf(auditLog)).filter((r) => r.run === workflowId && r.kind === 'budget');
      expect(raised).toEqual([
        expect.objectContaining({
          kind: 'budget',
          tool: 'raiseBudget',
          approver: 'ana',
          verified: false,
          via: 'update',
          previousBudget: { maxUsd: 0.05, maxTokens: 1_000_000 },
          budget: { maxUsd: 1, maxTokens: 1_000_000 },
          reason: expect.stringMatching(/^budget raised from \$0\.05 and 1000000 tokens to \$1 and 1000000 tokens by ana \(unsigned: the worker has no approver registry\); spent \$0\.04 and 24000 tokens$/),
        }),
      ]);
      expect((await handle.result()).status).toBe('completed');
      expect(bed.fake.requestsFor(task)).toHaveLength(3);
      histories = await exportHistories(client, workflowId, dir);
    });
    const verified = await agentctl(['audit', 'verify', auditLog], NO_SERVER);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    const proved = await agentctl(['audit', 'prove', workflowId, ...histories.flatMap((h) => ['--history', h]), '--audit-log', auditLog, '--json'], NO_SERVER);
    expect(proved.stderr).toBe('');
    expect(JSON.parse(proved.stdout)).toMatchObject({ ok: true, problems: [] });
    expect(proved.code).toBe(0);
  }, 180_000);
});
