import { trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';

/** Tracer name of this project's own spans (model and tool calls); Temporal's interceptors use theirs. */
export const TRACER_NAME = 'durable-agent';

/**
 * OpenTelemetry tracing for a worker or client process. Temporal's interceptors (as its
 * `OpenTelemetryPlugin`) carry the trace from the client that starts a run into the workflow, every
 * activity it schedules (local ones too), and the next link after continue-as-new, so a run is one
 * trace; workflow spans leave the sandbox through the plugin's `exporter` sink. Our activities add
 * GenAI spans inside theirs (see genai-spans.ts). The provider is registered globally, with the
 * async-hooks context manager, so those spans nest under the activity's span.
 */
export interface Tracing {
  plugin: OpenTelemetryPlugin;
  tracer: Tracer;
  /** Sends the spans buffered so far (a CLI does this before it exits). */
  forceFlush(): Promise<void>;
  /** Flushes and stops the exporter. */
  shutdown(): Promise<void>;
}

/** The workflow interceptor module the plugin adds; prebuilt bundles need it (`workflowInterceptorModules`). */
export const TRACING_WORKFLOW_MODULES = [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];

let registered: Tracing | undefined;

/**
 * Turns tracing on with `spanProcessor` (tests pass an in-memory exporter's). Once per process:
 * OpenTelemetry has one global provider, so later calls get the first one back.
 */
export function startTracing(spanProcessor: SpanProcessor, serviceName = 'durable-agent-worker'): Tracing {
  if (registered) return registered;
  const resource = new Resource({ 'service.name': serviceName });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  const tracer = trace.getTracer(TRACER_NAME);
  registered = {
    plugin: new OpenTelemetryPlugin({ resource, spanProcessor, tracer }),
    tracer,
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
  return registered;
}

/** Where and how spans are exported: read from the standard OpenTelemetry variables once, with the other settings. */
export interface TracingSettings {
  url: string;
  headers: Record<string, string>;
  serviceName?: string;
}

/**
 * The standard OpenTelemetry variables: tracing is on when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, exporting OTLP over HTTP in batches; OTEL_SERVICE_NAME
 * names the service. Undefined (off) otherwise. Called by the settings parsers, not at use.
 */
export function tracingSettings(env: NodeJS.ProcessEnv): TracingSettings | undefined {
  const url = otlpTracesUrl(env);
  if (!url) return undefined;
  return { url, headers: otlpHeaders(env), serviceName: env.OTEL_SERVICE_NAME?.trim() || undefined };
}

/** Turns tracing on as `settings` say (off when undefined); `serviceName` is used when OTEL_SERVICE_NAME was not set. */
export function startConfiguredTracing(settings: TracingSettings | undefined, serviceName?: string): Tracing | undefined {
  if (!settings) return undefined;
  // The URL and headers are passed explicitly (the exporter itself would read process.env); timeouts and the rest still come from the standard variables.
  return startTracing(new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.url, headers: settings.headers })), settings.serviceName ?? serviceName);
}

/** `tracingSettings` then `startConfiguredTracing`, for callers holding an environment (tests). */
export function tracingFromEnv(env: NodeJS.ProcessEnv, serviceName?: string): Tracing | undefined {
  return startConfiguredTracing(tracingSettings(env), serviceName);
}

/** The traces URL as the OTLP spec derives it: the signal-specific variable as is, or the base endpoint plus `/v1/traces`. */
export function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/** `OTEL_EXPORTER_OTLP_HEADERS` / `OTEL_EXPORTER_OTLP_TRACES_HEADERS`: `key=value` pairs, comma-separated, values URL-encoded. */
function otlpHeaders(env: NodeJS.ProcessEnv): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const raw of [env.OTEL_EXPORTER_OTLP_HEADERS, env.OTEL_EXPORTER_OTLP_TRACES_HEADERS]) {
    for (const pair of (raw ?? '').split(',')) {
      const at = pair.indexOf('=');
      if (at > 0) headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
    }
  }
  return headers;
}
