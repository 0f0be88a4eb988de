// With OTEL_EXPORTER_OTLP_ENDPOINT set, spans leave the process by OTLP/HTTP: a local receiver gets a
// model-call span with its GenAI attributes. Without it, tracing stays off.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { emptyUsage } from '../../../src/contract/messages';
import { inModelSpan, recordModelResponse } from '../../../src/runtime/observability/genai-spans';
import { otlpTracesUrl, tracingFromEnv } from '../../../src/runtime/observability/tracing';

describe('OTLP export', () => {
  it('is off without an OTLP endpoint', () => {
    expect(tracingFromEnv({})).toBeUndefined();
  });

  it('derives the traces URL the way the OTLP spec does', () => {
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe('http://collector:4318/v1/traces');
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b/traces' })).toBe('http://b/traces');
  });

  it('posts spans to OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces, with the service name and GenAI attributes', async () => {
    const received: { path?: string; body: string; apiKey?: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ path: req.url, body, apiKey: req.headers['x-api-key'] as string | undefined });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      const tracing = tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'otlp-test-worker', OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=s%3Dcret' });
      expect(tracing).toBeDefined();
      await inModelSpan({ model: 'claude-test-model', maxTokens: 64, agent: 'exported', iteration: 1 }, async (span) => {
        recordModelResponse(span, { model: 'claude-test-model', stopReason: 'end_turn', usage: { ...emptyUsage(), inputTokens: 42, outputTokens: 7 }, toolCalls: 0 });
      });
      await tracing!.shutdown();
      const traces = received.filter((r) => r.path === '/v1/traces');
      expect(traces.length).toBeGreaterThan(0);
      expect(traces[0]!.apiKey).toBe('s=cret');
      const body = traces.map((r) => r.body).join('\n');
      expect(body).toContain('chat claude-test-model');
      expect(body).toContain('otlp-test-worker');
      expect(body).toContain('gen_ai.usage.input_tokens');
      expect(body).toContain('gen_ai.request.model');
    } finally {
      receiver.close();
    }
  });
});
