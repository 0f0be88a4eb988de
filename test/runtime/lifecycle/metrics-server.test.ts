import { describe, expect, it } from 'vitest';
import { MetricsCollector } from '../../../src/runtime/lifecycle/metrics-collector';
import { MetricsServerError, metricsServerOptionsFromEnv, startMetricsServer } from '../../../src/runtime/lifecycle/metrics-server';
import { lifecycleEvent as ev } from './event-factory';

describe('metricsServerOptionsFromEnv', () => {
  it('is off unless AGENT_METRICS_PORT is set', () => {
    expect(metricsServerOptionsFromEnv({})).toBeUndefined();
    expect(metricsServerOptionsFromEnv({ AGENT_METRICS_PORT: '' })).toBeUndefined();
  });

  it('listens on loopback by default, and on AGENT_METRICS_HOST when given', () => {
    expect(metricsServerOptionsFromEnv({ AGENT_METRICS_PORT: '9464' })).toEqual({ port: 9464, host: '127.0.0.1' });
    expect(metricsServerOptionsFromEnv({ AGENT_METRICS_PORT: '9464', AGENT_METRICS_HOST: '0.0.0.0' })).toEqual({ port: 9464, host: '0.0.0.0' });
  });

  it('refuses a port that is not a number', () => {
    expect(() => metricsServerOptionsFromEnv({ AGENT_METRICS_PORT: 'nine' })).toThrow(MetricsServerError);
  });
});

describe('startMetricsServer', () => {
  it('serves the collector in Prometheus text at /metrics and as JSON at /metrics.json', async () => {
    const collector = new MetricsCollector();
    const server = await startMetricsServer(collector, { port: 0 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      collector.handle(ev('toolEnded', { tool: 'shell', callId: 'a', success: true, durationMs: 12 }));
      const res = await fetch(server.url);
      expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
      expect(await res.text()).toContain('durable_agent_tool_calls_total{tool="shell",outcome="success"} 1');
      const json = (await (await fetch(`${server.url}.json`)).json()) as { toolCalls: number };
      expect(json.toolCalls).toBe(1);
      expect((await fetch(server.url.replace('/metrics', '/other'))).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('says which setting to change when the port is taken', async () => {
    const first = await startMetricsServer(new MetricsCollector(), { port: 0 });
    try {
      await expect(startMetricsServer(new MetricsCollector(), { port: first.port })).rejects.toThrow(/in use.*AGENT_METRICS_PORT/);
    } finally {
      await first.close();
    }
  });
});
