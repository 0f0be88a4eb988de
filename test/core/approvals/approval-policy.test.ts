import { describe, expect, it } from 'vitest';
import { DEFAULT_SCOPE_POLICY, evaluatePolicy, ruleMatches as matches } from '../../../src/core/approvals/approval-policy';
import { ToolApprovalSchema, type ApprovalRule, type ToolApproval } from '../../../src/contract/approval-rules';
import type { PreferenceRule } from '../../../src/core/approvals/preference-rules';
import type { ShellAnalysis } from '../../../src/contract/shell-analysis';
import type { ToolScope } from '../../../src/contract/tool-scope';

/** Tool-wide choices, as a person makes them with --always-tool / --never-tool (or the first release did). */
const prefs = (lists: { alwaysApproved: string[]; alwaysRejected: string[] }): PreferenceRule[] => [
  ...lists.alwaysApproved.map((tool) => ({ tool, preference: 'always' as const, match: { kind: 'tool' as const } })),
  ...lists.alwaysRejected.map((tool) => ({ tool, preference: 'never' as const, match: { kind: 'tool' as const } })),
];
const none = prefs({ alwaysApproved: [], alwaysRejected: [] });
const action = (args: { tool: string; scope: ToolScope; input?: unknown; run?: ToolApproval; agent?: ToolApproval; preferences?: PreferenceRule[] }) =>
  evaluatePolicy({ input: {}, ...args }).action;
/** Whole-call matching, as for every tool that is not a shell. */
const ruleMatches = (rule: ApprovalRule, tool: string, input: unknown) => matches(rule, { tool, input }, 'allow');

describe('evaluatePolicy', () => {
  describe('defaults', () => {
    it('runs read tools and asks for write and execute tools', () => {
      expect(DEFAULT_SCOPE_POLICY).toEqual({ read: 'allow', write: 'ask', execute: 'ask' });
      expect(action({ tool: 'read_file', scope: 'read' })).toBe('allow');
      expect(action({ tool: 'list_files', scope: 'read' })).toBe('allow');
      expect(action({ tool: 'write_file', scope: 'write' })).toBe('ask');
      expect(action({ tool: 'shell', scope: 'execute' })).toBe('ask');
    });

    it('says why it decided', () => {
      expect(evaluatePolicy({ tool: 'shell', scope: 'execute', input: {} }).reason).toBe('execute tools: approve');
    });
  });

  describe('reject always wins', () => {
    const everyAllow: ToolApproval = { alwaysApproved: ['shell'], scopes: { execute: 'allow' } };

    it('a run reject beats run, agent and personal "always" and an allowing scope', () => {
      const verdict = evaluatePolicy({
        tool: 'shell',
        scope: 'execute',
        input: { command: 'ls' },
        run: { ...everyAllow, alwaysRejected: ['shell'] },
        agent: everyAllow,
        preferences: prefs({ alwaysApproved: ['shell'], alwaysRejected: [] }),
      });
      expect(verdict).toEqual({ action: 'reject', reason: 'rejected by rule "shell"' });
    });

    it('an agent reject beats the run\'s own "always" and "requires approval"', () => {
      expect(action({ tool: 'shell', scope: 'execute', run: { alwaysApproved: ['shell'], requiresApproval: ['shell'] }, agent: { alwaysRejected: ['shell'] } })).toBe('reject');
    });

    it('a person\'s "never" beats run and agent "always"', () => {
      const verdict = evaluatePolicy({
        tool: 'write_file',
        scope: 'write',
        input: {},
        run: { alwaysApproved: ['write_file'] },
        agent: { alwaysApproved: ['*'] },
        preferences: prefs({ alwaysApproved: [], alwaysRejected: ['write_file'] }),
      });
      expect(verdict).toEqual({ action: 'reject', reason: 'you chose "never" for write_file' });
    });

    it('"*" rejects every tool, read tools included', () => {
      expect(action({ tool: 'read_file', scope: 'read', run: { alwaysRejected: ['*'] } })).toBe('reject');
    });
  });

  describe('precedence below the rejects', () => {
    it('run requiresApproval beats run alwaysApproved and a personal "always"', () => {
      const run = { requiresApproval: ['write_file'], alwaysApproved: ['write_file'] };
      expect(action({ tool: 'write_file', scope: 'write', run, preferences: prefs({ alwaysApproved: ['write_file'], alwaysRejected: [] }) })).toBe('ask');
    });

    it('run alwaysApproved beats agent requiresApproval', () => {
      expect(action({ tool: 'shell', scope: 'execute', run: { alwaysApproved: ['shell'] }, agent: { requiresApproval: ['shell'] } })).toBe('allow');
    });

    it('a personal "always" beats agent requiresApproval, but not the run\'s', () => {
      const preferences = prefs({ alwaysApproved: ['shell'], alwaysRejected: [] });
      expect(evaluatePolicy({ tool: 'shell', scope: 'execute', input: {}, agent: { requiresApproval: ['shell'] }, preferences })).toEqual({
        action: 'allow',
        by: 'preference',
        reason: 'you chose "always" for shell',
        // A tool-wide "always" stored without the flags (every choice before they existed) grants no writes and no network.
        writes: false,
        network: false,
      });
      expect(action({ tool: 'shell', scope: 'execute', run: { requiresApproval: ['shell'] }, preferences })).toBe('ask');
    });

    it('agent requiresApproval beats agent alwaysApproved, and both beat the scope policy', () => {
      expect(action({ tool: 'read_file', scope: 'read', agent: { requiresApproval: ['read_file'], alwaysApproved: ['read_file'] } })).toBe('ask');
      expect(action({ tool: 'shell', scope: 'execute', agent: { alwaysApproved: ['shell'] } })).toBe('allow');
    });

    it('a personal choice is by tool name and leaves other tools to the policy', () => {
      expect(action({ tool: 'write_file', scope: 'write', preferences: prefs({ alwaysApproved: ['shell'], alwaysRejected: [] }) })).toBe('ask');
      expect(action({ tool: 'write_file', scope: 'write', preferences: none })).toBe('ask');
    });
  });

  describe('scopes', () => {
    it('run scopes override agent scopes, which override the default', () => {
      expect(action({ tool: 'shell', scope: 'execute', agent: { scopes: { execute: 'allow' } } })).toBe('allow');
      expect(action({ tool: 'shell', scope: 'execute', run: { scopes: { execute: 'reject' } }, agent: { scopes: { execute: 'allow' } } })).toBe('reject');
      expect(action({ tool: 'read_file', scope: 'read', run: { scopes: { read: 'ask' } } })).toBe('ask');
      // A scope the run leaves out falls through to the agent's, then the default.
      expect(action({ tool: 'write_file', scope: 'write', run: { scopes: { execute: 'allow' } }, agent: { scopes: { write: 'allow' } } })).toBe('allow');
    });

    it('a rule naming the tool beats a scope policy', () => {
      expect(action({ tool: 'read_file', scope: 'read', run: { requiresApproval: ['read_file'], scopes: { read: 'allow' } } })).toBe('ask');
    });
  });

  describe('argument-pattern rules', () => {
    const dangerous = { tool: 'shell', argument: 'command', argumentsMatch: 'rm -rf /' };

    it('rejects a matching shell command while other shell calls still ask', () => {
      const run = { alwaysRejected: [dangerous] };
      expect(evaluatePolicy({ tool: 'shell', scope: 'execute', input: { command: 'rm -rf / --no-preserve-root' }, run })).toEqual({
        action: 'reject',
        reason: 'rejected by rule "shell /rm -rf //"',
      });
      expect(action({ tool: 'shell', scope: 'execute', input: { command: 'ls -la' }, run })).toBe('ask');
    });

    it('matches a regular expression against one argument, or the JSON of all of them', () => {
      expect(ruleMatches({ tool: 'shell', argument: 'command', argumentsMatch: '^git (status|log)' }, 'shell', { command: 'git log -3' })).toBe(true);
      expect(ruleMatches({ tool: 'shell', argument: 'command', argumentsMatch: '^git (status|log)' }, 'shell', { command: 'git push' })).toBe(false);
      expect(ruleMatches({ tool: 'write_file', argumentsMatch: '"path":"secrets/' }, 'write_file', { path: 'secrets/key' })).toBe(true);
    });

    it('does not match a call that lacks the argument, or another tool', () => {
      expect(ruleMatches(dangerous, 'shell', { cmd: 'rm -rf /' })).toBe(false);
      expect(ruleMatches(dangerous, 'write_file', { command: 'rm -rf /' })).toBe(false);
      expect(ruleMatches({ tool: '*', argumentsMatch: 'prod' }, 'write_file', { path: 'prod.env' })).toBe(true);
    });

    it('lets a pattern approve only some calls of a tool', () => {
      const run = { alwaysApproved: [{ tool: 'write_file', argumentsMatch: '"path":"notes/' }] };
      expect(action({ tool: 'write_file', scope: 'write', input: { path: 'notes/a.md' }, run })).toBe('allow');
      expect(action({ tool: 'write_file', scope: 'write', input: { path: 'src/a.ts' }, run })).toBe('ask');
    });

    it('refuses a broken regular expression when the rules are validated, naming the rule', () => {
      const parsed = ToolApprovalSchema.safeParse({ alwaysRejected: [{ tool: 'shell', argument: 'command', argumentsMatch: 'rm (' }] });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/rule for shell: \/rm \(\/ is not a valid regular expression/);
    });

    it('matches a non-string argument through its JSON', () => {
      expect(ruleMatches({ tool: 'deploy', argument: 'target', argumentsMatch: '"env":"prod"' }, 'deploy', { target: { env: 'prod' } })).toBe(true);
    });
  });

  describe('the toolApproval input', () => {
    it('accepts the three lists with string and object rules', () => {
      const parsed = ToolApprovalSchema.parse({
        requiresApproval: ['read_file'],
        alwaysApproved: ['*'],
        alwaysRejected: [{ tool: 'shell', argument: 'command', argumentsMatch: 'rm -rf /' }],
      });
      expect(parsed.alwaysRejected).toHaveLength(1);
    });

    it('refuses an empty tool name and a scope action that does not exist', () => {
      expect(ToolApprovalSchema.safeParse({ alwaysRejected: [''] }).success).toBe(false);
      expect(ToolApprovalSchema.safeParse({ scopes: { write: 'maybe' } }).success).toBe(false);
    });
  });

  describe('writes: whether an allowed call may change the workspace', () => {
    /** A parse of plain literal commands, the way the worker's shell analysis reports them. */
    const parsed = (...commands: string[]): ShellAnalysis => ({
      understood: true,
      problems: [],
      commands: commands.map((source) => ({ words: source.split(' ').map((text) => ({ text, literal: true, glob: false })), assignments: [], source })),
      writes: [],
    });
    const shell = (command: string, approval: { run?: ToolApproval; agent?: ToolApproval; preferences?: PreferenceRule[] }) =>
      evaluatePolicy({ tool: 'shell', scope: 'execute', input: { command }, isCommand: true, analysis: parsed(...command.split(' && ')), ...approval });

    it('grants writes only through an allow rule that says "writes": true, in the run or the agent', () => {
      expect(shell('npm test', { run: { alwaysApproved: [{ tool: 'shell', command: 'npm test' }] } })).toMatchObject({ action: 'allow', writes: false });
      expect(shell('npm test', { run: { alwaysApproved: [{ tool: 'shell', command: 'npm test', writes: true }] } })).toMatchObject({ action: 'allow', writes: true });
      expect(shell('npm test', { agent: { alwaysApproved: [{ tool: 'shell', command: 'npm test', writes: true }] } })).toMatchObject({ action: 'allow', writes: true });
      // A bare tool name and a scope policy never grant writes.
      expect(evaluatePolicy({ tool: 'write_file', scope: 'write', input: {}, run: { alwaysApproved: ['write_file'] } })).toMatchObject({ action: 'allow', writes: false });
      expect(evaluatePolicy({ tool: 'write_file', scope: 'write', input: {}, run: { scopes: { write: 'allow' } } })).toMatchObject({ action: 'allow', writes: false });
      expect(evaluatePolicy({ tool: 'read_file', scope: 'read', input: {} })).toEqual({ action: 'allow', by: 'rule', reason: 'read tools: allow', writes: false, network: false });
    });

    it('grants writes to a chained command only when what allowed every part of it grants them', () => {
      const run: ToolApproval = { alwaysApproved: [{ tool: 'shell', command: 'npm test', writes: true }, { tool: 'shell', command: 'ls' }] };
      expect(shell('npm test && npm test', { run })).toMatchObject({ action: 'allow', writes: true });
      expect(shell('ls && npm test', { run })).toMatchObject({ action: 'allow', writes: false });
    });

    it('grants writes when any matching allow rule of the layer that allowed says so', () => {
      const run: ToolApproval = { alwaysApproved: [{ tool: 'shell', command: 'npm *' }, { tool: 'shell', command: 'npm test', writes: true }] };
      expect(shell('npm test', { run })).toMatchObject({ action: 'allow', writes: true });
      expect(shell('npm ls', { run })).toMatchObject({ action: 'allow', writes: false });
    });

    it('takes an "always" preference\'s stored flag; a preference stored without one grants none', () => {
      const always = (writes?: boolean): PreferenceRule[] => [
        { tool: 'shell', preference: 'always', match: { kind: 'command', pattern: { pattern: 'make', words: ['make'] } }, ...(writes === undefined ? {} : { writes }) },
      ];
      expect(shell('make', { preferences: always(true) })).toMatchObject({ action: 'allow', writes: true });
      expect(shell('make', { preferences: always(false) })).toMatchObject({ action: 'allow', writes: false });
      expect(shell('make', { preferences: always() })).toMatchObject({ action: 'allow', writes: false });
    });

    it('accepts "writes" as a boolean on allow rules, and refuses another value or a rule that asks or rejects', () => {
      expect(ToolApprovalSchema.parse({ alwaysApproved: [{ tool: 'shell', command: 'make', writes: true }] }).alwaysApproved).toEqual([{ tool: 'shell', command: 'make', writes: true }]);
      const notBoolean = ToolApprovalSchema.safeParse({ alwaysApproved: [{ tool: 'shell', command: 'make', writes: 'yes' }] });
      expect(notBoolean.error?.issues).toEqual([
        expect.objectContaining({ path: ['alwaysApproved', 0], message: 'writes: must be true or false (true lets the calls this allow rule lets through change the workspace)' }),
      ]);
      const onReject = ToolApprovalSchema.safeParse({ alwaysRejected: [{ tool: 'shell', command: 'rm', writes: true }], requiresApproval: [{ tool: 'shell', writes: false }] });
      expect(onReject.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['requiresApproval.0.writes', 'rule for shell: "writes" only applies to alwaysApproved rules; remove it here'],
        ['alwaysRejected.0.writes', 'rule for shell: "writes" only applies to alwaysApproved rules; remove it here'],
      ]);
    });
  });

  describe('network: whether an allowed call may use the network the run allows', () => {
    const parsed = (...commands: string[]): ShellAnalysis => ({
      understood: true,
      problems: [],
      commands: commands.map((source) => ({ words: source.split(' ').map((text) => ({ text, literal: true, glob: false })), assignments: [], source })),
      writes: [],
    });
    const shell = (command: string, approval: { run?: ToolApproval; agent?: ToolApproval; preferences?: PreferenceRule[] }) =>
      evaluatePolicy({ tool: 'shell', scope: 'execute', input: { command }, isCommand: true, analysis: parsed(...command.split(' && ')), ...approval });

    it('grants the network only through an allow rule that says "network": true, in the run or the agent', () => {
      expect(shell('git fetch', { run: { alwaysApproved: [{ tool: 'shell', command: 'git fetch' }] } })).toMatchObject({ action: 'allow', network: false });
      expect(shell('git fetch', { run: { alwaysApproved: [{ tool: 'shell', command: 'git fetch', network: true }] } })).toMatchObject({ action: 'allow', network: true, writes: false });
      expect(shell('git fetch', { agent: { alwaysApproved: [{ tool: 'shell', command: 'git fetch', network: true }] } })).toMatchObject({ action: 'allow', network: true });
      // A bare tool name, a scope policy and the read default never grant it.
      expect(shell('git fetch', { run: { alwaysApproved: ['shell'] } })).toMatchObject({ action: 'allow', network: false });
      expect(shell('git fetch', { run: { scopes: { execute: 'allow' } } })).toMatchObject({ action: 'allow', network: false });
    });

    it('grants it to a chained command only when what allowed every part grants it', () => {
      const run: ToolApproval = { alwaysApproved: [{ tool: 'shell', command: 'git fetch', network: true }, { tool: 'shell', command: 'git grep *' }] };
      expect(shell('git fetch && git fetch', { run })).toMatchObject({ action: 'allow', network: true });
      expect(shell('git grep x && git fetch', { run })).toMatchObject({ action: 'allow', network: false });
    });

    it('takes an "always" preference\'s stored flag; one stored without it grants none', () => {
      const always = (network?: boolean): PreferenceRule[] => [
        { tool: 'shell', preference: 'always', match: { kind: 'command', pattern: { pattern: 'make', words: ['make'] } }, ...(network === undefined ? {} : { network }) },
      ];
      expect(shell('make', { preferences: always(true) })).toMatchObject({ action: 'allow', network: true });
      expect(shell('make', { preferences: always(false) })).toMatchObject({ action: 'allow', network: false });
      expect(shell('make', { preferences: always() })).toMatchObject({ action: 'allow', network: false });
    });

    it('accepts "network" as a boolean on allow rules, and refuses another value or a rule that asks or rejects', () => {
      expect(ToolApprovalSchema.parse({ alwaysApproved: [{ tool: 'shell', command: 'git fetch', network: true }] }).alwaysApproved).toEqual([{ tool: 'shell', command: 'git fetch', network: true }]);
      const notBoolean = ToolApprovalSchema.safeParse({ alwaysApproved: [{ tool: 'shell', command: 'git fetch', network: 'yes' }] });
      expect(notBoolean.error?.issues).toEqual([
        expect.objectContaining({ path: ['alwaysApproved', 0], message: 'network: must be true or false (true lets the calls this allow rule lets through use the network, when the run allows it)' }),
      ]);
      const onReject = ToolApprovalSchema.safeParse({ alwaysRejected: [{ tool: 'shell', command: 'curl *', network: true }], requiresApproval: [{ tool: 'shell', network: false, writes: true }] });
      expect(onReject.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['requiresApproval.0.writes', 'rule for shell: "writes" only applies to alwaysApproved rules; remove it here'],
        ['requiresApproval.0.network', 'rule for shell: "network" only applies to alwaysApproved rules; remove it here'],
        ['alwaysRejected.0.network', 'rule for shell: "network" only applies to alwaysApproved rules; remove it here'],
      ]);
    });
  });

  describe('protected paths: a built-in file tool\'s write to one asks a person whatever allowed it', () => {
    const write = (path: string, approval: { run?: ToolApproval; preferences?: PreferenceRule[] } = {}) =>
      evaluatePolicy({ tool: 'write_file', scope: 'write', input: { path, content: 'x' }, ...approval });
    const writesRule: ToolApproval = { alwaysApproved: [{ tool: 'write_file', writes: true }] };

    it.each(['.gitconfig', '.git/commondir', '.git/config.worktree', 'sub/.git/objects/info/alternates', '.local/lib/python3.11/site-packages/zz.pth', 'lib/zz.pth', '.config/git/config', 'a/../.npmrc', './sitecustomize.py'])(
      '%s asks, marked as a person\'s decision only, under a rule with writes and an "always"',
      (target) => {
        const always: PreferenceRule[] = [{ tool: 'write_file', preference: 'always', match: { kind: 'tool' }, writes: true }];
        for (const verdict of [write(target), write(target, { run: writesRule }), write(target, { preferences: always })]) {
          expect(verdict).toMatchObject({ action: 'ask', personOnly: true, reason: expect.stringContaining('protected path') });
        }
      },
    );

    it('lets it through to the tool (which refuses it) while a history from before issue 30 replays', () => {
      expect(evaluatePolicy({ tool: 'write_file', scope: 'write', input: { path: '.gitconfig' }, run: writesRule, contained: false })).toMatchObject({ action: 'allow', writes: true });
    });

    it('leaves other paths, other tools and a reject alone', () => {
      expect(write('src/app.py', { run: writesRule })).toMatchObject({ action: 'allow', writes: true });
      expect(write('docs/git-notes.md', { run: writesRule })).toMatchObject({ action: 'allow' });
      expect(evaluatePolicy({ tool: 'read_file', scope: 'read', input: { path: '.git/config' } })).toMatchObject({ action: 'allow' });
      expect(write('.gitconfig', { run: { alwaysRejected: ['write_file'] } })).toMatchObject({ action: 'reject' });
    });
  });
});
