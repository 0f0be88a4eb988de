// The bare workflow's activities: the same fake API through the same SDK, with a minimal prompt.
import Anthropic from '@anthropic-ai/sdk';
import { callId } from '../../test/support/step-script';

export function createBareActivities(baseUrl: string) {
  const client = new Anthropic({ apiKey: 'bench', baseURL: baseUrl, maxRetries: 0 });
  return {
    /** Asks for step `step`; the prompt carries the previous step's result so the fake knows where it is. */
    async bareModelCall({ task, step }: { task: string; step: number }): Promise<string> {
      const previous: Anthropic.MessageParam[] =
        step === 0
          ? []
          : [
              { role: 'assistant', content: [{ type: 'tool_use', id: callId(step - 1), name: 'noop', input: { n: step - 1 } }] },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId(step - 1), content: 'ok' }] },
            ];
      const response = await client.messages.create({ model: 'bench', max_tokens: 1_024, messages: [{ role: 'user', content: task }, ...previous] });
      const call = response.content.find((b) => b.type === 'tool_use');
      return call?.type === 'tool_use' ? call.name : 'none';
    },
    async bareNoop(): Promise<void> {},
  };
}

export type BareActivities = ReturnType<typeof createBareActivities>;
