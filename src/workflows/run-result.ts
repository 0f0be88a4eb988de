import type { Completion, SavedSummary, Task } from '../control-tools';
import type { TokenUsage } from '../conversation/messages';

/** What `agentRun` returns. `status` says why the loop stopped; `completion` is the agent's own word. */
export interface AgentRunResult {
  status: 'completed' | 'max_iterations';
  completion?: Completion;
  /** The typed result, when the run (or its agent) asked for one with an output schema. */
  output?: unknown;
  iterations: number;
  usage: TokenUsage;
  tasks: Task[];
  agent: string;
  workflowId: string;
  /** What `agentctl resume` carries into a follow-up run. */
  carryOver: {
    savedSummaries: SavedSummary[];
    conversationSummary?: string;
    lastAssistantText?: string;
  };
}
