// The agent that calls the weather team's Nexus operations (forecast-service.ts), for the Nexus tool tests.
import type { AgentDefinitionInput } from '../../../src/contract/agent-definition';

export const forecaster = (endpoint: string): AgentDefinitionInput => ({
  name: 'forecaster',
  description: 'Asks the weather team.',
  modelTier: 'fast',
  tools: [],
  systemPrompt: 'You ask for forecasts.',
  maxIterations: 5,
  nexusTools: [
    {
      endpoint,
      service: 'weather',
      operation: 'forecast',
      description: "The weather team's forecast for a city (runs in their namespace).",
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      // A write: the default policy asks a person before it runs.
      scope: 'write',
    },
    { endpoint, service: 'weather', operation: 'fail', name: 'doomed_forecast', description: 'Always fails.', inputSchema: { type: 'object' }, scope: 'read' },
    { endpoint, service: 'weather', operation: 'slow', name: 'slow_forecast', description: 'Never answers.', inputSchema: { type: 'object' }, scope: 'read' },
  ],
});

/** The Nexus operations a run's history scheduled. */
export async function nexusOperationsOf(handle: { fetchHistory(): Promise<{ events?: { nexusOperationScheduledEventAttributes?: { operation?: string | null } | null }[] | null }> }) {
  const history = await handle.fetchHistory();
  return (history.events ?? []).flatMap((e) => (e.nexusOperationScheduledEventAttributes ? [e.nexusOperationScheduledEventAttributes.operation] : []));
}
