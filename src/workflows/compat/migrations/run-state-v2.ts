import type { ConversationMessage, TokenUsage, ToolResultBlock } from '../../../contract/messages';
import type { PreferenceRule } from '../../../core/approvals/preference-rules';
import type { ToolScope } from '../../../contract/tool-scope';
import type { RunState } from '../../../core/machine/run-state';
import type { CallVerdictV5, TurnCallV5 } from './run-state-v5';

/**
 * Version 2 of the checkpoint (release 2775a39): verdicts and results of the current turn in two maps,
 * pending approvals in a list of their own, tool-wide preferences, and agent tools as bare scopes.
 * Fixtures: test/fixtures/run-state-v2.json and run-state-v2-parked.json.
 */
export interface RunStateV2 {
  schemaVersion: 2;
  workflowId: string;
  input: { agent: string; task: string; user: string; maxIterations: number; toolApproval?: unknown; approvalTimeoutSeconds: number; historyBudget: { maxEvents: number; maxBytes: number } };
  agent: { name: string; description: string; modelTier: string; maxIterations: number; tools: Record<string, ToolScope>; approval?: unknown; context: unknown };
  phase: string;
  iteration: number;
  messages: ConversationMessage[];
  conversation: { key: string; generation: number; syncedCount: number; tag?: string };
  usage: TokenUsage;
  tasks: unknown[];
  savedSummaries: unknown[];
  conversationSummary?: string;
  compactions: number;
  recentToolCalls: unknown[];
  pendingApprovals: { callId: string; tool: string; requestedAt: string; reason: string }[];
  decisions: unknown[];
  ignored: unknown[];
  pendingQuestion?: unknown;
  preferences: { alwaysApproved: string[]; alwaysRejected: string[] };
  completion?: unknown;
  events: unknown[];
  chain: { link: number; resumedFrom?: string };
  startedAt: string;
  lastError?: string;
  lastPrompt?: { chars: number; tokens: number };
  turn?: {
    iteration: number;
    calls: { id: string; name: string; input: unknown }[];
    contextText?: string;
    verdicts: Record<string, { kind: 'run' } | { kind: 'control' } | { kind: 'pending' } | { kind: 'reject'; reason: string }>;
    results: Record<string, ToolResultBlock>;
  };
  unsavedPreferences: { tool: string; preference: string; by?: string; at?: string; fromWorkflowId?: string }[];
  choicesThisRun?: { tool: string; preference: string; by?: string; at?: string; fromWorkflowId?: string }[];
}

/** Tools of the built-in set whose calls are safe to repeat although they are not read-only. */
const IDEMPOTENT_WRITERS = new Set(['write_file']);
/** Built-in tools whose calls name what they touch, for scoped choices. */
const SUBJECTS: Record<string, string> = { shell: 'command', read_file: 'path', write_file: 'path', list_files: 'path', search_files: 'path' };

/** A version-2 choice was tool-wide; so is the rule it becomes. */
function toolWide(c: { tool: string; preference: string; by?: string; at?: string; fromWorkflowId?: string }): PreferenceRule[] {
  if (c.preference !== 'always' && c.preference !== 'never') return [];
  return [{ tool: c.tool, preference: c.preference, match: { kind: 'tool' }, by: c.by, at: c.at, fromWorkflowId: c.fromWorkflowId, migrated: true }];
}

function verdictOf(v2: RunStateV2, callId: string): CallVerdictV5 {
  const verdict = v2.turn!.verdicts[callId];
  if (!verdict) return { kind: 'new' };
  if (verdict.kind !== 'pending') return verdict;
  const pending = v2.pendingApprovals.find((p) => p.callId === callId);
  return { kind: 'pending', requestedAt: pending?.requestedAt ?? v2.startedAt, reason: pending?.reason ?? 'approval required' };
}

/** An agent as version 2 (and the first release's `resolveAgent`) described it, in the current shape. */
export function agentV2ToV3(agent: RunStateV2['agent']): unknown {
  const tools = Object.fromEntries(
    Object.entries(agent.tools).map(([name, scope]) => [name, { scope, idempotent: scope === 'read' || IDEMPOTENT_WRITERS.has(name), subjectArgument: SUBJECTS[name] }]),
  );
  return { ...agent, tools, workspace: 'shared', network: false, sandboxed: false, commandPatterns: {} };
}

/**
 * Version 2 to 3. Tools learn whether they are idempotent (read tools and write_file; everything else
 * now runs at most once, the safe reading); the turn keeps each call's verdict and result together,
 * which makes "pending" one list; preferences become rules, tool-wide as they were made.
 */
export function v2ToV3(v2: RunStateV2): unknown {
  const turn = v2.turn && {
    iteration: v2.turn.iteration,
    contextText: v2.turn.contextText,
    calls: v2.turn.calls.map((c): TurnCallV5 => ({ ...c, verdict: verdictOf(v2, c.id), result: v2.turn!.results[c.id], started: false, guarded: true, judged: true })),
  };
  const preferences = [
    ...v2.preferences.alwaysApproved.map((tool) => toolWide({ tool, preference: 'always' })),
    ...v2.preferences.alwaysRejected.map((tool) => toolWide({ tool, preference: 'never' })),
  ].flat();
  const { pendingApprovals: _pending, turn: _turn, ...rest } = v2;
  // The turn keeps the call shape of versions 3 to 5 (a verdict and flags); version 6 turns it into a stage.
  const v3: Omit<RunState, 'agent' | 'input' | 'schemaVersion' | 'turn'> & { schemaVersion: 3; agent: unknown; input: unknown; turn: unknown } = {
    ...(rest as unknown as RunState),
    schemaVersion: 3,
    input: { ...v2.input, modelRetryMaxSeconds: 300 },
    agent: agentV2ToV3(v2.agent),
    turn,
    preferences,
    choicesThisRun: (v2.choicesThisRun ?? []).flatMap(toolWide),
    unsavedPreferences: v2.unsavedPreferences.flatMap(toolWide),
    compacting: false,
    warnings: [],
  };
  return v3;
}
