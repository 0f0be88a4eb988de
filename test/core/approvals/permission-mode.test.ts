// The permission modes as the pure policy step sees them (issue 23, item 4).
import { describe, expect, it } from 'vitest';
import type { PolicyVerdict } from '../../../src/core/approvals/approval-policy';
import { modeLoosens, PLAN_MODE_REFUSAL, verdictUnderMode } from '../../../src/core/approvals/permission-mode';

const ask: PolicyVerdict = { action: 'ask', reason: 'write tools: approve' };
const allow: PolicyVerdict = { action: 'allow', reason: 'read tools: allow', writes: false, network: false };
const never: PolicyVerdict = { action: 'reject', reason: 'rejected by your "never" for write_file' };
const protectedWrite: PolicyVerdict = { action: 'ask', reason: 'it writes .gitconfig, a protected path', personOnly: true };
const writeTool = { name: 'write_file', scope: 'write' as const, isCommand: false };
const shellTool = { name: 'shell', scope: 'execute' as const, isCommand: true };
const readTool = { name: 'read_file', scope: 'read' as const, isCommand: false };
const mcpTool = { name: 'mcp__pay__send_payment', scope: 'write' as const, isCommand: false };
const customWriteTool = { name: 'save_record', scope: 'write' as const, isCommand: false };

describe('verdictUnderMode', () => {
  it('leaves every verdict alone in default mode', () => {
    expect(verdictUnderMode('default', ask, writeTool)).toBe(ask);
  });

  it('lets reads through in plan mode and refuses every write or command, even one a rule allows', () => {
    expect(verdictUnderMode('plan', allow, readTool)).toBe(allow);
    expect(verdictUnderMode('plan', ask, writeTool)).toEqual({ action: 'reject', reason: PLAN_MODE_REFUSAL });
    expect(verdictUnderMode('plan', { action: 'allow', reason: 'rule', writes: true, network: true }, shellTool)).toEqual({ action: 'reject', reason: PLAN_MODE_REFUSAL });
  });

  it('lets the built-in file tools write unasked in acceptEdits, without the network, and leaves commands to the policy', () => {
    expect(verdictUnderMode('acceptEdits', ask, writeTool)).toMatchObject({ action: 'allow', writes: true, network: false });
    expect(verdictUnderMode('acceptEdits', ask, shellTool)).toBe(ask);
  });

  it('parks MCP tools and every other write tool in acceptEdits: only the built-in file tools are confined to the workspace', () => {
    expect(verdictUnderMode('acceptEdits', ask, mcpTool)).toBe(ask);
    expect(verdictUnderMode('acceptEdits', ask, customWriteTool)).toBe(ask);
    // A rule that allows them by name still does.
    const ruled: PolicyVerdict = { action: 'allow', reason: 'run rule "mcp__pay__send_payment" approves it', writes: false, network: false };
    expect(verdictUnderMode('acceptEdits', ruled, mcpTool)).toBe(ruled);
  });

  it('keeps the old acceptEdits while a history from before issue 30 replays: every write tool that is not a command runs unasked', () => {
    expect(verdictUnderMode('acceptEdits', ask, mcpTool, false)).toMatchObject({ action: 'allow', writes: true });
    expect(verdictUnderMode('acceptEdits', ask, shellTool, false)).toBe(ask);
  });

  it('never lets a write to a protected path run unasked: acceptEdits keeps asking, dontAsk refuses', () => {
    expect(verdictUnderMode('acceptEdits', protectedWrite, writeTool)).toBe(protectedWrite);
    expect(verdictUnderMode('default', protectedWrite, writeTool)).toBe(protectedWrite);
    expect(verdictUnderMode('dontAsk', protectedWrite, writeTool)).toMatchObject({ action: 'reject', reason: expect.stringContaining('dontAsk mode') });
    expect(verdictUnderMode('plan', protectedWrite, writeTool)).toEqual({ action: 'reject', reason: PLAN_MODE_REFUSAL });
  });

  it('turns an ask into a refusal in dontAsk, and keeps what the policy allows', () => {
    expect(verdictUnderMode('dontAsk', ask, shellTool)).toMatchObject({ action: 'reject', reason: expect.stringContaining('dontAsk mode') });
    expect(verdictUnderMode('dontAsk', allow, readTool)).toBe(allow);
  });

  it('never loosens a reject rule or a "never", whatever the mode', () => {
    for (const mode of ['default', 'plan', 'acceptEdits', 'dontAsk'] as const) expect(verdictUnderMode(mode, never, writeTool)).toBe(never);
  });
});

describe('modeLoosens', () => {
  it('says which switches let more run unasked: to acceptEdits from any mode, to default from plan or dontAsk, to dontAsk from plan', () => {
    expect(modeLoosens('default', 'acceptEdits')).toBe(true);
    expect(modeLoosens('plan', 'acceptEdits')).toBe(true);
    expect(modeLoosens('plan', 'default')).toBe(true);
    expect(modeLoosens('dontAsk', 'default')).toBe(true);
    expect(modeLoosens('plan', 'dontAsk')).toBe(true);
    expect(modeLoosens('acceptEdits', 'default')).toBe(false);
    expect(modeLoosens('default', 'plan')).toBe(false);
    expect(modeLoosens('default', 'dontAsk')).toBe(false);
    expect(modeLoosens('dontAsk', 'plan')).toBe(false);
    expect(modeLoosens('default', 'default')).toBe(false);
  });
});
