// The agent and tool the findings tests drive, shared with the worker process that one of them runs
// (crash-after-line-worker.ts), so both sides register the same ones.
import { z } from 'zod';
import type { AgentDefinitionInput } from '../../../../src/contract/agent-definition';
import { ToolResult } from '../../../../src/contract/tool-result';
import { defineTool } from '../../../../src/runtime/tools/tool-definition';

export const findingNote = defineTool({
  name: 'finding_note',
  description: 'Writes a note (a write, so it needs approval).',
  scope: 'write',
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => ToolResult.success(`noted ${text}`),
});

export const findingNoter: AgentDefinitionInput = { name: 'finding-noter', description: 'Takes notes.', modelTier: 'fast', tools: ['finding_note'], systemPrompt: 'You take notes.', maxIterations: 5 };
