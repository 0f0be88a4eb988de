import type Anthropic from '@anthropic-ai/sdk';
import type { Client } from '@temporalio/client';
import type { AgentRegistry } from '../agents/agent-registry';
import type { ConversationStore } from '../conversation/conversation-store';

/** What activities need from the worker process; built once in `createActivities`. */
export interface ActivityDeps {
  registry: AgentRegistry;
  workspaceRoot: string;
  conversations: ConversationStore;
  /** Built lazily: a worker without ANTHROPIC_API_KEY can still serve everything but model calls. */
  anthropic: () => Anthropic;
  /** Used by the preference activities to reach the per-person preferences workflow. */
  temporal: () => Client;
  taskQueue: string;
}
