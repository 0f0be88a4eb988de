// The fuzzer's tools are canaries: each call leaves a marker the harness counts (which run, which
// call, with which arguments, who let it run), and first looks in the audit log for the decision
// that let it run, so "a tool started before its decision was on disk" is seen by the tool itself.
import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { z } from 'zod';
import { defineTool, type Tool } from '../../../src/runtime/tools/tool-definition';
import type { ToolContext } from '../../../src/runtime/tools/tool-definition';
import { ToolResult } from '../../../src/contract/tool-result';
import { parseAuditLine, type AuditRecord } from '../../../src/runtime/audit/audit-record';

export interface Marker {
  workflowId: string;
  callId: string;
  tool: string;
  attempt: number;
  at: number;
  input: { step: number; fault: string; note?: string };
  permission: ToolContext['permission'];
  /** The person's decision line for this call that was on disk when the tool started, if any. */
  decisionOnDisk?: Pick<AuditRecord, 'decision' | 'approver' | 'via' | 'seq'>;
}

const ALLOWING = new Set(['approve', 'approve_always', 'policy_allow', 'handler_allow']);

/** Every line of every audit log in `dir` (each worker writes its own file there). */
export async function readAuditDir(dir: string): Promise<AuditRecord[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.log'));
  const records: AuditRecord[] = [];
  for (const file of files.sort()) {
    const text = await readFile(path.join(dir, file), 'utf8');
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const parsed = parseAuditLine(line);
      if (parsed.ok) records.push(parsed.record);
    }
  }
  return records;
}

/** Markers of every canary call in this process, for every schedule. */
export class CanaryLedger {
  readonly markers: Marker[] = [];
  private readonly attempts = new Map<string, number>();

  constructor(readonly auditDir: string) {}

  markersOf(workflowIds: ReadonlySet<string>): Marker[] {
    return this.markers.filter((m) => workflowIds.has(m.workflowId));
  }

  async record(tool: string, input: Marker['input'], context: ToolContext): Promise<number> {
    const key = context.idempotencyKey;
    const cut = key.lastIndexOf('/');
    const [workflowId, callId] = [key.slice(0, cut), key.slice(cut + 1)];
    const attempt = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, attempt);
    const lines = await readAuditDir(this.auditDir);
    const line = lines.find((r) => r.kind === 'decision' && r.run === workflowId && r.callId === callId && ALLOWING.has(r.decision ?? ''));
    const decisionOnDisk = line ? { decision: line.decision, approver: line.approver, via: line.via, seq: line.seq } : undefined;
    this.markers.push({ workflowId, callId, tool, attempt, at: Date.now(), input, permission: context.permission, decisionOnDisk });
    return attempt;
  }
}

const CanaryInput = z.object({ step: z.number().int(), fault: z.enum(['none', 'error', 'throw', 'hang']), note: z.string().optional() });

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** A canary: records its marker, then does what its `fault` says (a throw or a hang on the first attempt only). */
function canary(ledger: CanaryLedger, spec: { name: string; scope: 'read' | 'write'; idempotent: boolean; quick: boolean; timeoutSeconds?: number }): Tool {
  return defineTool({
    name: spec.name,
    description: `A fuzzer canary (${spec.scope}); it records that it ran.`,
    scope: spec.scope,
    idempotent: spec.idempotent,
    quick: spec.quick,
    ...(spec.timeoutSeconds ? { timeoutSeconds: spec.timeoutSeconds } : {}),
    inputSchema: CanaryInput,
    async execute(input, context) {
      const attempt = await ledger.record(spec.name, input, context);
      if (input.fault === 'throw' && attempt === 1) throw new Error(`canary ${spec.name}: scripted throw`);
      if (input.fault === 'hang' && attempt === 1) {
        await pause(((spec.timeoutSeconds ?? 10) + 1) * 1000, context.signal);
        return ToolResult.error(`canary ${spec.name}: hung past its timeout`);
      }
      if (input.fault === 'error') return ToolResult.error(`canary ${spec.name}: scripted failure`);
      return ToolResult.success(`canary ${spec.name} step ${input.step} ran${input.note ? ` (${input.note})` : ''}`);
    },
  }) as unknown as Tool;
}

/**
 * Three lanes: `canary_write` is a write tool that must not run twice (one attempt, an activity);
 * `canary_edit` a quick idempotent write tool (a local activity inside the workflow task, like
 * write_file); `canary_read` a quick read tool the policy lets run unasked.
 */
export function canaryTools(ledger: CanaryLedger): Tool[] {
  return [
    canary(ledger, { name: 'canary_write', scope: 'write', idempotent: false, quick: false, timeoutSeconds: 2 }),
    canary(ledger, { name: 'canary_edit', scope: 'write', idempotent: true, quick: true }),
    canary(ledger, { name: 'canary_read', scope: 'read', idempotent: true, quick: true }),
  ];
}

export const ONCE_TOOLS: ReadonlySet<string> = new Set(['canary_write']);
export const WRITE_TOOLS: ReadonlySet<string> = new Set(['canary_write', 'canary_edit']);
