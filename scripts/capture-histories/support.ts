// What every capture scenario shares: the context it runs in and the waits it uses.
import type { Client, WorkflowHandle } from '@temporalio/client';
import { statusQuery } from '../../src/contract/agent-run-api';
import { reply, toolCall, type FakeAnthropic } from '../../test/support/fake-anthropic';

export interface ScenarioContext {
  client: Client;
  taskQueue: string;
  /** A unique workflow id for the scenario's main run (`fixture-<scenario>-<time>`). */
  id: string;
  /** Writes another workflow's history beside the main one, as `<scenario>-<suffix>.json`. */
  save(suffix: string, handle: WorkflowHandle): Promise<void>;
}

/** Runs one scenario to the point worth keeping and returns the run whose history is the fixture. */
export type Scenario = (ctx: ScenarioContext) => Promise<WorkflowHandle>;

/** A group of scenarios with the fake model's scripts they need (registered before any runs). */
export interface ScenarioGroup {
  scripts(fake: FakeAnthropic): void;
  scenarios: Record<string, Scenario>;
}

export async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const phase = (handle: WorkflowHandle, wanted: string) =>
  until(async () => ((await handle.query(statusQuery)).phase === wanted ? true : undefined), `${handle.workflowId} to reach ${wanted}`);

/** The first pending approval's call id, once the run has parked on one. */
export async function pendingCall(handle: WorkflowHandle): Promise<string> {
  await phase(handle, 'waiting_approval');
  return (await handle.query(statusQuery)).pendingApprovals[0]!.callId;
}

export const complete = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));
