// The other team's side of the Nexus tool test: a workflow in the handler namespace that the
// endpoint's operation starts. It says where it ran, so the test can tell it was not the caller's.
import { workflowInfo } from '@temporalio/workflow';

export interface ForecastInput {
  city: string;
}

export async function forecastWorkflow(input: ForecastInput): Promise<{ forecast: string; namespace: string }> {
  return { forecast: `sunny in ${input.city}`, namespace: workflowInfo().namespace };
}
