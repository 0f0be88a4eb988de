// The naive design the history benchmark compares against: the workflow keeps the conversation and
// hands all of it to the model activity on every turn, and never continues as new. Each turn writes
// the whole conversation into history again, so history grows with the square of the run length.
import { proxyActivities } from '@temporalio/workflow';
import type { ConversationMessage } from '../../src/contract/messages';
import type { NaiveActivities } from './naive-activities';

const { callModelWithConversation, runNaiveTool } = proxyActivities<NaiveActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3 },
});

export interface NaiveRunInput {
  task: string;
  maxIterations: number;
}

export async function naiveAgentRun(input: NaiveRunInput): Promise<{ iterations: number }> {
  const messages: ConversationMessage[] = [{ role: 'user', content: input.task }];
  for (let iteration = 1; iteration <= input.maxIterations; iteration += 1) {
    const reply = await callModelWithConversation({ messages });
    messages.push(reply);
    const calls = typeof reply.content === 'string' ? [] : reply.content.filter((b) => b.type === 'tool_use');
    if (calls.length === 0 || calls.some((c) => c.name === 'complete_task')) return { iterations: iteration };
    const results = [];
    for (const call of calls) results.push({ type: 'tool_result' as const, tool_use_id: call.id, content: await runNaiveTool({ name: call.name, input: call.input }) });
    messages.push({ role: 'user', content: results });
  }
  return { iterations: input.maxIterations };
}
