import { describe, expect, it, vi } from 'vitest';
import type { AgentDefinitionInput } from '../../src/contract/agent-definition';
import { main } from '../../src/cli/cli';
import { planResume, resumeRun } from '../../src/client/resume-run';
import { WorkflowNotFoundError } from '@temporalio/client';
import { checkpointQuery } from '../../src/workflows/definitions';
import { statusQuery } from '../../src/contract/agent-run-api';
import { withAgentWorker } from '../support/agent-run-harness';
import { reply, text, toolCall, type FakeRequest } from '../support/fake-anthropic';
import { useFakeModel } from '../support/agent-testbed';
import { newClient, temporalAddress } from '../support/temporal';
import { callId, firstUserText, gatedStepTool, stepOf, stepScript, stepTool, userText } from '../support/step-script';
import { NoWorkerAnsweredError, RunNotResumableError } from '../../src/client/errors';

const agent: AgentDefinitionInput = {
  name: 'capped',
  description: 'Works through a task list in small steps.',
  modelTier: 'balanced',
  tools: ['step', 'gated_step'],
  systemPrompt: 'You work in steps.',
  maxIterations: 10,
};

const task = (id: string, status: 'pending' | 'in_progress' | 'completed') => ({ id, description: `Part ${id}`, status });
/** The note a resumed run finds at the end of the conversation it continues. */
const RESUMED = 'This run continues an earlier run';

/** The messages as the model read them; cache breakpoints move from request to request, so they are left out. */
const plain = (messages: FakeRequest['body']['messages']) => JSON.parse(JSON.stringify(messages, (key, value: unknown) => (key === 'cache_control' ? undefined : value))) as unknown[];

/**
 * The resumed run's first request carries the earlier run's whole conversation: the last request the
 * earlier run made, then its reply and the results of that turn (with the note).
 */
function expectWholeConversation(requests: FakeRequest[]): FakeRequest {
  const resumedAt = requests.findIndex((r) => userText(r).includes(RESUMED));
  expect(resumedAt).toBeGreaterThan(0);
  const earlier = plain(requests[resumedAt - 1]!.body.messages);
  const resumed = plain(requests[resumedAt]!.body.messages);
  expect(resumed.length).toBe(earlier.length + 2);
  expect(resumed.slice(0, earlier.length)).toEqual(earlier);
  return requests[resumedAt]!;
}

/**
 * The first run plans three parts, saves a key point and finishes part a, then hits its cap of two
 * iterations. The resumed run (the note at the end of its conversation says so) finishes b and c.
 */
function plan(step: number, request: FakeRequest) {
  if (userText(request).includes(RESUMED)) {
    if (step === 2) return reply(toolCall('update_tasks', { tasks: [task('a', 'completed'), task('b', 'completed'), task('c', 'completed')] }, callId(2)));
    return reply(toolCall('complete_task', { summary: 'parts a, b and c done', status: 'success' }, callId(step)));
  }
  if (step === 0) return reply(toolCall('update_tasks', { tasks: [task('a', 'in_progress'), task('b', 'pending'), task('c', 'pending')] }, callId(0)));
  return reply(
    text('Part a is done; b is next.'),
    toolCall('summarize_and_continue', { keyPoints: ['KP-RESUME: part a lives in a.txt'], nextSteps: ['part b'] }, callId(1, 0)),
    toolCall('step', { n: 1 }, callId(1, 1)),
  );
}

describe('resume', () => {
  const bed = useFakeModel();
  const fake = bed.fake;

  const harness = (body: Parameters<typeof withAgentWorker>[1]) =>
    withAgentWorker({ ...bed.harness(), agents: [agent], tools: [stepTool, gatedStepTool] }, body);

  it('continues a run that hit its iteration cap from its checkpoint: the whole conversation, tasks, key points and usage', async () => {
    const TASK = 'Resume drill: three parts';
    fake.script(TASK, stepScript(plan));
    await harness(async ({ client, start, taskQueue }) => {
      const first = await start({ agent: 'capped', task: TASK, maxIterations: 2 });
      const capped = await first.result();
      expect(capped).toMatchObject({ status: 'max_iterations', iterations: 2 });

      const { plan: resumePlan, handle } = await resumeRun(client, first.workflowId, { taskQueue, maxIterations: 5 });
      expect(handle.workflowId).toBe(`${first.workflowId}-r2`);
      // One path: the checkpoint, never the old `resume` summary.
      expect(resumePlan.input).toMatchObject({ agent: 'capped', task: TASK, maxIterations: 5, resumedFrom: first.workflowId });
      expect(resumePlan.input.resume).toBeUndefined();
      expect(resumePlan.input.checkpoint).toMatchObject({ iteration: 2, outcome: { kind: 'max_iterations' } });
      const result = await handle.result();
      // Iterations count on from the earlier run's two.
      expect(result).toMatchObject({ status: 'completed', completion: { status: 'success' }, iterations: 4 });
      expect(result.tasks.every((t) => t.status === 'completed')).toBe(true);
      // Usage goes on from where the first run stopped.
      expect(result.usage.inputTokens).toBe(capped.usage.inputTokens + 200);
      expect((await handle.query(checkpointQuery)).input.maxIterations).toBe(7);

      const opening = expectWholeConversation(fake.requestsFor(TASK));
      expect(firstUserText(opening).startsWith(TASK)).toBe(true);
      expect(JSON.stringify(opening.body.messages)).toContain('Part a is done; b is next.');
      expect(userText(opening)).toContain(`${RESUMED} (${first.workflowId}), which stopped at its iteration cap after 2 iteration(s) in all`);
      expect(stepOf(opening)).toBe(2);

      const described = await handle.describe();
      // `user`: the run's user in its memo, for `agentctl costs --by user` (patch cost-search-attribute).
      expect(described.memo).toEqual({ resumedFrom: first.workflowId, resumedFromRunId: (await first.describe()).runId, user: 'default' });
      expect((await handle.query(statusQuery)).resumedFrom).toBe(first.workflowId);

      // The follow-up succeeded, so there is nothing left to resume; and the first run was resumed already.
      await expect(planResume(client, handle.workflowId)).rejects.toThrow(/completed with success/);
      await expect(resumeRun(client, first.workflowId, { taskQueue })).rejects.toThrow(/already resumed as .*-r2/);
    });
    expect(fake.errors).toEqual([]);
  });

  it.each(['partial', 'blocked'] as const)('continues a run that ended %s from its checkpoint, telling the model how it ended and its next steps', async (ending) => {
    const TASK = `Resume drill: ended ${ending}`;
    fake.script(
      TASK,
      stepScript((step, request) =>
        userText(request).includes(RESUMED)
          ? reply(toolCall('complete_task', { summary: 'the rest is done', status: 'success' }, callId(step)))
          : reply(toolCall('complete_task', { summary: `stopped ${ending} at part b`, status: ending, next_steps: 'finish part b' }, callId(step))),
      ),
    );
    await harness(async ({ client, start, taskQueue }) => {
      const first = await start({ agent: 'capped', task: TASK });
      expect(await first.result()).toMatchObject({ status: 'completed', completion: { status: ending } });

      const { plan: resumePlan, handle } = await resumeRun(client, first.workflowId, { taskQueue });
      expect(handle.workflowId).toBe(`${first.workflowId}-r2`);
      expect(resumePlan.input.resume).toBeUndefined();
      expect(resumePlan.input.maxIterations).toBeUndefined();
      expect(await handle.result()).toMatchObject({ status: 'completed', completion: { status: 'success', summary: 'the rest is done' }, iterations: 2 });
      // No cap asked for: the agent's 10 still holds, one of them spent by the earlier run.
      expect((await handle.query(checkpointQuery)).input.maxIterations).toBe(10);
      expect(await planResume(client, handle.workflowId).catch((e: unknown) => e)).toBeInstanceOf(RunNotResumableError);
    });
    const opening = expectWholeConversation(fake.requestsFor(TASK));
    expect(userText(opening)).toContain(`which ended ${ending} after 1 iteration(s): stopped ${ending} at part b`);
    expect(userText(opening)).toContain('Its next steps: finish part b');
    expect(fake.errors).toEqual([]);
  });

  it('starts nothing and says to start a worker when no worker answers the checkpoint query', async () => {
    const TASK = 'Resume drill: no worker';
    fake.script(TASK, stepScript((step) => reply(toolCall('step', { n: step }, callId(step)))));
    let workflowId = '';
    await harness(async ({ start }) => {
      const run = await start({ agent: 'capped', task: TASK, maxIterations: 1 });
      expect(await run.result()).toMatchObject({ status: 'max_iterations' });
      workflowId = run.workflowId;
    });
    // The worker has stopped: nobody can replay the ended run to answer the query.
    const client = await newClient();
    try {
      const refused = await planResume(client, workflowId, { workerTimeoutMs: 2_000 }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(NoWorkerAnsweredError);
      expect((refused as Error).message).toMatch(/No worker answered the checkpoint query within 2s.*nothing was started: start one with npm run worker, then retry/);
      await expect(client.workflow.getHandle(`${workflowId}-r2`).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    } finally {
      await client.connection.close();
    }
  });

  it('refuses a run that is still running', async () => {
    const TASK = 'Resume drill: still running';
    fake.script(TASK, stepScript((step) => reply(toolCall('gated_step', { n: step }, callId(step)))));
    await harness(async ({ client, start }) => {
      const running = await start({ agent: 'capped', task: TASK });
      await expect(planResume(client, running.workflowId)).rejects.toBeInstanceOf(RunNotResumableError);
      await expect(planResume(client, running.workflowId)).rejects.toThrow(/still running/);
      await running.terminate('test done');
    });
  });

  it('refuses a run that failed before it started working', async () => {
    await harness(async ({ client, start }) => {
      // An unknown agent fails the run at once, before it has any state to resume from.
      const failed = await start({ agent: 'no-such-agent', task: 'Resume drill: failed at once' });
      await expect(failed.result()).rejects.toThrow();
      await expect(planResume(client, failed.workflowId)).rejects.toBeInstanceOf(RunNotResumableError);
      await expect(planResume(client, failed.workflowId)).rejects.toThrow(/failed before it started working/);
    });
  });

  it('resumes from the command line: agentctl resume <id> --iterations N --json', async () => {
    const TASK = 'Resume drill via the CLI';
    fake.script(TASK, stepScript(plan));
    await harness(async ({ client, start, taskQueue }) => {
      const first = await start({ agent: 'capped', task: TASK, maxIterations: 2 });
      expect((await first.result()).status).toBe('max_iterations');

      const output: string[] = [];
      const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
        output.push(String(chunk));
        return true;
      });
      vi.stubEnv('TEMPORAL_ADDRESS', temporalAddress());
      vi.stubEnv('TEMPORAL_TASK_QUEUE', taskQueue);
      let code: number;
      try {
        code = await main(['resume', first.workflowId, '--iterations', '4', '--json']);
      } finally {
        write.mockRestore();
        vi.unstubAllEnvs();
      }
      expect(code).toBe(0);
      const printed = JSON.parse(output.join(''));
      // Followed like `agentctl run --json`: the outcome of the resumed run.
      expect(printed).toMatchObject({ kind: 'completed', workflowId: `${first.workflowId}-r2`, result: { status: 'completed', iterations: 4 } });
      const described = await client.workflow.getHandle(printed.workflowId).describe();
      expect(described.memo).toMatchObject({ resumedFrom: first.workflowId });
    });
    expect(fake.errors).toEqual([]);
  });

  it('tells the person why a run cannot be resumed, with exit code 1', async () => {
    const errors: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      errors.push(String(chunk));
      return true;
    });
    vi.stubEnv('TEMPORAL_ADDRESS', temporalAddress());
    try {
      expect(await main(['resume'])).toBe(2);
      expect(await main(['resume', 'x', '--iterations', 'many'])).toBe(2);
      expect(await main(['resume', 'no-such-run-anywhere'])).toBe(1);
    } finally {
      write.mockRestore();
      vi.unstubAllEnvs();
    }
    expect(errors.join('')).toMatch(/resume needs exactly one workflow id/);
    expect(errors.join('')).toMatch(/--iterations must be a positive whole number/);
    expect(errors.join('')).toMatch(/Unknown run: no-such-run-anywhere/);
  });
});
