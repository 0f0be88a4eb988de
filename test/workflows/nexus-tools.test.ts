// Nexus operations as tools (issue 36), on the real dev server: the handler is another team's worker
// in a second namespace, behind a Nexus endpoint; the model is the scripted fake. A call parks for
// approval like any write, then runs from the workflow as a Nexus operation in that namespace.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAgentTestbed } from '../support/agent-testbed';
import { approvalSignal, decideApprovalUpdate, statusQuery } from '../../src/contract/agent-run-api';
import { NexusEndpointUnknownError } from '../../src/contract/errors';
import { createAgentWorker } from '../../src/runtime/worker-setup/create-agent-worker';
import { waitFor, withAgentWorker } from '../support/agent-run-harness';
import { reply, text, toolCall } from '../support/fake-anthropic';
import { newClient, temporalAddress, uniqueId } from '../support/temporal';
import { complete, parked, resultsIn } from './approval-test-kit';
import { runChain } from '../support/run-chain';
import { forecastWorkflowId, slowWorkflowId, startForecastTeam, type ForecastTeam } from './nexus/forecast-service';
import { forecaster, nexusOperationsOf } from './nexus/forecaster-agent';

describe('Nexus tools', () => {
  const bed = useAgentTestbed();
  const { fake } = bed;
  let client: Client;
  let team: ForecastTeam;
  let handlerClient: Client;

  beforeAll(async () => {
    client = await newClient();
    team = await startForecastTeam(client);
    handlerClient = await newClient(team.namespace);
  });
  afterAll(async () => {
    await team?.stop();
    await handlerClient?.connection.close();
    await client?.connection.close();
  });

  const harness = () => ({ ...bed.harness(), agents: [forecaster(team.endpoint)] });

  it('shows the operation to the model as a tool, parks the call for approval, then runs it in the other namespace', async () => {
    const city = uniqueId('berlin');
    const task = uniqueId('nexus-approve');
    fake.script(task, [reply(text('I will ask the weather team.'), toolCall('weather_forecast', { city })), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'forecaster', task });
      const status = await parked(handle);
      expect(status.pendingApprovals).toMatchObject([{ tool: 'weather_forecast', input: { city }, reason: 'write tools: approve' }]);
      // Parked means not started: nothing ran in the other namespace yet.
      await expect(handlerClient.workflow.getHandle(forecastWorkflowId(city)).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
      expect(await nexusOperationsOf(handle)).toEqual([]);

      await handle.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve', approver: 'ann' });
      expect((await handle.result()).status).toBe('completed');
      expect(await nexusOperationsOf(handle)).toEqual(['forecast']);
      expect((await handle.query(statusQuery)).decisions).toContainEqual(expect.objectContaining({ callId: 'toolu_0_0', decision: 'approve', approver: 'ann' }));
    });

    // The model saw the tool as declared.
    const tools = (fake.requestsFor(task)[0]?.body as { tools?: { name: string; description: string; input_schema: unknown }[] }).tools ?? [];
    expect(tools).toContainEqual({
      name: 'weather_forecast',
      description: "The weather team's forecast for a city (runs in their namespace).",
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
    // The handler's workflow ran in the other namespace, with the call's arguments as its input.
    const run = handlerClient.workflow.getHandle(forecastWorkflowId(city));
    expect((await run.describe()).status.name).toBe('COMPLETED');
    const started = (await run.fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
    expect(started?.workflowType?.name).toBe('forecastWorkflow');
    expect(JSON.parse(Buffer.from(started!.input!.payloads![0]!.data!).toString('utf8'))).toEqual({ city });
    // Its result came back to the model as the tool result.
    const [result] = resultsIn(fake.requestsFor(task)[1]);
    expect(result).toMatchObject({ tool_use_id: 'toolu_0_0' });
    expect(result?.is_error).toBeUndefined();
    expect(JSON.parse(String(result?.content))).toEqual({ forecast: `sunny in ${city}`, namespace: team.namespace });
  });

  it('never starts the operation of a rejected call', async () => {
    const city = uniqueId('paris');
    const task = uniqueId('nexus-reject');
    fake.script(task, [reply(toolCall('weather_forecast', { city })), reply(text('Fine.'), toolCall('complete_task', { summary: 'no forecast', status: 'partial' }))]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'forecaster', task });
      await parked(handle);
      await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'reject', reason: 'not today' }] });
      expect((await handle.result()).status).toBe('completed');
      expect(await nexusOperationsOf(handle)).toEqual([]);
    });
    await expect(handlerClient.workflow.getHandle(forecastWorkflowId(city)).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    const [denial] = resultsIn(fake.requestsFor(task)[1]);
    expect(denial).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
    expect(denial?.content).toContain('not today');
  });

  it('gives the model a failed operation as an error result, and the run goes on', async () => {
    const task = uniqueId('nexus-fail');
    // A read: allowed without asking.
    fake.script(task, [reply(toolCall('doomed_forecast', { city: 'Atlantis' })), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'forecaster', task });
      expect((await handle.result()).status).toBe('completed');
    });
    const [failed] = resultsIn(fake.requestsFor(task)[1]);
    expect(failed).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
    expect(failed?.content).toContain('no forecast for Atlantis');
  });

  it('knows its Nexus tools again in a continue-as-new link, where the approved call runs', async () => {
    const city = uniqueId('rome');
    const task = uniqueId('nexus-link');
    const doomed = Array.from({ length: 6 }, () => reply(toolCall('doomed_forecast', { city: 'Atlantis' })));
    fake.script(task, [...doomed, reply(toolCall('weather_forecast', { city })), complete()]);
    await withAgentWorker(harness(), async ({ start, client: runClient }) => {
      // A small history budget: the failed reads fill the first link, so the run hands over before it parks.
      const handle = await start({ agent: 'forecaster', task, historyBudget: { maxEvents: 50 }, maxIterations: 12 });
      const status = await parked(handle);
      await handle.signal(approvalSignal, { callId: status.pendingApprovals[0]!.callId, decision: 'approve', approver: 'ann' });
      expect((await handle.result()).status).toBe('completed');
      const chain = await runChain(runClient, handle.workflowId, (handle as unknown as { firstExecutionRunId: string }).firstExecutionRunId);
      expect(chain.length).toBeGreaterThanOrEqual(2);
      const forecastLinks = chain.filter((link) => (link.history.events ?? []).some((e) => e.nexusOperationScheduledEventAttributes?.operation === 'forecast'));
      expect(forecastLinks.map((link) => link.runId)).not.toContain((handle as unknown as { firstExecutionRunId: string }).firstExecutionRunId);
      expect(forecastLinks).toHaveLength(1);
    });
    expect((await handlerClient.workflow.getHandle(forecastWorkflowId(city)).describe()).status.name).toBe('COMPLETED');
    const requests = fake.requestsFor(task);
    expect(JSON.parse(String(resultsIn(requests.at(-1))[0]?.content))).toEqual({ forecast: `sunny in ${city}`, namespace: team.namespace });
  });

  it('cancels the operation, and the workflow behind it in the other namespace, when the run is cancelled', async () => {
    const city = uniqueId('oslo');
    const task = uniqueId('nexus-cancel');
    fake.script(task, [reply(toolCall('slow_forecast', { city }))]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'forecaster', task });
      const behind = handlerClient.workflow.getHandle(slowWorkflowId(city));
      await waitFor(async () => ((await behind.describe()).status.name === 'RUNNING' ? true : undefined), 'the operation to start its workflow');
      await handle.cancel();
      await expect(handle.result()).rejects.toThrow();
      expect((await handle.describe()).status.name).toBe('CANCELLED');
      // The server delivers the cancel to the other namespace's workflow on its own schedule, after
      // the run has closed, so wait for it rather than read it once.
      await waitFor(async () => ((await behind.describe()).status.name === 'CANCELLED' ? true : undefined), 'the workflow behind the operation to be cancelled');
    });
  });

  it('refuses to start a worker whose agent names an endpoint the server does not know, naming it', async () => {
    const missing = uniqueId('no-such-endpoint');
    const starting = createAgentWorker({
      address: temporalAddress(),
      taskQueue: uniqueId('q'),
      env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.baseUrl },
      auditLog: false,
      workflowBundle: bed.harness().workflowBundle,
      agents: [forecaster(missing)],
    });
    const error = await starting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NexusEndpointUnknownError);
    expect((error as Error).message).toContain(`agent "forecaster", Nexus tool "weather_forecast": endpoint "${missing}"`);
  });
});
