import { describe, expect, it } from 'vitest';
import { MetricsCollector } from '../../../src/runtime/lifecycle/metrics-collector';
import { lifecycleEvent as ev, usage } from './event-factory';

function runOf(collector: MetricsCollector, workflowId: string) {
  const at = { workflowId };
  collector.handle(ev('agentStarted', {}, at));
  collector.handle(ev('iterationStarted', {}, at));
  collector.handle(ev('toolEnded', { tool: 'shell', callId: 'a', success: true, durationMs: 40 }, at));
  collector.handle(ev('toolEnded', { tool: 'shell', callId: 'b', success: false, durationMs: 100 }, at));
  collector.handle(ev('toolEnded', { tool: 'read_file', callId: 'c', success: true, durationMs: 5 }, at));
  collector.handle(ev('iterationCompleted', { usage: usage(100, 20) }, at));
  collector.handle(ev('iterationStarted', {}, { ...at, iteration: 2 }));
  collector.handle(ev('approvalRequested', { tool: 'write_file', callId: 'd' }, { ...at, iteration: 2 }));
  collector.handle(ev('approvalDecided', { tool: 'write_file', callId: 'd', decision: 'approve' }, { ...at, iteration: 2 }));
  collector.handle(ev('agentEnded', { status: 'completed', usage: usage(250, 45) }, { ...at, iteration: 2 }));
}

describe('MetricsCollector', () => {
  it('counts tool calls and execution time per tool', () => {
    const collector = new MetricsCollector();
    runOf(collector, 'run-1');
    const m = collector.getMetrics();
    expect(m.toolCalls).toBe(3);
    expect(m.tools.shell).toEqual({ calls: 2, successes: 1, failures: 1, totalMs: 140, avgMs: 70, maxMs: 100 });
    expect(m.tools.read_file).toEqual({ calls: 1, successes: 1, failures: 0, totalMs: 5, avgMs: 5, maxMs: 5 });
    expect(m.iterations).toBe(2);
    expect(m.runsStarted).toBe(1);
    expect(m.runsEnded).toEqual({ completed: 1 });
    expect(m.approvals).toEqual({ requested: 1, decided: { approve: 1 } });
  });

  it('adds tokens from the cumulative usage events carry, per run', () => {
    const collector = new MetricsCollector();
    runOf(collector, 'run-1');
    runOf(collector, 'run-2');
    expect(collector.getMetrics().tokens).toEqual(usage(500, 90));
  });

  it('drops an event delivered twice (same key), as a retried workflow task may do', () => {
    const collector = new MetricsCollector();
    runOf(collector, 'run-1');
    runOf(collector, 'run-1');
    const m = collector.getMetrics();
    expect(m.toolCalls).toBe(3);
    expect(m.tokens).toEqual(usage(250, 45));
    expect(m.runsStarted).toBe(1);
  });

  it('counts errors by failure type', () => {
    const collector = new MetricsCollector();
    collector.handle(ev('errorOccurred', { message: 'bad key', type: 'ModelRequestRejected' }));
    collector.handle(ev('errorOccurred', { message: 'boom' }, { workflowId: 'run-2' }));
    expect(collector.getMetrics().errors).toEqual({ total: 2, byType: { ModelRequestRejected: 1, unknown: 1 } });
  });
});

describe('the Prometheus exposition (prom-client)', () => {
  it('renders counters, a duration histogram and a max gauge in the exposition format', async () => {
    const collector = new MetricsCollector();
    runOf(collector, 'run-1');
    const text = await collector.registry.metrics();
    expect(text).toContain('# TYPE durable_agent_tool_calls_total counter');
    expect(text).toContain('durable_agent_tool_calls_total{tool="shell",outcome="success"} 1');
    expect(text).toContain('durable_agent_tool_calls_total{tool="shell",outcome="error"} 1');
    expect(text).toContain('# TYPE durable_agent_tool_duration_seconds histogram');
    expect(text).toContain('durable_agent_tool_duration_seconds_bucket{le="0.05",tool="shell"} 1');
    expect(text).toContain('durable_agent_tool_duration_seconds_sum{tool="shell"} 0.14');
    expect(text).toContain('durable_agent_tool_duration_seconds_count{tool="shell"} 2');
    expect(text).toContain('durable_agent_tool_duration_max_seconds{tool="shell"} 0.1');
    expect(text).toContain('durable_agent_tokens_total{kind="input"} 250');
    expect(text).toContain('durable_agent_approval_decisions_total{decision="approve"} 1');
    expect(text).toContain('durable_agent_runs_ended_total{status="completed"} 1');
    // Every sample line is "name{labels} number", which is what a scraper parses.
    for (const line of text.trim().split('\n').filter((l) => l && !l.startsWith('#'))) {
      expect(line).toMatch(/^[a-z_]+(\{[^}]*\})? (-?\d+(\.\d+)?(e-?\d+)?|\+Inf)$/);
    }
  });

  it('escapes quotes, backslashes and newlines in label values', async () => {
    const collector = new MetricsCollector();
    collector.handle(ev('toolEnded', { tool: 'we"ird\\tool\n', callId: 'x', success: true, durationMs: 1 }));
    expect(await collector.registry.metrics()).toContain('tool="we\\"ird\\\\tool\\n"');
  });
});
