// One scrape of the worker's metrics endpoint gets ours (prom-client, durable_agent_*) and the
// Temporal worker's own (core's Prometheus exporter, temporal_*), from a real worker that ran a run.
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';
import { createBuiltinHandlers } from '../../../src/runtime/lifecycle/builtin-handlers';
import { installWorkerRuntime } from '../../../src/runtime/observability/runtime';
import { withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { stepTool } from '../../support/step-script';
import { uniqueId } from '../../support/temporal';

const agent: AgentDefinitionInput = { name: 'metered', description: 'One step.', modelTier: 'balanced', tools: ['step'], systemPrompt: 'You work in steps.', maxIterations: 10 };
// As parseWorkerSettings reads AGENT_METRICS_PORT=0: the endpoint on a free loopback port.
const observability = { metrics: { port: 0, host: '127.0.0.1' } };

describe('the worker metrics endpoint', () => {
  let temporalMetricsUrl: string | undefined;
  // Before anything touches Temporal's runtime in this process (each test file is its own process).
  beforeAll(async () => {
    ({ temporalMetricsUrl } = await installWorkerRuntime(observability));
  });
  const bed = useAgentTestbed();

  it('serves durable_agent_* from prom-client and temporal_* from the Temporal worker, on one endpoint', async () => {
    expect(temporalMetricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const builtins = await createBuiltinHandlers(observability.metrics, [], temporalMetricsUrl);
    try {
      const task = uniqueId('metered');
      bed.fake.script(task, [reply(toolCall('step', { n: 1 })), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
      // Scraped while the worker runs (the runtime's exporter lives as long as the worker does).
      const text = await withAgentWorker({ ...bed.harness(), agents: [agent], tools: [stepTool], lifecycleHandlers: builtins.handlers }, async ({ start }) => {
        expect(await (await start({ agent: 'metered', task })).result()).toMatchObject({ status: 'completed' });
        const res = await fetch(builtins.metricsServer!.url);
        expect(res.status).toBe(200);
        return res.text();
      });
      expect(text).toContain('durable_agent_runs_started_total 1');
      expect(text).toContain('durable_agent_runs_ended_total{status="completed"} 1');
      expect(text).toContain('durable_agent_tool_calls_total{tool="step",outcome="success"} 1');
      expect(text).toMatch(/^durable_agent_tokens_total\{kind="input"\} [1-9]\d*$/m);
      // The Temporal worker's own series, with the run's task queue among their labels.
      expect(text).toMatch(/^# TYPE temporal_\w+ /m);
      expect(text).toMatch(/^temporal_workflow_completed\{.*\} [1-9]/m);
      expect(text).toMatch(/^temporal_activity_execution_latency_(seconds_)?(count|bucket)\{.*\} [1-9]/m);
      expect(text).not.toContain('Temporal worker metrics unavailable');
    } finally {
      await builtins.close();
    }
  });

  it('still answers, with a comment, when the Temporal metrics cannot be fetched', async () => {
    const builtins = await createBuiltinHandlers(observability.metrics, [], 'http://127.0.0.1:9/metrics');
    try {
      const text = await (await fetch(builtins.metricsServer!.url)).text();
      expect(text).toContain('# TYPE durable_agent_runs_started_total counter');
      expect(text).toMatch(/^# Temporal worker metrics unavailable: /m);
    } finally {
      await builtins.close();
    }
  });
});
