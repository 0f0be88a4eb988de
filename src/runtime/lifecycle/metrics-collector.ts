import { Registry } from 'prom-client';
import { emptyUsage, type TokenUsage } from '../../contract/messages';
import { agentMetricFamilies, TOKEN_KINDS } from './prometheus-metrics';
import { EventDeduper } from './event-dedupe';
import type { LifecycleEvent } from '../../contract/lifecycle-event';
import type { LifecycleHandler } from './lifecycle-handler';

export interface ToolMetrics {
  calls: number;
  successes: number;
  failures: number;
  totalMs: number;
  avgMs: number;
  maxMs: number;
}

/** A snapshot of everything the collector counted since the worker started. */
export interface AgentMetrics {
  runsStarted: number;
  /** Ended runs by final status (completed, max_iterations, failed, cancelled). */
  runsEnded: Record<string, number>;
  iterations: number;
  toolCalls: number;
  tools: Record<string, ToolMetrics>;
  tokens: TokenUsage;
  approvals: { requested: number; decided: Record<string, number> };
  errors: { total: number; byType: Record<string, number> };
}

const TOKEN_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadInputTokens', 'cacheCreationInputTokens'] as const;

/** Runs whose token totals are tracked at once; more than this means ended runs we never saw end. */
const MAX_TRACKED_RUNS = 10_000;

function isUsage(value: unknown): value is TokenUsage {
  return typeof value === 'object' && value !== null && TOKEN_FIELDS.every((f) => typeof (value as Record<string, unknown>)[f] === 'number');
}

function increment(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * Counts what the worker's runs do: tool calls and their execution time per tool, tokens, approvals
 * and errors. Events carry a run's cumulative token usage, so the collector adds the difference to
 * the last figure it saw for that run; a repeated event then adds nothing. The same counts feed
 * `registry` (prom-client), which the metrics endpoint serves in the Prometheus format.
 */
export class MetricsCollector implements LifecycleHandler {
  readonly registry = new Registry();
  private readonly prom = agentMetricFamilies(this.registry);
  private readonly dedupe = new EventDeduper();
  private readonly usageByRun = new Map<string, TokenUsage>();
  private runsStarted = 0;
  private readonly runsEnded: Record<string, number> = {};
  private iterations = 0;
  private readonly tools = new Map<string, Omit<ToolMetrics, 'avgMs'>>();
  private readonly tokens = emptyUsage();
  private approvalsRequested = 0;
  private readonly approvalsDecided: Record<string, number> = {};
  private readonly errorsByType: Record<string, number> = {};

  handle(event: LifecycleEvent): void {
    if (!this.dedupe.firstTime(event.key)) return;
    switch (event.name) {
      case 'agentStarted':
        this.runsStarted += 1;
        this.prom.runsStarted.inc();
        break;
      case 'iterationStarted':
        this.iterations += 1;
        this.prom.iterations.inc();
        break;
      case 'toolEnded':
        this.recordTool(event.data.tool, event.data.success === true, typeof event.data.durationMs === 'number' ? event.data.durationMs : 0);
        break;
      case 'approvalRequested':
        this.approvalsRequested += 1;
        this.prom.approvalsRequested.inc();
        break;
      case 'approvalDecided':
        increment(this.approvalsDecided, event.data.decision);
        this.prom.approvalDecisions.inc({ decision: event.data.decision });
        break;
      case 'errorOccurred': {
        const type = typeof event.data.type === 'string' ? event.data.type : 'unknown';
        increment(this.errorsByType, type);
        this.prom.errors.inc({ type });
        break;
      }
      case 'agentEnded':
        increment(this.runsEnded, event.data.status);
        this.prom.runsEnded.inc({ status: event.data.status });
        break;
    }
    // The events that carry the run's cumulative usage (iterationCompleted, agentEnded).
    const usage = 'usage' in event.data ? event.data.usage : undefined;
    if (isUsage(usage)) this.recordUsage(event.workflowId, usage);
    if (event.name === 'agentEnded') this.usageByRun.delete(event.workflowId);
  }

  private recordTool(tool: string, success: boolean, durationMs: number): void {
    const m = this.tools.get(tool) ?? { calls: 0, successes: 0, failures: 0, totalMs: 0, maxMs: 0 };
    m.calls += 1;
    if (success) m.successes += 1;
    else m.failures += 1;
    m.totalMs += durationMs;
    m.maxMs = Math.max(m.maxMs, durationMs);
    this.tools.set(tool, m);
    this.prom.toolCalls.inc({ tool, outcome: success ? 'success' : 'error' });
    this.prom.toolDuration.observe({ tool }, durationMs / 1000);
    this.prom.toolDurationMax.set({ tool }, m.maxMs / 1000);
  }

  private recordUsage(workflowId: string, cumulative: TokenUsage): void {
    const before = this.usageByRun.get(workflowId) ?? emptyUsage();
    for (const field of TOKEN_FIELDS) {
      const added = Math.max(0, cumulative[field] - before[field]);
      this.tokens[field] += added;
      this.prom.tokens.inc({ kind: TOKEN_KINDS[field] }, added);
    }
    this.usageByRun.delete(workflowId);
    this.usageByRun.set(workflowId, { ...cumulative });
    if (this.usageByRun.size > MAX_TRACKED_RUNS) this.usageByRun.delete(this.usageByRun.keys().next().value as string);
  }

  getMetrics(): AgentMetrics {
    const tools: Record<string, ToolMetrics> = {};
    let toolCalls = 0;
    for (const [name, m] of [...this.tools].sort(([a], [b]) => a.localeCompare(b))) {
      tools[name] = { ...m, avgMs: m.calls === 0 ? 0 : Math.round(m.totalMs / m.calls) };
      toolCalls += m.calls;
    }
    const errorsTotal = Object.values(this.errorsByType).reduce((a, b) => a + b, 0);
    return {
      runsStarted: this.runsStarted,
      runsEnded: { ...this.runsEnded },
      iterations: this.iterations,
      toolCalls,
      tools,
      tokens: { ...this.tokens },
      approvals: { requested: this.approvalsRequested, decided: { ...this.approvalsDecided } },
      errors: { total: errorsTotal, byType: { ...this.errorsByType } },
    };
  }
}
