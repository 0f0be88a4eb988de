import type { Tracer } from '@opentelemetry/api';
import type { ClientPlugin } from '@temporalio/client';
import type { BundlerPlugin, WorkerPlugin } from '@temporalio/worker';

/** Tracer name of this project's own spans (model and tool calls); Temporal's interceptors use theirs. */
export const TRACER_NAME = 'durable-agent';

/**
 * OpenTelemetry tracing for a worker or client process. Temporal's interceptors (as its
 * `OpenTelemetryPlugin`) carry the trace from the client that starts a run into the workflow, every
 * activity it schedules (local ones too), and the next link after continue-as-new, so a run is one
 * trace; workflow spans leave the sandbox through the plugin's `exporter` sink. Our activities add
 * GenAI spans inside theirs (see genai-spans.ts). The provider is registered globally, with the
 * async-hooks context manager, so those spans nest under the activity's span.
 *
 * Its types are Temporal's and OpenTelemetry's API (a dependency), never the SDK's (optional peers),
 * so that these declarations compile in a project that does not trace.
 */
export interface Tracing {
  /** Temporal's `OpenTelemetryPlugin`, for a worker, a client and the workflow bundler. */
  plugin: WorkerPlugin & ClientPlugin & BundlerPlugin;
  tracer: Tracer;
  /** Sends the spans buffered so far (a CLI does this before it exits). */
  forceFlush(): Promise<void>;
  /** Flushes and stops the exporter. */
  shutdown(): Promise<void>;
}

/** Where and how spans are exported: read from the standard OpenTelemetry variables once, with the other settings. */
export interface TracingSettings {
  url: string;
  headers: Record<string, string>;
  serviceName?: string;
}
