/** The workflow bundle's entry: every workflow type the worker registers. */
export { agentRun } from './agent-run';
export { approvalPreferences } from './approval-preferences';
export { agentCatalog } from './agent-catalog';
