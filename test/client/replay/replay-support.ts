// What the replay lab's tests share: a lab opened against the shared dev server with the fake
// Messages API as the model (the same settings the recording worker had), and canary files.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { decideApprovalUpdate, statusQuery } from '../../../src/contract/agent-run-api';
import { openReplayLab, type ReplayLab, type ReplayLabOptions } from '../../../src/client/replay/replay-lab';
import { parseWorkerSettings } from '../../../src/runtime/config/worker-settings';
import { loadModelPrices } from '../../../src/runtime/model/model-prices';
import type { FakeAnthropic } from '../../support/fake-anthropic';
import { temporalAddress } from '../../support/temporal';

export type TestLabOptions = Partial<Omit<ReplayLabOptions, 'client' | 'temporal' | 'settings'>> & { env?: NodeJS.ProcessEnv };

/** A replay lab with the settings a test worker has (the fake model), built-in prices, and what the test adds. */
export function openTestLab(client: Client, fake: Pick<FakeAnthropic, 'baseUrl'>, options: TestLabOptions = {}): Promise<ReplayLab> {
  const { env, ...rest } = options;
  const settings = parseWorkerSettings({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.baseUrl, ...env });
  return openReplayLab({ client, temporal: { address: temporalAddress(), namespace: 'default', connection: { address: temporalAddress() }, dataConverter: {} }, settings, prices: loadModelPrices(undefined), pollMs: 100, ...rest });
}

/** A file's content digest and modification time: a canary is untouched when both are as before. */
export async function fingerprint(file: string): Promise<string> {
  const [content, info] = await Promise.all([readFile(file), stat(file)]);
  return `${createHash('sha256').update(content).digest('hex')}@${info.mtimeMs}`;
}

/**
 * Approves every call the run parks on (as `ana`, with a reason, so the replay has something to copy)
 * until it ends; returns how many were approved.
 */
export async function approveUntilDone(handle: WorkflowHandle): Promise<number> {
  let approved = 0;
  const ended = handle.result().then(() => true, () => true);
  for (;;) {
    const next = await Promise.race([ended, new Promise<false>((resolve) => setTimeout(() => resolve(false), 100))]);
    if (next) return approved;
    const status = await handle.query(statusQuery).catch(() => undefined);
    for (const pending of status?.pendingApprovals ?? []) {
      const outcome = await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: pending.callId, decision: 'approve', approver: 'ana', reason: 'looks right' }] }).catch(() => undefined);
      if (outcome?.applied) approved += 1;
    }
  }
}
