import { CancellationScope, createNexusServiceClient, isCancellation, patched } from '@temporalio/workflow';
import { NexusOperationFailure } from '@temporalio/common';
import { z } from 'zod';
import { NexusTargetsSchema, type NexusTarget, type NexusTargets } from '../contract/nexus-tool';
import { ToolResult } from '../contract/tool-result';
import { callSummary } from '../core/machine/call-records';
import type { ToolRun } from '../core/machine/next-step';
import type { RunEvent } from '../core/machine/run-events';
import { Patches } from './compat/patches';

/**
 * The agent's Nexus tools, by name (issue 36). Learned from the worker's answers that open a link
 * (`resolveAgent` for a new run or a handoff, `loadPreferences` for a next link), which are in the
 * history, so a replay learns the same. Not part of the checkpoint: each link asks again. Module
 * state is this execution's own (the SDK gives every workflow its own copy of each module).
 */
let targets: NexusTargets = {};

const WorkerAnswerSchema = z.object({ nexusTools: NexusTargetsSchema.optional() });

/** Takes the Nexus tools from a worker's answer; an answer without any (every agent without Nexus tools, older workers) means none. */
export function learnNexusTools(answer: unknown): void {
  const parsed = WorkerAnswerSchema.safeParse(answer);
  targets = (parsed.success ? parsed.data.nexusTools : undefined) ?? {};
}

/** Where a call of this tool goes, when it is one of the agent's Nexus tools. */
export function nexusTargetOf(tool: string): NexusTarget | undefined {
  return Object.hasOwn(targets, tool) ? targets[tool] : undefined;
}

const finished = (call: ToolRun, result: ToolResult, started: number, endsRun: boolean): RunEvent => ({
  type: 'tool_finished',
  callId: call.id,
  result,
  durationMs: Date.now() - started,
  ...(endsRun ? {} : { legacy: true }),
});

/** The operation's result as the model reads it: text as it is, anything else as JSON. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  return output === undefined ? '(the operation returned nothing)' : JSON.stringify(output);
}

/** What went wrong, from the Nexus failure's cause (the handler's own error) when there is one. */
function failureText(error: unknown): string {
  if (error instanceof NexusOperationFailure) return error.cause?.message ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs one allowed call of a Nexus tool as a Nexus operation, from the workflow: the server holds it
 * (its retries, its result) and a cancel of the run cancels it. The operation's result is the call's
 * result; a failed, timed-out or elsewhere-cancelled operation is an error result the model reads,
 * never a failure of the run. Executions from before the Nexus tools (patch `nexusTools`) never had
 * one, but a call there is refused rather than started.
 */
export async function runNexusToolStep(call: ToolRun, target: NexusTarget, endsRun: boolean): Promise<RunEvent> {
  const started = Date.now();
  const where = `Nexus operation ${target.service}/${target.operation} on endpoint ${target.endpoint}`;
  if (!patched(Patches.nexusTools)) {
    return finished(call, ToolResult.error(`${call.name} did not run: this run started on a release without Nexus tools (${where}).`), started, endsRun);
  }
  const client = createNexusServiceClient({
    endpoint: target.endpoint,
    // The service as the client wants it, built from names: the agent's definition is data, not code.
    service: { name: target.service, operations: { [target.operation]: { name: target.operation } } } as never,
  });
  try {
    const output: unknown = await client.executeOperation(target.operation as never, call.input as never, {
      summary: callSummary(call.name, call.input),
      ...(target.timeoutSeconds ? { scheduleToCloseTimeout: `${target.timeoutSeconds} seconds` } : {}),
    });
    return finished(call, ToolResult.success(outputText(output)), started, endsRun);
  } catch (error) {
    // This run's own cancel ends it; an operation cancelled elsewhere is only this call's result.
    if (isCancellation(error) && CancellationScope.current().consideredCancelled) throw error;
    return finished(call, ToolResult.error(`${call.name} failed (${where}): ${failureText(error)}`), started, endsRun);
  }
}
