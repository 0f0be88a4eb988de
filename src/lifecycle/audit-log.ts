import { appendFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { EventDeduper } from './event-dedupe';
import type { LifecycleEvent } from './lifecycle-event';
import type { LifecycleHandler } from './lifecycle-handler';

/** One line of the audit log: one tool call, whether it ran or was refused. */
export interface AuditRecord {
  /** When the call ended or was refused (workflow time). */
  at: string;
  /** The run's workflow id. */
  run: string;
  runId: string;
  agent: string;
  iteration: number;
  tool: string;
  callId: string;
  arguments: unknown;
  decision: 'allowed_by_policy' | 'approved' | 'rejected';
  /** The raw decision: policy_allow, approve, approve_always, reject, reject_always, timed_out, policy_reject. */
  decisionDetail: string;
  approver?: string;
  reason?: string;
  outcome: 'success' | 'error' | 'not_run';
  durationMs?: number;
}

export const DEFAULT_AUDIT_LOG_PATH = '.agent-audit.log';

/** `AGENT_AUDIT_LOG`: a file path (default `./.agent-audit.log`), or `off` to disable the audit log. */
export function auditLogPathFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.AGENT_AUDIT_LOG?.trim();
  if (configured === 'off') return undefined;
  return path.resolve(configured || DEFAULT_AUDIT_LOG_PATH);
}

const REFUSALS = new Set(['reject', 'reject_always', 'timed_out', 'policy_reject']);

function decisionOf(detail: string): AuditRecord['decision'] {
  if (detail === 'policy_allow') return 'allowed_by_policy';
  return REFUSALS.has(detail) ? 'rejected' : 'approved';
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Appends one JSON line per tool call to a file: the run, the tool and its arguments, who or what
 * allowed it, and how it ended. A call that ran is written when it ends (`toolEnded`, which carries
 * its approval); a refused call when it is refused (`approvalDecided`). Lines are written in the
 * order events arrive, and repeated events (same `key`) are dropped.
 */
export class AuditLog implements LifecycleHandler {
  private readonly dedupe = new EventDeduper();
  /** Arguments of parked calls, for the line written if a person rejects them. */
  private readonly parked = new Map<string, unknown>();
  private queue: Promise<void> = Promise.resolve();
  private readonly write: (line: string) => Promise<void>;

  constructor(options: { file: string } | { write: (line: string) => Promise<void> | void }) {
    if ('file' in options) {
      const file = options.file;
      let ready: Promise<unknown> | undefined;
      this.write = async (line) => {
        ready ??= mkdir(path.dirname(file), { recursive: true });
        await ready;
        await appendFile(file, line, 'utf8');
      };
    } else {
      const write = options.write;
      this.write = async (line) => write(line);
    }
  }

  handle(event: LifecycleEvent): void {
    if (!this.dedupe.firstTime(event.key)) return;
    const d = event.data;
    const callKey = `${event.workflowId}/${String(d.callId)}`;
    if (event.name === 'approvalRequested') {
      this.parked.set(callKey, d.input);
      if (this.parked.size > 10_000) this.parked.delete(this.parked.keys().next().value as string);
      return;
    }
    if (event.name === 'approvalDecided' && REFUSALS.has(String(d.decision))) {
      const args = 'arguments' in d ? d.arguments : this.parked.get(callKey);
      this.parked.delete(callKey);
      this.append(event, { arguments: args, detail: String(d.decision), approver: str(d.approver), reason: str(d.reason), outcome: 'not_run' });
      return;
    }
    if (event.name === 'toolEnded') {
      this.parked.delete(callKey);
      const approval = (d.approval ?? {}) as { decision?: string; approver?: string };
      this.append(event, {
        arguments: d.arguments,
        detail: approval.decision ?? 'policy_allow',
        approver: approval.approver,
        outcome: d.success === true ? 'success' : 'error',
        durationMs: typeof d.durationMs === 'number' ? d.durationMs : undefined,
      });
    }
  }

  /** Resolves when every line handed over so far is written; call before the process exits. */
  flush(): Promise<void> {
    return this.queue;
  }

  private append(
    event: LifecycleEvent,
    call: { arguments: unknown; detail: string; approver?: string; reason?: string; outcome: AuditRecord['outcome']; durationMs?: number },
  ): void {
    const record: AuditRecord = {
      at: event.at,
      run: event.workflowId,
      runId: event.runId,
      agent: event.agent,
      iteration: event.iteration,
      tool: String(event.data.tool),
      callId: String(event.data.callId),
      arguments: call.arguments,
      decision: decisionOf(call.detail),
      decisionDetail: call.detail,
      ...(call.approver ? { approver: call.approver } : {}),
      ...(call.reason ? { reason: call.reason } : {}),
      outcome: call.outcome,
      ...(call.durationMs === undefined ? {} : { durationMs: call.durationMs }),
    };
    const line = `${JSON.stringify(record)}\n`;
    // Chained, so lines keep the order of the events even though each append is asynchronous.
    this.queue = this.queue
      .then(() => this.write(line))
      .catch((error: unknown) => console.error(`audit log: could not write a record for ${record.run}/${record.callId}:`, error));
  }
}
