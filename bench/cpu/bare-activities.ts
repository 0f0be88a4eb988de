// The floor's activities. `stream` posts to the fake Messages API as agentRun's model activity does
// (the SDK's streaming call), `json` with the SDK's plain call, and `none` makes no request at all:
// what is left is Temporal alone.
import Anthropic from '@anthropic-ai/sdk';
import { callId } from '../../test/support/step-script';

export type BareMode = 'stream' | 'json' | 'none';

export interface BareCpuInput {
  task: string;
  mode: BareMode;
  /** Tool iterations before the completing turn (the `none` mode has no fake model to decide it). */
  iterations: number;
}

/**
 * `onCall(count)` is told of every model call this worker makes, so that the `none` mode, which no
 * fake model counts, can still mark the steady window.
 */
export function createBareCpuActivities(baseUrl: string, onCall: (count: number) => void) {
  const client = new Anthropic({ apiKey: 'bench', baseURL: baseUrl, maxRetries: 0 });
  let calls = 0;
  return {
    /** Asks for step `step`; the prompt carries the previous step's result so the fake knows where it is. */
    async bareCpuModel({ task, mode, iterations, step }: BareCpuInput & { step: number }): Promise<string> {
      calls += 1;
      onCall(calls);
      if (mode === 'none') return step < iterations ? 'list_files' : 'complete_task';
      const previous: Anthropic.MessageParam[] =
        step === 0
          ? []
          : [
              { role: 'assistant', content: [{ type: 'tool_use', id: callId(step - 1), name: 'list_files', input: {} }] },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId(step - 1), content: 'README.md\npackage.json\nsrc/' }] },
            ];
      const params = { model: 'bench', max_tokens: 1_024, messages: [{ role: 'user' as const, content: task }, ...previous] };
      const response = mode === 'stream' ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
      const call = response.content.find((b) => b.type === 'tool_use');
      return call?.type === 'tool_use' ? call.name : 'none';
    },
    async bareCpuTool(): Promise<void> {},
  };
}

export type BareCpuActivities = ReturnType<typeof createBareCpuActivities>;
