import { startOtlpTracing } from './tracing-provider';
import type { Tracing, TracingSettings } from './tracing-types';

export { TRACER_NAME, type Tracing, type TracingSettings } from './tracing-types';

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

/**
 * Turns tracing on as `settings` say (off when undefined); `serviceName` is used when OTEL_SERVICE_NAME
 * was not set. Loads OpenTelemetry's SDK only then, and throws `MissingDependencyError` with the
 * `npm i` line when it is not installed.
 */
export function startConfiguredTracing(settings: TracingSettings | undefined, serviceName?: string): Tracing | undefined {
  if (!settings) return undefined;
  return startOtlpTracing(settings, serviceName);
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
