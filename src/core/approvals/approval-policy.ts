import { ApprovalRuleSchema, ScopeActionSchema, ScopePolicySchema, ToolApprovalSchema, type ApprovalRule, type ScopeAction, type ScopePolicy, type ToolApproval } from '../../contract/approval-rules';
import { ToolScopeSchema, type ToolScope } from '../../contract/tool-scope';
import { preferenceMatches, type PreferenceRule } from './preference-rules';
import type { CommandPattern, ShellAnalysis, SimpleCommand } from '../../contract/shell-analysis';
import { commandMatches } from './shell/match-command';
import { protectedWriteOf } from './protected-paths';

/** Read tools run; tools that write or execute ask a person. */
export const DEFAULT_SCOPE_POLICY: Required<ScopePolicy> = { read: 'allow', write: 'ask', execute: 'ask' };

/**
 * How a scope's action reads in a call's reason ("write tools: approve"). The reason is shown in the
 * status and by the CLI, which other clients read, so "ask" keeps its old word there.
 */
const SCOPE_REASON_WORD: Record<ScopeAction, string> = { allow: 'allow', ask: 'approve', reject: 'reject' };

/**
 * What the policy decided. For `allow`: whether the call may change the workspace, and whether it may
 * use the network, each only when every rule or "always" that let it through grants it (`"writes":
 * true`, `"network": true`); defaults never do. For `ask`: `personOnly` when only a person may decide,
 * whatever the mode (a write to a protected path): no mode turns it into an allow.
 */
export type PolicyVerdict =
  /** `by`: what let the call run unasked: a rule (the run's, the agent's, or a scope policy), a person's remembered "always", or the permission mode. */
  | { action: 'allow'; reason: string; writes: boolean; network: boolean; by?: 'rule' | 'preference' | 'mode' }
  | { action: 'ask'; reason: string; personOnly?: boolean }
  | { action: 'reject'; reason: string };

/** What an allow rule may grant beyond reading. */
type Grant = 'writes' | 'network';

/** Whether an allow rule grants writes or the network; a bare tool name never does. */
const grants = (rule: ApprovalRule, grant: Grant): boolean => typeof rule === 'object' && rule[grant] === true;

/** What let a call run unasked (see PolicyVerdict). */
export type AllowedBy = NonNullable<Extract<PolicyVerdict, { action: 'allow' }>['by']>;

export { ToolScopeSchema, type ToolScope };
// The rule schemas are part of the run input and the agent definition, so they live in the contract.
export { ApprovalRuleSchema, ScopeActionSchema, ScopePolicySchema, ToolApprovalSchema, type ApprovalRule, type ScopeAction, type ScopePolicy, type ToolApproval };

/** Every `command` pattern in a set of rules, for the worker to split into words. */
export function commandPatternsOf(...approvals: (ToolApproval | undefined)[]): string[] {
  const rules = approvals.flatMap((a) => [...(a?.requiresApproval ?? []), ...(a?.alwaysApproved ?? []), ...(a?.alwaysRejected ?? [])]);
  return [...new Set(rules.flatMap((r) => (typeof r === 'object' && r.command !== undefined ? [r.command] : [])))];
}

/** What one rule is compared with: the call, and for `shell` one of its simple commands. */
interface Subject {
  tool: string;
  input: unknown;
  command?: SimpleCommand;
  redirects?: readonly string[];
}

const argumentText = (input: unknown, name: string): string | undefined => {
  const value = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[name] : undefined;
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
};

export function ruleMatches(
  rule: ApprovalRule,
  subject: Subject,
  mode: 'allow' | 'reject',
  patterns: Readonly<Record<string, CommandPattern>> = {},
): boolean {
  if (typeof rule === 'string') return rule === '*' || rule === subject.tool;
  if (rule.tool !== '*' && rule.tool !== subject.tool) return false;
  if (rule.command !== undefined) {
    if (!subject.command) return false;
    const pattern = patterns[rule.command] ?? { pattern: rule.command, words: rule.command.split(/\s+/).filter(Boolean) };
    return commandMatches(pattern, subject.command, mode);
  }
  if (rule.argumentsMatch === undefined) return true;
  const regex = new RegExp(rule.argumentsMatch);
  // For a shell command, an allow regex must match each simple command on its own; a reject regex
  // may also match the whole text, which catches more.
  if (subject.command && (rule.argument === undefined || rule.argument === 'command')) {
    if (regex.test(subject.command.source)) return true;
    if (mode === 'allow') return false;
  }
  const text = rule.argument !== undefined ? argumentText(subject.input, rule.argument) : JSON.stringify(subject.input ?? {});
  return text !== undefined && regex.test(text);
}

const describeRule = (rule: ApprovalRule): string => {
  if (typeof rule === 'string') return rule;
  if (rule.command !== undefined) return `${rule.tool}: ${rule.command}`;
  return `${rule.tool}${rule.argumentsMatch ? ` /${rule.argumentsMatch}/` : ''}`;
};

export interface PolicyInput {
  tool: string;
  scope: ToolScope;
  input: unknown;
  /** The worker's parse of a shell command; a shell call without one is treated as not understood. */
  analysis?: ShellAnalysis;
  /** True for tools whose calls are shell commands (rules compare their simple commands). */
  isCommand?: boolean;
  run?: ToolApproval;
  agent?: ToolApproval;
  preferences?: readonly PreferenceRule[];
  patterns?: Readonly<Record<string, CommandPattern>>;
  /**
   * Whether a built-in file tool's write to a protected path asks a person (default true). False only
   * while a history from before issue 30 replays (patch `contained-calls`), where such writes went on
   * to the tool, which refused them.
   */
  contained?: boolean;
}

/**
 * The layered policy for one subject (a whole call, or one simple command of a shell call).
 * First match wins:
 *  1. any reject rule (run, then agent) or the person's "never" → reject;
 *  2. run `requiresApproval` → ask; 3. run `alwaysApproved` → allow; 4. the person's "always" → allow;
 *  5. agent `requiresApproval` → ask; 6. agent `alwaysApproved` → allow;
 *  7. the scope policy (run scopes over agent scopes over the default).
 */
function evaluateSubject(args: PolicyInput, subject: Subject): PolicyVerdict {
  const { run, agent, preferences = [], patterns } = args;
  const first = (rules: ApprovalRule[] | undefined, mode: 'allow' | 'reject') => rules?.find((r) => ruleMatches(r, subject, mode, patterns));
  const prefer = (preference: 'always' | 'never') => preferences.find((p) => p.preference === preference && preferenceMatches(p, subject));
  // Any matching rule of the layer that allowed, or any matching "always", may grant writes or the network: each covers the subject.
  const granted = (rules: ApprovalRule[] | undefined, grant: Grant) => rules?.some((r) => grants(r, grant) && ruleMatches(r, subject, 'allow', patterns)) === true;
  const grantedBy = (rules: ApprovalRule[] | undefined) => ({ writes: granted(rules, 'writes'), network: granted(rules, 'network') });
  const alwaysGrants = (grant: Grant) => preferences.some((p) => p.preference === 'always' && p[grant] === true && preferenceMatches(p, subject));
  const what = subject.command ? `"${subject.command.source}": ` : '';

  const rejected = first(run?.alwaysRejected, 'reject') ?? first(agent?.alwaysRejected, 'reject');
  if (rejected !== undefined) return { action: 'reject', reason: `${what}rejected by rule "${describeRule(rejected)}"` };
  if (prefer('never')) return { action: 'reject', reason: `${what}you chose "never" for ${args.tool}` };

  const runAsks = first(run?.requiresApproval, 'reject');
  if (runAsks !== undefined) return { action: 'ask', reason: `${what}run rule "${describeRule(runAsks)}" requires approval` };
  const runAllows = first(run?.alwaysApproved, 'allow');
  if (runAllows !== undefined) return { action: 'allow', reason: `run rule "${describeRule(runAllows)}" approves it`, by: 'rule', ...grantedBy(run?.alwaysApproved) };
  if (prefer('always')) return { action: 'allow', reason: `you chose "always" for ${args.tool}`, by: 'preference', writes: alwaysGrants('writes'), network: alwaysGrants('network') };

  const agentAsks = first(agent?.requiresApproval, 'reject');
  if (agentAsks !== undefined) return { action: 'ask', reason: `${what}agent rule "${describeRule(agentAsks)}" requires approval` };
  const agentAllows = first(agent?.alwaysApproved, 'allow');
  if (agentAllows !== undefined) return { action: 'allow', reason: `agent rule "${describeRule(agentAllows)}" approves it`, by: 'rule', ...grantedBy(agent?.alwaysApproved) };

  const action = run?.scopes?.[args.scope] ?? agent?.scopes?.[args.scope] ?? DEFAULT_SCOPE_POLICY[args.scope];
  const reason = `${what}${args.scope} tools: ${SCOPE_REASON_WORD[action]}`;
  // A scope that allows (read tools by default) never grants writes or the network: no rule names what it lets through.
  return action === 'allow' ? { action, reason, writes: false, network: false, by: 'rule' } : { action, reason };
}

const SEVERITY: Record<ScopeAction, number> = { allow: 0, ask: 1, reject: 2 };

/**
 * Decides what happens to one tool call. A shell call is judged command by command: it is rejected
 * if any simple command in it is rejected, allowed only if every one is allowed, and otherwise asks.
 * A command the parser could not fully understand, or one that writes outside the workspace, is
 * never allowed without a person. A reject always wins, so no "always" can run what someone forbade.
 */
export function evaluatePolicy(args: PolicyInput): PolicyVerdict {
  if (!args.isCommand) return withProtectedWrite(args, evaluateSubject(args, { tool: args.tool, input: args.input }));
  const analysis = args.analysis;
  const commands = analysis?.commands ?? [];
  const verdicts = commands.length > 0
    ? commands.map((command) => evaluateSubject(args, { tool: args.tool, input: args.input, command, redirects: analysis?.writes.map((w) => w.target) }))
    : [evaluateSubject(args, { tool: args.tool, input: args.input })];
  // Reject rules also see the whole command text (a regex over it catches what the parse may split).
  const whole = evaluateSubject(args, { tool: args.tool, input: args.input });
  if (whole.action === 'reject') verdicts.push(whole);
  const worst = verdicts.reduce((a, b) => (SEVERITY[b.action] > SEVERITY[a.action] ? b : a));
  if (worst.action === 'reject') return worst;
  if (!analysis || !analysis.understood) {
    // The person must see what the analyzer could not model, whatever else asked first.
    const why = analysis?.problems.join('; ') || 'the worker could not parse it';
    const note = `the command is not fully understood (${why}), so a person decides`;
    return { action: 'ask', reason: worst.action === 'ask' ? `${worst.reason}; ${note}` : note };
  }
  if (worst.action !== 'allow') return worst;
  // The call writes, or uses the network, only if what allowed each of its commands grants it.
  const allowed = { ...worst, writes: verdicts.every((v) => v.action === 'allow' && v.writes), network: verdicts.every((v) => v.action === 'allow' && v.network) };
  const outside = analysis.writes.filter((w) => !w.insideWorkspace);
  if (outside.length > 0) {
    return { action: 'ask', reason: `it writes outside the workspace (${outside.map((w) => w.target || '?').join(', ')}), so a person decides` };
  }
  return allowed;
}

/**
 * A built-in file tool's write to a protected path (protected-paths.ts) asks a person whatever allowed
 * it: a rule with `"writes": true`, an "always", a mode. Only a reject stands above it. The file tool
 * refuses the path too unless a person approved the call, and judges the resolved path, which the
 * policy cannot see (a link to `.git`).
 */
function withProtectedWrite(args: PolicyInput, verdict: PolicyVerdict): PolicyVerdict {
  if (verdict.action === 'reject' || args.contained === false) return verdict;
  const target = protectedWriteOf(args.tool, args.input);
  if (target === undefined) return verdict;
  return {
    action: 'ask',
    personOnly: true,
    reason: `it writes ${target}, a protected path (a file that makes other programs run code, see docs/guides/security.md), so a person decides`,
  };
}
