// An agent's Claude options on a real server: server tools are the API's (never run, never parked,
// "ran by the API" in status and audit, their requests counted), and a model id the API does not
// know ends the run at once, naming the id, instead of being waited out as an outage.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { statusQuery } from '../../src/contract/agent-run-api';
import { FailureType } from '../../src/contract/errors';
import { parseAuditLine } from '../../src/runtime/audit/audit-record';
import { withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { fail, reply, toolCall } from '../support/fake-anthropic';
import { apiBlocksFor } from '../support/api-blocks';
import { callId, stepTool } from '../support/step-script';

const searcher: AgentDefinitionInput = {
  name: 'searcher',
  description: 'Searches the web and works in steps.',
  modelTier: 'balanced',
  tools: ['step'],
  systemPrompt: 'You work in steps.',
  maxIterations: 10,
  thinking: { type: 'adaptive' },
  serverTools: [{ type: 'web_search_20260318', name: 'web_search', max_uses: 3 }],
  // Every tool of the agent's own parks for a person: a server tool must not.
  approval: { requiresApproval: ['step'] },
};

describe("an agent's Claude options", () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('leave server tools to the API: nothing runs or parks, status and audit say "ran by the API", the requests are counted', async () => {
    const task = 'Options drill: search only';
    const usage = { output_tokens_details: { thinking_tokens: 11 }, server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 } };
    fake.script(task, [reply(...apiBlocksFor(0), toolCall('complete_task', { summary: 'searched', status: 'success' }, callId(0))).withUsage(usage)]);
    const auditLog = path.join(await mkdtemp(path.join(tmpdir(), 'options-audit-')), 'audit.log');
    await withAgentWorker({ ...bed.harness(), agents: [searcher], tools: [stepTool], auditLog }, async ({ start }) => {
      const handle = await start({ agent: 'searcher', task });
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'completed', iterations: 1 });
      expect(result.usage).toMatchObject({ thinkingTokens: 11, serverToolUse: { web_search_requests: 1 } });
      const status = await handle.query(statusQuery);
      expect(status.pendingApprovals).toEqual([]);
      expect(status.decisions).toEqual([]);
      expect(status.recentToolCalls).toContainEqual(
        expect.objectContaining({ callId: 'srvtoolu_s0', tool: 'web_search', outcome: 'success', ranBy: 'api', summary: expect.stringContaining('ran by the API') }),
      );
    });
    const lines = (await readFile(auditLog, 'utf8')).trim().split('\n').map(parseAuditLine);
    const records = lines.flatMap((line) => (line.ok ? [line.record] : []));
    expect(records).toContainEqual(expect.objectContaining({ kind: 'call', tool: 'web_search', callId: 'srvtoolu_s0', via: 'api', reason: 'ran by the API (server tool)', outcome: 'success' }));
    expect(records.filter((r) => r.decision !== undefined)).toEqual([]);
  });

  it('end the run with ModelRequestRejected naming a model id the API answers 404 to, after one request', async () => {
    const task = 'Options drill: no such model';
    fake.script(task, [fail(404, { body: { type: 'error', error: { type: 'not_found_error', message: 'model: claude-nonexistent-9' } } })]);
    await withAgentWorker({ ...bed.harness(), agents: [{ ...searcher, model: 'claude-nonexistent-9' }], tools: [stepTool] }, async ({ start }) => {
      const handle = await start({ agent: 'searcher', task });
      const error = await handle.result().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowFailedError);
      const status = await handle.query(statusQuery);
      expect(status.phase).toBe('failed');
      expect(status.lastError).toMatch(/404.*model "claude-nonexistent-9" does not exist/);
      expect(JSON.stringify((error as WorkflowFailedError).cause)).toContain(FailureType.ModelRequestRejected);
    });
    // Not an outage: no second attempt.
    expect(fake.requestsFor(task)).toHaveLength(1);
    expect(fake.requestsFor(task)[0]!.body.model).toBe('claude-nonexistent-9');
  });
});
