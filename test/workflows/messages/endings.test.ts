// Issue 31, finding 7: every way a run ends waits for its message handlers, answers them, and cleans
// up: a run that fails releases its conversation from the store, and an update still being worked on
// when the run is cancelled gets an answer (refused: the run was cancelled) instead of an error.
import { ApplicationFailure, WorkflowFailedError, WorkflowUpdateFailedError, WorkflowUpdateStage } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { decideApprovalUpdate } from '../../../src/contract/agent-run-api';
import { FailureType } from '../../../src/contract/errors';
import { ToolResult } from '../../../src/contract/tool-result';
import { MemoryConversationStore } from '../../../src/runtime/conversation/conversation-store';
import { defineTool } from '../../../src/runtime/tools/tool-definition';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { fail, reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';
import { parked } from '../approval-test-kit';

/** Remembers which runs' conversations were released. */
class WatchedStore extends MemoryConversationStore {
  released: string[] = [];
  override async deleteRun(owner: string): Promise<void> {
    this.released.push(owner);
    await super.deleteRun(owner);
  }
}

const tiny: AgentDefinitionInput = {
  name: 'tiny',
  description: 'An agent with a tiny context window.',
  modelTier: 'balanced',
  tools: ['list_files'],
  systemPrompt: 'You look around.',
  maxIterations: 10,
  context: { windowTokens: 2_000, targetShare: 0.5, keepRecentTurns: 1 },
};

/** A write whose edited arguments the worker checks only when the test lets it. */
let analysing: Promise<void> = Promise.resolve();
const held = defineTool({
  name: 'held_note',
  description: 'Writes a note (a write, so it needs approval).',
  scope: 'write',
  inputSchema: z.object({ text: z.string() }),
  analyze: async ({ text }) => {
    if (text === 'edited') await analysing;
    return { understood: true, commands: [], writes: [], problems: [] };
  },
  execute: async ({ text }) => ToolResult.success(`noted ${text}`),
});
const noter: AgentDefinitionInput = { name: 'held-noter', description: 'Takes notes.', modelTier: 'fast', tools: ['held_note'], systemPrompt: 'You take notes.', maxIterations: 5 };

describe('how a run ends, with messages in flight', () => {
  const conversations = new WatchedStore();
  const bed = useAgentTestbed({ agents: [tiny, noter], tools: [held], conversations });
  const fake = bed.fake;

  it('a run that fails releases its conversation from the store', async () => {
    const task = uniqueId('fails');
    // The summarizer's prompt quotes the task, so its script is registered first; it refuses the request.
    fake.script('The task:', [fail(400)]);
    const look = () => reply(toolCall('list_files', { path: '.' }));
    fake.script(task, [look(), look(), look().withUsage({ input_tokens: 1_900 })]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'tiny', task });
      const error = await handle.result().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowFailedError);
      expect(conversations.released).toContain(handle.workflowId);
    });
    fake.errors.length = 0;
  });

  it('an update being worked on when the run is cancelled is answered: refused, the run was cancelled', async () => {
    const task = uniqueId('cancelled');
    let release!: () => void;
    analysing = new Promise<void>((resolve) => (release = resolve));
    fake.script(task, [reply(toolCall('held_note', { text: 'original' }))]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'held-noter', task });
      await parked(handle);
      const edited = await handle.startUpdate(decideApprovalUpdate, {
        args: [{ callId: 'toolu_0_0', decision: 'approve', arguments: { text: 'edited' } }],
        waitForStage: WorkflowUpdateStage.ACCEPTED,
      });
      await handle.cancel();
      const answer = await edited.result().then(() => undefined, (e: unknown) => e);
      release();
      expect(answer).toBeInstanceOf(WorkflowUpdateFailedError);
      const cause = (answer as WorkflowUpdateFailedError).cause;
      expect(cause).toBeInstanceOf(ApplicationFailure);
      expect((cause as ApplicationFailure).type).toBe(FailureType.DecisionRefused);
      expect(cause?.message).toMatch(/cancelled/);
      expect(await handle.result().then(() => 'completed', (e: unknown) => (e as WorkflowFailedError).cause?.constructor.name)).toBe('CancelledFailure');
    });
  });
});
