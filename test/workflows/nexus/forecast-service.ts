// A Nexus service in another namespace, as another team would run it: `forecast` starts a workflow
// there (the operation lasts as long as that workflow), `slow` starts one that runs until cancelled,
// `fail` refuses at once.
import * as path from 'node:path';
import { NativeConnection, Worker } from '@temporalio/worker';
import { startWorkflow, WorkflowRunOperationHandler } from '@temporalio/nexus';
import * as nexus from 'nexus-rpc';
import type { Client } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { forecastWorkflow, slowForecastWorkflow, type ForecastInput } from './forecast-workflows';
import { temporalAddress, uniqueId } from '../../support/temporal';
import { waitFor } from '../../support/agent-run-harness';

export const weatherService = nexus.service('weather', {
  forecast: nexus.operation<ForecastInput, { forecast: string; namespace: string }>(),
  fail: nexus.operation<ForecastInput, string>(),
  slow: nexus.operation<ForecastInput, string>(),
});

/** The workflow id the operation gives the run it starts: the proof a test looks up in the other namespace. */
export const forecastWorkflowId = (city: string) => `forecast-${city}`;
export const slowWorkflowId = (city: string) => `slow-${city}`;

const weatherHandler = nexus.serviceHandler(weatherService, {
  forecast: new WorkflowRunOperationHandler<ForecastInput, { forecast: string; namespace: string }>(async (ctx, input) =>
    startWorkflow(ctx, forecastWorkflow, { workflowId: forecastWorkflowId(input.city), args: [input] }),
  ),
  slow: new WorkflowRunOperationHandler<ForecastInput, string>(async (ctx, input) =>
    startWorkflow(ctx, slowForecastWorkflow, { workflowId: slowWorkflowId(input.city), args: [input] }),
  ),
  fail: async (_ctx, input) => {
    throw new nexus.OperationError('failed', `no forecast for ${input.city}`);
  },
});

export interface ForecastTeam {
  namespace: string;
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * Creates a namespace and a Nexus endpoint targeting a task queue there, and runs the handler's
 * worker on it; `stop` shuts the worker down and deletes the endpoint (the namespace stays).
 */
export async function startForecastTeam(client: Client): Promise<ForecastTeam> {
  const namespace = uniqueId('nexus-handler');
  const endpoint = uniqueId('weather-endpoint');
  const taskQueue = uniqueId('weather-q');
  await client.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  await waitFor(() => client.workflowService.describeNamespace({ namespace }).then(() => true), `namespace ${namespace}`);
  const created = await client.connection.operatorService.createNexusEndpoint({
    spec: { name: endpoint, target: { worker: { namespace, taskQueue } } },
  });
  const connection = await NativeConnection.connect({ address: temporalAddress() });
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowsPath: path.join(__dirname, 'forecast-workflows.ts'),
    nexusServices: [weatherHandler],
  });
  const running = worker.run();
  return {
    namespace,
    endpoint,
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
      const { id, version } = created.endpoint ?? {};
      if (id) await client.connection.operatorService.deleteNexusEndpoint({ id, version }).catch(() => undefined);
    },
  };
}
