import { z } from 'zod';
import { TokenUsageSchema, ToolCallRecordSchema } from '../../../contract/run-records';
import { LifecycleEventSchema } from '../../../contract/lifecycle-event';

/**
 * The telemetry slice: what the status query, followers and lifecycle events report, and no rule of
 * the machine decides on. `usage` is added to by on-model, on-compacted and on-team; `recentToolCalls`
 * by call-records and server-tools; `events` by the transition context's `emit`; `lastError` and
 * `lastReplyText` by on-model; `warnings` by on-decision and transition.ts.
 */
export const TelemetrySliceSchema = z.object({
  usage: TokenUsageSchema,
  recentToolCalls: z.array(ToolCallRecordSchema),
  events: z.array(LifecycleEventSchema),
  lastError: z.string().optional(),
  /** Problems the run went on after (a choice that could not be saved, ...), newest last. */
  warnings: z.array(z.string()).default([]),
  /**
   * The text of the latest model reply that had any (its last 4,000 characters, `chars` in all), with
   * its iteration: a live follower prints from it the end no heartbeat carried.
   */
  lastReplyText: z.object({ iteration: z.number().int(), text: z.string(), chars: z.number().int() }).optional(),
});
export type TelemetrySlice = z.infer<typeof TelemetrySliceSchema>;
