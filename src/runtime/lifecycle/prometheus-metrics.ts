import { Counter, Gauge, Histogram, Registry } from 'prom-client';

const P = 'durable_agent';

/**
 * The agent's Prometheus metrics, on prom-client (names and meanings as docs/guides/lifecycle.md lists
 * them). The tool duration is a histogram: its `_sum` and `_count` mean what the old summary's did,
 * and its buckets aggregate across workers, which a summary cannot.
 */
export function agentMetricFamilies(registry: Registry) {
  const registers = [registry];
  return {
    runsStarted: new Counter({ name: `${P}_runs_started_total`, help: 'Agent runs started on this worker.', registers }),
    runsEnded: new Counter({ name: `${P}_runs_ended_total`, help: 'Agent runs ended, by final status.', labelNames: ['status'] as const, registers }),
    iterations: new Counter({ name: `${P}_iterations_total`, help: 'Model turns started.', registers }),
    toolCalls: new Counter({ name: `${P}_tool_calls_total`, help: 'Tool calls executed, by tool and outcome.', labelNames: ['tool', 'outcome'] as const, registers }),
    toolDuration: new Histogram({
      name: `${P}_tool_duration_seconds`,
      help: 'Tool execution time, as seen by the workflow (includes activity retries).',
      labelNames: ['tool'] as const,
      buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900],
      registers,
    }),
    toolDurationMax: new Gauge({ name: `${P}_tool_duration_max_seconds`, help: 'Longest execution of each tool since the worker started.', labelNames: ['tool'] as const, registers }),
    tokens: new Counter({ name: `${P}_tokens_total`, help: 'Model tokens, by kind.', labelNames: ['kind'] as const, registers }),
    approvalsRequested: new Counter({ name: `${P}_approvals_requested_total`, help: 'Tool calls parked for a person.', registers }),
    approvalDecisions: new Counter({
      name: `${P}_approval_decisions_total`,
      help: 'Approval decisions, by decision (approve, reject, approve_always, reject_always, timed_out, policy_reject).',
      labelNames: ['decision'] as const,
      registers,
    }),
    errors: new Counter({ name: `${P}_errors_total`, help: 'Errors that ended runs, by failure type.', labelNames: ['type'] as const, registers }),
  };
}

export type AgentMetricFamilies = ReturnType<typeof agentMetricFamilies>;

/** Token kinds as the `kind` label spells them. */
export const TOKEN_KINDS = { inputTokens: 'input', outputTokens: 'output', cacheReadInputTokens: 'cache_read', cacheCreationInputTokens: 'cache_creation' } as const;
