// Real runs to prove, and the copies the proof tests tamper with: histories exported with the real
// Temporal CLI (`temporal workflow show --output json`, one file per link) and audit logs written by
// the real worker, edited here the way an insider would.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { createApproverKey, signWithApproverKey } from '../../../../src/client/approver-keys';
import { describeRunIdentity } from '../../../../src/client/sign-messages';
import { approvalSignal, decideApprovalUpdate, statusQuery } from '../../../../src/contract/agent-run-api';
import type { ApprovalDecision } from '../../../../src/contract/approval-decision';
import { argumentsHash, decisionMessage, signedText } from '../../../../src/core/approvals/signatures/signed-message';
import { writeHead } from '../../../../src/runtime/audit/audit-head';
import { GENESIS_HASH, hashLine } from '../../../../src/runtime/audit/audit-record';
import { ensureTemporalCli } from '../../../../scripts/install-temporal.js';
import { waitFor, waitForApprovals } from '../../../support/agent-run-harness';
import { temporalAddress } from '../../../support/temporal';

const run = promisify(execFile);

/** A person with a key: `registry` is the AGENT_APPROVERS_FILE (and `--keys`) that holds her public key. */
export interface Approver {
  name: string;
  keysDir: string;
  registry: string;
}

export async function createApprover(dir: string, name: string): Promise<Approver> {
  const keysDir = path.join(dir, 'keys');
  const registry = path.join(dir, 'approvers.json');
  await writeFile(registry, JSON.stringify(createApproverKey(name, { dir: keysDir }).registryEntry));
  return { name, keysDir, registry };
}

/**
 * Sends the decision by update. A run whose history filled up while it parked continues as new with
 * the call still pending; an update that reaches the new link before it has installed its handlers
 * (it awaits a local activity first) is rejected with "No registered handler". The status query may
 * still have been answered by the old link, so wait for the new one to park and send it again.
 */
async function decideByUpdate(handle: WorkflowHandle, decision: ApprovalDecision): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await handle.executeUpdate(decideApprovalUpdate, { args: [decision] });
      return;
    } catch (error) {
      if (attempt >= 5 || !/No registered handler for update/.test(String((error as { cause?: unknown }).cause ?? error))) throw error;
      await waitForApprovals(handle);
    }
  }
}

/**
 * Waits for `callId` to park, then approves it as `by` would with agentctl: signed over the run, the
 * call and any edit when `by` has a key, unsigned when it is a bare name. By update, or by signal.
 */
export async function approve(
  handle: WorkflowHandle,
  callId: string,
  asked: unknown,
  by: Approver | string,
  options: { edit?: Record<string, unknown>; always?: boolean; signal?: boolean } = {},
): Promise<void> {
  await waitForApprovals(handle);
  const approver = typeof by === 'string' ? by : by.name;
  const fields = { callId, decision: options.always ? ('approve_always' as const) : ('approve' as const), approver, ...(options.edit ? { arguments: options.edit } : {}) };
  let decision: ApprovalDecision = fields;
  if (typeof by !== 'string') {
    const expiresAt = new Date(Date.now() + 600_000).toISOString();
    const text = signedText(decisionMessage(await describeRunIdentity(handle), asked, { ...fields, expiresAt }));
    // The arguments the person saw: a signed decision must name them (issue 32).
    decision = { ...fields, expiresAt, signature: signWithApproverKey(by.name, text, { dir: by.keysDir })!, argumentsHash: argumentsHash(asked) };
  }
  if (!options.signal) {
    await decideByUpdate(handle, decision);
    return;
  }
  await handle.signal(approvalSignal, decision);
  await waitFor(async () => ((await handle.query(statusQuery)).pendingApprovals.some((p) => p.callId === callId) ? undefined : true), `${callId} to be decided`);
}

/** Every link of a run, oldest first, each exported by the Temporal CLI to `<dir>/<workflowId>-<n>.json`. */
export async function exportHistories(client: Client, workflowId: string, dir: string): Promise<string[]> {
  const runIds: string[] = [];
  let runId: string | undefined = (await client.workflow.getHandle(workflowId).describe()).runId;
  while (runId) {
    runIds.unshift(runId);
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    runId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  const files: string[] = [];
  for (const [i, id] of runIds.entries()) {
    const { stdout } = await run(ensureTemporalCli(), ['workflow', 'show', '--address', temporalAddress(), '--workflow-id', workflowId, '--run-id', id, '--output', 'json'], { maxBuffer: 64 * 1024 * 1024 });
    const file = path.join(dir, `${workflowId}-${i + 1}.json`);
    await writeFile(file, stdout);
    files.push(file);
  }
  return files;
}

// ---- Exported histories, as JSON: payloads are `{ metadata: { encoding: base64 }, data: base64 }`.

export type JsonEvent = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
export const payloadValue = (payload: { data?: string }) => JSON.parse(Buffer.from(payload.data ?? '', 'base64').toString('utf8'));
export const jsonPayload = (value: unknown) => ({ metadata: { encoding: b64('json/plain') }, data: b64(JSON.stringify(value)) });

/** Copies an exported history to `out`, letting `edit` change its events first. */
export async function editHistory(file: string, out: string, edit: (events: JsonEvent[]) => void): Promise<string> {
  const history = JSON.parse(await readFile(file, 'utf8'));
  edit(history.events);
  await writeFile(out, JSON.stringify(history));
  return out;
}

/** The `runTool` activity scheduled for `callId`. */
export function toolActivity(events: JsonEvent[], callId: string): JsonEvent {
  const found = events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool' && payloadValue(e.activityTaskScheduledEventAttributes.input.payloads[0]).callId === callId);
  if (!found) throw new Error(`no runTool activity for ${callId}`);
  return found;
}

/** The accepted `decideApproval` update for `callId`, and its payload. */
export function decisionUpdate(events: JsonEvent[], callId: string): { payload: { data?: string }; value: ApprovalDecision } {
  for (const e of events) {
    const request = e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input;
    const payload = request?.args?.payloads?.[0];
    if (request?.name === 'decideApproval' && payloadValue(payload).callId === callId) return { payload, value: payloadValue(payload) };
  }
  throw new Error(`no decideApproval update for ${callId}`);
}

// ---- Audit logs.

/**
 * Copies `log` to `out` with `edit` applied to its lines (parsed). `rechain` renumbers the lines and
 * recomputes every hash and both heads, as an insider who can write the log's folder and the head
 * folder would: the chain then verifies, and only the proof's own checks can tell.
 */
export async function editLog(
  log: string,
  out: string,
  headDir: string,
  edit: (lines: Record<string, unknown>[]) => Record<string, unknown>[] = (lines) => lines,
  options: { rechain?: boolean } = {},
): Promise<string> {
  const lines = edit((await readFile(log, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>));
  let prev = GENESIS_HASH;
  const texts = lines.map((line, i) => {
    const record = options.rechain ? { ...line, seq: i + 1, prev } : line;
    const text = JSON.stringify(record);
    prev = hashLine(text);
    return text;
  });
  await writeFile(out, `${texts.join('\n')}\n`);
  // Without `rechain`, the heads stay the original's, as if the log had been edited in place.
  const head = options.rechain ? { seq: lines.length, hash: prev } : JSON.parse(await readFile(`${log}.head`, 'utf8'));
  await writeHead(out, { seq: head.seq, hash: head.hash }, headDir);
  return out;
}
