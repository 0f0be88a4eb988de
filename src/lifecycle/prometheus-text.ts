import type { AgentMetrics } from './metrics-collector';

type Labels = Record<string, string>;
interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'summary';
  samples: { suffix?: string; labels?: Labels; value: number }[];
}

/** Label values escape backslash, double quote and newline, as the exposition format requires. */
function labelText(labels: Labels = {}): string {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

function render(families: Family[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) lines.push(`${f.name}${s.suffix ?? ''}${labelText(s.labels)} ${s.value}`);
  }
  return `${lines.join('\n')}\n`;
}

const P = 'durable_agent';

/** The collector's snapshot in the Prometheus text exposition format (version 0.0.4). */
export function toPrometheusText(m: AgentMetrics): string {
  const tools = Object.entries(m.tools);
  return render([
    { name: `${P}_runs_started_total`, help: 'Agent runs started on this worker.', type: 'counter', samples: [{ value: m.runsStarted }] },
    {
      name: `${P}_runs_ended_total`,
      help: 'Agent runs ended, by final status.',
      type: 'counter',
      samples: Object.entries(m.runsEnded).map(([status, value]) => ({ labels: { status }, value })),
    },
    { name: `${P}_iterations_total`, help: 'Model turns started.', type: 'counter', samples: [{ value: m.iterations }] },
    {
      name: `${P}_tool_calls_total`,
      help: 'Tool calls executed, by tool and outcome.',
      type: 'counter',
      samples: tools.flatMap(([tool, t]) => [
        { labels: { tool, outcome: 'success' }, value: t.successes },
        { labels: { tool, outcome: 'error' }, value: t.failures },
      ]),
    },
    {
      name: `${P}_tool_duration_seconds`,
      help: 'Tool execution time, as seen by the workflow (includes activity retries).',
      type: 'summary',
      samples: tools.flatMap(([tool, t]) => [
        { suffix: '_sum', labels: { tool }, value: t.totalMs / 1000 },
        { suffix: '_count', labels: { tool }, value: t.calls },
      ]),
    },
    {
      name: `${P}_tool_duration_max_seconds`,
      help: 'Longest execution of each tool since the worker started.',
      type: 'gauge',
      samples: tools.map(([tool, t]) => ({ labels: { tool }, value: t.maxMs / 1000 })),
    },
    {
      name: `${P}_tokens_total`,
      help: 'Model tokens, by kind.',
      type: 'counter',
      samples: [
        { labels: { kind: 'input' }, value: m.tokens.inputTokens },
        { labels: { kind: 'output' }, value: m.tokens.outputTokens },
        { labels: { kind: 'cache_read' }, value: m.tokens.cacheReadInputTokens },
        { labels: { kind: 'cache_creation' }, value: m.tokens.cacheCreationInputTokens },
      ],
    },
    { name: `${P}_approvals_requested_total`, help: 'Tool calls parked for a person.', type: 'counter', samples: [{ value: m.approvals.requested }] },
    {
      name: `${P}_approval_decisions_total`,
      help: 'Approval decisions, by decision (approve, reject, approve_always, reject_always, timed_out, policy_reject).',
      type: 'counter',
      samples: Object.entries(m.approvals.decided).map(([decision, value]) => ({ labels: { decision }, value })),
    },
    {
      name: `${P}_errors_total`,
      help: 'Errors that ended runs, by failure type.',
      type: 'counter',
      samples: Object.entries(m.errors.byType).map(([type, value]) => ({ labels: { type }, value })),
    },
  ]);
}
