// The OpenTelemetry SDK side of tracing: the tracer provider, the OTLP exporter and Temporal's
// interceptors. Those packages are optional peer dependencies, so they are required when tracing
// starts, never at import: a worker that does not trace runs without them.
import { trace } from '@opentelemetry/api';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type * as TraceBase from '@opentelemetry/sdk-trace-base';
import type * as TraceNode from '@opentelemetry/sdk-trace-node';
import type * as TemporalOtel from '@temporalio/interceptors-opentelemetry';
import { requireInstalled, requireOptional } from '../optional-dependency';
import { TRACER_NAME, type Tracing, type TracingSettings } from './tracing-types';

/**
 * The packages tracing loads. `@temporalio/interceptors-opentelemetry` must be the version of the
 * project's other `@temporalio/*` packages.
 */
export const TRACING_PACKAGES = [
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-trace-node',
  '@temporalio/interceptors-opentelemetry',
] as const;

const FEATURE = 'Tracing (OTEL_EXPORTER_OTLP_ENDPOINT is set)';

/** The SDK's modules, or `MissingDependencyError` naming every one that is not installed. */
function sdk() {
  requireInstalled(FEATURE, TRACING_PACKAGES);
  return {
    otlpHttp: requireOptional<typeof OtlpHttp>('@opentelemetry/exporter-trace-otlp-http', FEATURE),
    resources: requireOptional<typeof Resources>('@opentelemetry/resources', FEATURE),
    traceBase: requireOptional<typeof TraceBase>('@opentelemetry/sdk-trace-base', FEATURE),
    traceNode: requireOptional<typeof TraceNode>('@opentelemetry/sdk-trace-node', FEATURE),
    temporal: requireOptional<typeof TemporalOtel>('@temporalio/interceptors-opentelemetry', FEATURE),
  };
}

/** The workflow interceptor modules the plugin adds; prebuilt bundles need them (`workflowInterceptorModules`). */
export function tracingWorkflowModules(): string[] {
  requireInstalled(FEATURE, ['@temporalio/interceptors-opentelemetry']);
  return [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];
}

let registered: Tracing | undefined;

/**
 * Turns tracing on with `spanProcessor` (tests pass an in-memory exporter's). Once per process:
 * OpenTelemetry has one global provider, so later calls get the first one back.
 */
export function startTracing(spanProcessor: TraceBase.SpanProcessor, serviceName = 'durable-agent-worker'): Tracing {
  if (registered) return registered;
  const { resources, traceNode, temporal } = sdk();
  const resource = new resources.Resource({ 'service.name': serviceName });
  const provider = new traceNode.NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  const tracer = trace.getTracer(TRACER_NAME);
  registered = {
    plugin: new temporal.OpenTelemetryPlugin({ resource, spanProcessor, tracer }),
    tracer,
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
  return registered;
}

/** Tracing that exports OTLP over HTTP in batches, as `settings` say. */
export function startOtlpTracing(settings: TracingSettings, serviceName?: string): Tracing {
  const { otlpHttp, traceBase } = sdk();
  // The URL and headers are passed explicitly (the exporter itself would read process.env); timeouts and the rest still come from the standard variables.
  const exporter = new otlpHttp.OTLPTraceExporter({ url: settings.url, headers: settings.headers });
  return startTracing(new traceBase.BatchSpanProcessor(exporter), settings.serviceName ?? serviceName);
}
