/**
 * Version 3 of the checkpoint (release 1ce8ac6 and before): a decision's `decision` and `via` were free
 * strings, and the scope policy's "ask a person" was spelled `approve` (`scopes.write: "approve"`).
 * Fixture: test/fixtures/run-state-v3.json. Only the fields version 4 changed are typed here; the rest
 * has the version-4 shape and is checked by RunStateSchema after the migration.
 */
export interface RunStateV3 {
  schemaVersion: 3;
  input: { toolApproval?: ToolApprovalV3 } & Record<string, unknown>;
  agent: { approval?: ToolApprovalV3 } & Record<string, unknown>;
  decisions: { callId: string; tool: string; decision: string; reason?: string; approver?: string; verified?: boolean; decidedAt: string; via: string }[];
  [field: string]: unknown;
}

interface ToolApprovalV3 {
  scopes?: Partial<Record<'read' | 'write' | 'execute', string>>;
  [field: string]: unknown;
}

/** Version 3's scope word for "ask a person"; version 4 says `ask`. */
const scopesV3ToV4 = (approval: ToolApprovalV3 | undefined): ToolApprovalV3 | undefined => {
  if (!approval?.scopes) return approval;
  const scopes = Object.fromEntries(Object.entries(approval.scopes).map(([scope, action]) => [scope, action === 'approve' ? 'ask' : action]));
  return { ...approval, scopes };
};

/**
 * Version 3 to 4. The scope policy's `approve` becomes `ask`. Decisions keep their values: every kind
 * and channel a version-3 machine wrote is in version 4's enums (`guardrail_reject` was written but not
 * listed then; it is now), so a decision outside them fails the schema check with its path.
 */
export function v3ToV4(v3: RunStateV3): unknown {
  return {
    ...v3,
    schemaVersion: 4,
    input: { ...v3.input, ...(v3.input.toolApproval ? { toolApproval: scopesV3ToV4(v3.input.toolApproval) } : {}) },
    agent: { ...v3.agent, ...(v3.agent.approval ? { approval: scopesV3ToV4(v3.agent.approval) } : {}) },
  };
}
