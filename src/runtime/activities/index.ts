import type { ActivityDeps } from './activity-deps';
import { createCallModel } from './call-model';
import { createCheckEdits } from './check-edits';
import { createCopyWorkspace } from './copy-workspace';
import { createDescribeAgents } from './describe-agents';
import { createForwardDecisions } from './forward-decisions';
import { createLoadPreferences, createSavePreference } from './preferences';
import { createCheckGuardrails, createJudgeApprovals } from './guardrails';
import { createRecordAudit } from './record-audit';
import { createReleaseConversation } from './release-conversation';
import { createResolveAgent } from './resolve-agent';
import { createRunTool } from './run-tool';
import { createSummarizeConversation } from './summarize-conversation';

/** All activities of the worker, closed over the worker's dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    resolveAgent: createResolveAgent(deps),
    callModel: createCallModel(deps),
    summarizeConversation: createSummarizeConversation(deps),
    runTool: createRunTool(deps),
    loadPreferences: createLoadPreferences(deps),
    savePreference: createSavePreference(deps),
    releaseConversation: createReleaseConversation(deps),
    copyWorkspace: createCopyWorkspace(deps),
    recordAudit: createRecordAudit(deps),
    describeAgents: createDescribeAgents(deps),
    checkGuardrails: createCheckGuardrails(deps),
    judgeApprovals: createJudgeApprovals(deps),
    checkEdits: createCheckEdits(deps),
    forwardDecisions: createForwardDecisions(),
  };
}

export type Activities = ReturnType<typeof createActivities>;
export type { ActivityDeps } from './activity-deps';
