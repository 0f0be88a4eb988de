import { readFileSync } from 'node:fs';
import { type Command } from '../../client/cli-context';
import { stringFlag } from '../../client/approval-helpers';
import { followFromCli } from '../../client/follow-cli';
import { startRun } from '../../client/start-run';
import { UsageError } from '../../client/errors';
import { EffortSchema, type Effort } from '../../contract/model-options';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** "90", "90s", "15m", "2h", "7d" → seconds. */
export function parseDuration(flag: string, raw: string): number {
  const match = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(raw.trim());
  if (!match || Number(match[1]) <= 0) throw new UsageError(`--${flag} must be a positive duration such as 90, 90s, 15m, 2h or 7d (got "${raw}")`);
  return Number(match[1]) * UNIT_SECONDS[match[2] || 's']!;
}

function positiveInt(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`--${flag} must be a positive whole number (got "${raw}")`);
  return value;
}

/** `--output-schema FILE`: a JSON Schema the run's typed result must match. */
function outputSchemaFlag(file: string | undefined): Record<string, unknown> | undefined {
  if (file === undefined) return undefined;
  let schema: unknown;
  try {
    schema = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--output-schema must name a JSON file holding a JSON Schema (${file}: ${(error as Error).message})`);
  }
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw new UsageError(`--output-schema: ${file} must hold a JSON Schema object`);
  return schema as Record<string, unknown>;
}

/** `--effort low|medium|high|xhigh|max`, checked here so a typo is reported before anything starts. */
export function effortFlag(raw: string | undefined): Effort | undefined {
  if (raw === undefined) return undefined;
  const parsed = EffortSchema.safeParse(raw);
  if (!parsed.success) throw new UsageError(`--effort must be one of ${EffortSchema.options.join(', ')} (got "${raw}")`);
  return parsed.data;
}

/** `--priority N`: Temporal's task priority, 1 (first) to 5 (last). */
function priorityFlag(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 5) throw new UsageError(`--priority must be a whole number from 1 (first) to 5 (last) (got "${raw}")`);
  return value;
}

const list = (raw: string | undefined) => (raw === undefined ? undefined : raw.split(',').map((s) => s.trim()).filter(Boolean));

/** `--budget-usd 2` / `--budget-tokens 100000`, checked here so a typo is reported before anything starts. */
export function budgetFlags(usd: string | undefined, tokens: string | undefined): { maxUsd?: number; maxTokens?: number } | undefined {
  if (usd === undefined && tokens === undefined) return undefined;
  const maxUsd = usd === undefined ? undefined : Number(usd);
  if (maxUsd !== undefined && !(Number.isFinite(maxUsd) && maxUsd > 0)) throw new UsageError(`--budget-usd must be a number of USD above 0 (got "${usd}")`);
  const maxTokens = tokens === undefined ? undefined : Number(tokens);
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) throw new UsageError(`--budget-tokens must be a whole number above 0 (got "${tokens}")`);
  return { ...(maxUsd !== undefined ? { maxUsd } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}) };
}

/** `agentctl run <agent> <task...>`: starts a run and follows it live, or only starts it with --detach. */
export const runCommand: Command = {
  name: 'run',
  usage:
    'agentctl run <agent> <task...> [--max-iterations N] [--user NAME] [--id WORKFLOW_ID] [--approval-timeout 30m] ' +
    '[--follow-ups] [--sub-agents A,B] [--approvers A,B] [--network] [--output-schema FILE] [--model MODEL_ID] [--effort low|medium|high|xhigh|max] [--budget-usd USD] [--budget-tokens N] ' +
    '[--priority 1-5] [--fairness-key KEY] [--no-thinking] [--interactive] [--detach] [--json]',
  summary: 'start a run and follow it live (iterations, tools, approvals, result); --detach only starts it',
  async run(ctx) {
    const [agent, ...words] = ctx.args.positionals;
    if (!agent || words.length === 0) throw new UsageError('run needs an agent and a task, e.g. agentctl run general "Summarize README.md"');
    // Every flag is checked before connecting, so a typo is reported even with no server around.
    const timeout = stringFlag(ctx, 'approval-timeout');
    const input = {
      agent,
      task: words.join(' '),
      maxIterations: positiveInt('max-iterations', stringFlag(ctx, 'max-iterations')),
      // The same identity `approve --always` records under, so a person's choices apply to their runs.
      user: stringFlag(ctx, 'user') ?? ctx.clientSettings.approver,
      approvalTimeoutSeconds: timeout === undefined ? undefined : parseDuration('approval-timeout', timeout),
      outputSchema: outputSchemaFlag(stringFlag(ctx, 'output-schema')),
      followUps: ctx.args.flags['follow-ups'] === true ? true : undefined,
      subAgents: list(stringFlag(ctx, 'sub-agents')),
      approvers: list(stringFlag(ctx, 'approvers')),
      network: ctx.args.flags.network === true ? true : undefined,
      // This run's model id and effort, over the agent's (absent: the agent's own).
      model: stringFlag(ctx, 'model'),
      effort: effortFlag(stringFlag(ctx, 'effort')),
      // Issue 34: the run parks before a model call that would cross it, until an approver raises it.
      budget: budgetFlags(stringFlag(ctx, 'budget-usd'), stringFlag(ctx, 'budget-tokens')),
      // Temporal's task priority and fairness key (default: the user) for the run, its activities and sub-agents.
      priority: priorityFlag(stringFlag(ctx, 'priority')),
      fairnessKey: stringFlag(ctx, 'fairness-key'),
    };
    const workflowId = stringFlag(ctx, 'id');
    const handle = await startRun(await ctx.client(), input, { taskQueue: ctx.settings.taskQueue, workflowId });
    if (ctx.args.flags.detach) {
      ctx.print({ workflowId: handle.workflowId }, () =>
        [`Started ${handle.workflowId}`, `Follow it: npx agentctl watch ${handle.workflowId}`, `Result:    npx agentctl result ${handle.workflowId}`].join('\n'),
      );
      return 0;
    }
    if (!ctx.json) ctx.out(`Started ${handle.workflowId} (agent ${agent}, task queue ${ctx.settings.taskQueue})`);
    return followFromCli(ctx, handle);
  },
};
