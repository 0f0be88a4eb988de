// The other team's side of the Nexus tool test: a workflow in the handler namespace that the
// endpoint's operation starts. It says where it ran, so the test can tell it was not the caller's.
import { condition, workflowInfo } from '@temporalio/workflow';

export interface ForecastInput {
  city: string;
}

export async function forecastWorkflow(input: ForecastInput): Promise<{ forecast: string; namespace: string }> {
  return { forecast: `sunny in ${input.city}`, namespace: workflowInfo().namespace };
}

/** A forecast that never comes: it runs until it is cancelled (the caller's run was cancelled). */
export async function slowForecastWorkflow(_input: ForecastInput): Promise<string> {
  await condition(() => false);
  return 'never';
}
