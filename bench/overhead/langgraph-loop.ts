// The durable peer: the same loop as a LangGraph JS graph (model node → tools node → model ...) with
// its SQLite checkpointer, which writes a checkpoint to disk after every step.
import Anthropic from '@anthropic-ai/sdk';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { runCalls, type LoopSpec } from './plain-loop';

const AgentState = Annotation.Root({
  messages: Annotation<Anthropic.MessageParam[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  done: Annotation<boolean>({ reducer: (_a, b) => b, default: () => false }),
});

/** Builds the graph once per checkpoint file; `run` executes one thread to the end. */
export function langGraphLoop(spec: Omit<LoopSpec, 'task'> & { sqliteFile: string }) {
  const client = new Anthropic({ apiKey: 'bench', baseURL: spec.baseUrl, maxRetries: 0 });
  const saver = SqliteSaver.fromConnString(spec.sqliteFile);
  const lastCalls = (messages: Anthropic.MessageParam[]) => {
    const last = messages[messages.length - 1];
    return typeof last?.content === 'string' ? [] : ((last?.content ?? []) as Anthropic.ContentBlockParam[]).filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
  };
  const graph = new StateGraph(AgentState)
    .addNode('model', async (state) => {
      const response = await client.messages.create({
        model: 'bench',
        max_tokens: 1_024,
        system: spec.system,
        tools: spec.toolSpecs as Anthropic.Tool[],
        messages: state.messages,
      });
      const done = response.content.some((b) => b.type === 'tool_use' && b.name === 'complete_task');
      return { messages: [{ role: 'assistant' as const, content: response.content }], done };
    })
    .addNode('tools', async (state) => ({ messages: [{ role: 'user' as const, content: await runCalls(spec.tools, lastCalls(state.messages)) }] }))
    .addEdge(START, 'model')
    .addConditionalEdges('model', (state) => (state.done ? END : 'tools'))
    .addEdge('tools', 'model')
    .compile({ checkpointer: saver });

  return {
    async run(task: string, threadId: string): Promise<number> {
      const final = await graph.invoke(
        { messages: [{ role: 'user', content: task }] },
        { configurable: { thread_id: threadId }, recursionLimit: 100_000 },
      );
      return final.messages.filter((m) => m.role === 'assistant').length;
    },
  };
}
