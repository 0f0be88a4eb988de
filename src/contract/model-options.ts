import { z } from 'zod';

/**
 * How an agent talks to Claude beyond its tier: an exact model id, thinking, effort, temperature and
 * the API's server tools. `thinking` and `serverTools` are the Messages API's own objects, passed
 * through as written (loose objects: a field the API adds later needs no release of ours); only what
 * the API would refuse anyway is checked here, so the mistake shows at worker start, not at the
 * first model call.
 */

/** The smallest thinking budget the API accepts. */
export const MIN_THINKING_BUDGET = 1024;

const DisplaySchema = z.enum(['summarized', 'omitted']).optional();

/** The API's `thinking` object: `{ type: adaptive }`, `{ type: enabled, budget_tokens }`, `{ type: between_tools }` or `{ type: disabled }`. */
export const ThinkingSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('adaptive'), display: DisplaySchema }),
  z.looseObject({
    type: z.literal('enabled'),
    budget_tokens: z.number().int().min(MIN_THINKING_BUDGET, `budget_tokens must be at least ${MIN_THINKING_BUDGET} (the API's minimum)`),
    display: DisplaySchema,
  }),
  z.looseObject({ type: z.literal('between_tools') }),
  z.looseObject({ type: z.literal('disabled') }),
]);
export type Thinking = z.infer<typeof ThinkingSchema>;

/** Sent as `output_config.effort`. */
export const EffortSchema = z.enum(['low', 'medium', 'high', 'xhigh', 'max']);
export type Effort = z.infer<typeof EffortSchema>;

/**
 * A server tool as the API defines it, e.g. `{ type: web_search_20260318, name: web_search, max_uses: 3 }`.
 * The API runs it; the worker never does.
 */
export const ServerToolSchema = z.looseObject({
  type: z.string({ error: 'a server tool needs its API `type`, e.g. "web_search_20260318"' }).min(1),
  name: z.string({ error: 'a server tool needs its API `name`, e.g. "web_search"' }).min(1),
});
export type ServerTool = z.infer<typeof ServerToolSchema>;

/** The agent fields, spread into AgentDefinitionSchema. */
export const ModelOptionsShape = {
  /** An exact model id (e.g. `claude-opus-4-8`); without it the tier's model is used. */
  model: z.string().min(1).optional(),
  thinking: ThinkingSchema.optional(),
  effort: EffortSchema.optional(),
  /** 0 to 1; the API accepts only the default while thinking is on. */
  temperature: z.number().min(0).max(1).optional(),
  serverTools: z.array(ServerToolSchema).default([]),
};

export interface ModelOptions {
  maxTokens: number;
  thinking?: Thinking;
  temperature?: number;
  serverTools: readonly ServerTool[];
  /** The names of the agent's own tools (server tools must not clash with them). */
  toolNames: readonly string[];
}

/** Whether the request asks the model to think (anything but absent or `disabled`). */
export const thinks = (thinking: Thinking | undefined): boolean => thinking !== undefined && thinking.type !== 'disabled';

/**
 * What the API would refuse in these options taken together, as `field: problem` lines (empty when
 * none). Single fields are checked by their schemas; these need two of them.
 */
export function modelOptionProblems(options: ModelOptions): string[] {
  const problems: string[] = [];
  const { thinking } = options;
  if (thinking?.type === 'enabled' && thinking.budget_tokens >= options.maxTokens) {
    problems.push(`thinking.budget_tokens: ${thinking.budget_tokens} must be less than maxTokens (${options.maxTokens}); raise maxTokens or lower the budget`);
  }
  if (thinks(thinking) && options.temperature !== undefined && options.temperature !== 1) {
    problems.push(`temperature: the API accepts no temperature but 1 while thinking is on; remove temperature or set thinking to { type: disabled }`);
  }
  const names = new Set<string>();
  options.serverTools.forEach((tool, i) => {
    if (names.has(tool.name)) problems.push(`serverTools.${i}.name: "${tool.name}" is listed twice`);
    if (options.toolNames.includes(tool.name)) problems.push(`serverTools.${i}.name: "${tool.name}" is also one of the agent's own tools; tool names must be unique`);
    names.add(tool.name);
  });
  return problems;
}
