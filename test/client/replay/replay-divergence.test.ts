// Issue 35: where a shadow leaves the recorded run, and what it does then. A changed system prompt
// (against the scripted model) diverges at the first turn and stops there without a model call, or
// asks the live model with --live-model; changed approval rules diverge at the decision; a lower
// iteration cap at the completion.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, text, toolCall, type FakeRequest } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { approveUntilDone, openTestLab } from './replay-support';

const bed = useAgentTestbed();
const fake = bed.fake;

function agentFile(options: { prompt?: string; write?: 'allow' | 'approve'; maxIterations?: number } = {}): string {
  return [
    'agents:',
    '  - name: scribe',
    '    description: Reads and writes notes.',
    '    modelTier: balanced',
    `    maxIterations: ${options.maxIterations ?? 10}`,
    '    tools: [read_file, write_file, list_files]',
    `    systemPrompt: ${JSON.stringify(options.prompt ?? 'You keep notes.')}`,
    '    approval:',
    `      scopes: { read: allow, write: ${options.write ?? 'allow'}, execute: approve }`,
    '',
  ].join('\n');
}

const terse = (request: FakeRequest) => JSON.stringify(request.body.system).includes('terse');
const complete = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

describe('a shadow that leaves the recorded run', () => {
  let dir: string;
  const file = async (name: string, content: string) => {
    const target = path.join(dir, name);
    await writeFile(target, content);
    return target;
  };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'replay-diverge-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** Records a five-iteration run of `scribe` (a write by the policy at iteration 3) under the original agent file. */
  async function record(task: string, body: (ids: { workflowId: string; client: import('@temporalio/client').Client }) => Promise<void>) {
    const original = await file(`${task}.yaml`, agentFile());
    await withAgentWorker({ ...bed.harness(), env: { AGENT_CONFIG: original } }, async ({ start, client }) => {
      const run = await start({ agent: 'scribe', task });
      expect((await run.result()).iterations).toBe(5);
      await body({ workflowId: run.workflowId, client });
    });
  }

  const script = (task: string) =>
    fake.script(task, [
      reply((request) => (terse(request) ? complete('Nothing to do, tersely.') : reply(text('Looking.'), toolCall('list_files', { path: '.' })))),
      reply(toolCall('read_file', { path: 'notes.md' })),
      reply(toolCall('write_file', { path: 'notes.md', content: 'first note\n' })),
      reply(toolCall('read_file', { path: 'notes.md' })),
      complete('Wrote the note'),
    ]);

  it('names the first divergent turn of a changed system prompt, and stops there without asking the model', async () => {
    const task = uniqueId('replay-prompt');
    script(task);
    await record(task, async ({ workflowId, client }) => {
      const requests = fake.requests.length;
      const lab = await openTestLab(client, fake, { agentConfig: await file('terse.yaml', agentFile({ prompt: 'You keep notes, and you are terse.' })) });
      try {
        const report = await lab.replay(workflowId);
        expect(report.diverged).toBe(true);
        expect(report.firstDivergence).toMatchObject({ iteration: 1, kind: 'model_request', what: 'the system prompt differs' });
        expect((report.firstDivergence!.shadow as { systemPrompt: string }).systemPrompt).toContain('you are terse');
        expect(report.modelCalls).toEqual({ recorded: 5, replayed: 0, live: 0 });
        expect(fake.requests.length).toBe(requests);
        expect(report.stopped).toContain('without --live-model');
        expect(report.completion.shadow).toMatchObject({ outcome: 'stopped' });
        expect(report.cost.shadowUsd).toBe(0);
      } finally {
        await lab.close();
      }

      const live = await openTestLab(client, fake, { agentConfig: await file('terse-live.yaml', agentFile({ prompt: 'You keep notes, and you are terse.' })), liveModel: true });
      try {
        const report = await live.replay(workflowId);
        expect(report.firstDivergence).toMatchObject({ iteration: 1, kind: 'model_request' });
        expect(report.modelCalls).toEqual({ recorded: 5, replayed: 0, live: 1 });
        expect(fake.requests.length).toBe(requests + 1);
        expect(report.completion).toMatchObject({ recorded: { outcome: 'completed', summary: 'Wrote the note' }, shadow: { outcome: 'completed', summary: 'Nothing to do, tersely.', iterations: 1 } });
        expect(report.cost.shadowUsd).toBeGreaterThan(0);
        expect(report.toolCallsShadow).toBe(0);
      } finally {
        await live.close();
      }
    });
  });

  it("diverges at the decision when the rules ask a person where the recorded run's policy allowed", async () => {
    const task = uniqueId('replay-rules');
    script(task);
    await record(task, async ({ workflowId, client }) => {
      const strict = await file('strict.yaml', agentFile({ write: 'approve' }));
      const lab = await openTestLab(client, fake, { agentConfig: strict, decide: 'reject' });
      try {
        const report = await lab.replay(workflowId);
        expect(report.firstDivergence).toMatchObject({ iteration: 3, kind: 'decision', recorded: { decision: 'policy_allow', via: 'policy' } });
        expect(report.approvals.shadow).toEqual([expect.objectContaining({ tool: 'write_file', decision: 'reject', source: 'flag' })]);
        // Rejected, the write left a different result in the conversation: the next request differs, and the replay stops there.
        expect(report.modelCalls).toMatchObject({ replayed: 3, live: 0 });
        expect(report.stopped).toContain('model request 4 (iteration 4)');
        expect(report.wouldRun).toEqual([]);
      } finally {
        await lab.close();
      }
      const stop = await openTestLab(client, fake, { agentConfig: strict });
      try {
        const report = await stop.replay(workflowId);
        expect(report.firstDivergence).toMatchObject({ iteration: 3, kind: 'decision' });
        expect(report.stopped).toContain('--decide stop');
        expect(report.approvals.shadow).toEqual([]);
      } finally {
        await stop.close();
      }
    });
  });

  it('diverges at the decision when the policy now allows what a person approved', async () => {
    const task = uniqueId('replay-relaxed');
    script(task);
    const careful = await file(`${task}.yaml`, agentFile({ write: 'approve' }));
    await withAgentWorker({ ...bed.harness(), env: { AGENT_CONFIG: careful } }, async ({ start, client }) => {
      const run = await start({ agent: 'scribe', task });
      expect(await approveUntilDone(run)).toBe(1);
      const lab = await openTestLab(client, fake, { agentConfig: await file('relaxed.yaml', agentFile({ write: 'allow' })) });
      try {
        const report = await lab.replay(run.workflowId);
        expect(report.firstDivergence).toMatchObject({ iteration: 3, kind: 'decision', recorded: { decision: 'approve', via: 'update' }, shadow: { decision: 'policy_allow', via: 'policy' } });
        // The write itself is answered from the record, so the rest of the run replays as it was.
        expect(report.modelCalls).toEqual({ recorded: 5, replayed: 5, live: 0 });
        expect(report.completion.shadow).toEqual(report.completion.recorded);
        expect(report.approvals).toMatchObject({ recorded: [{ tool: 'write_file', approver: 'ana' }], shadow: [] });
      } finally {
        await lab.close();
      }
    });
  });

  it('diverges at the completion when the iteration cap is lower', async () => {
    const task = uniqueId('replay-cap');
    script(task);
    await record(task, async ({ workflowId, client }) => {
      const lab = await openTestLab(client, fake, { agentConfig: await file('capped.yaml', agentFile({ maxIterations: 3 })) });
      try {
        const report = await lab.replay(workflowId);
        expect(report.firstDivergence).toMatchObject({ kind: 'completion', iteration: 3 });
        expect(report.completion.shadow).toMatchObject({ outcome: 'max_iterations', iterations: 3 });
        expect(report.modelCalls).toEqual({ recorded: 5, replayed: 3, live: 0 });
      } finally {
        await lab.close();
      }
    });
  });
});
