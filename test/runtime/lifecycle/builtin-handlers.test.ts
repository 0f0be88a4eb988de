import { describe, expect, it } from 'vitest';
import { parseWorkerSettings } from '../../../src/runtime/config/worker-settings';
import { createBuiltinHandlers } from '../../../src/runtime/lifecycle/builtin-handlers';

describe('createBuiltinHandlers', () => {
  it('serves the metrics on a free port for AGENT_METRICS_PORT=0, with the URL the worker prints', async () => {
    const builtins = await createBuiltinHandlers(parseWorkerSettings({ AGENT_METRICS_PORT: '0' }).observability.metrics);
    try {
      const server = builtins.metricsServer!;
      expect(server.port).toBeGreaterThan(0);
      expect(server.url).toContain(`127.0.0.1:${server.port}`);
      const response = await fetch(server.url);
      expect(response.status).toBe(200);
    } finally {
      await builtins.close();
    }
  });
});
