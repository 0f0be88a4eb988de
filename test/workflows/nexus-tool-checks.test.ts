// Issue 36, Nexus tools checked like any tool, on the real dev server (the handler is another team's
// worker in a second namespace): a call's arguments are checked against the tool's input schema
// before it can park or run, a person may approve it with edited arguments (checked the same way),
// and a parked call survives a worker restart and a continue-as-new link.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../../src/contract/approval-decision';
import { argumentsHash, decisionMessage, signedText, type DecisionFields, type RunIdentity } from '../../src/core/approvals/signatures/signed-message';
import { createApproverKey, signWithApproverKey } from '../../src/client/approver-keys';
import { describeRunIdentity } from '../../src/client/sign-messages';
import { useAgentTestbed } from '../support/agent-testbed';
import { approvalSignal, decideApprovalUpdate, statusQuery } from '../../src/contract/agent-run-api';
import { withAgentWorker } from '../support/agent-run-harness';
import { reply, toolCall } from '../support/fake-anthropic';
import { newClient, uniqueId } from '../support/temporal';
import { complete, parked, resultsIn } from './approval-test-kit';
import { runChain } from '../support/run-chain';
import { forecastWorkflowId, startForecastTeam, type ForecastTeam } from './nexus/forecast-service';
import { forecaster, nexusOperationsOf } from './nexus/forecaster-agent';

/** The input the operation's workflow in the other namespace was started with. */
async function handlerInput(client: Client, city: string): Promise<unknown> {
  const started = (await client.workflow.getHandle(forecastWorkflowId(city)).fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
  return JSON.parse(Buffer.from(started!.input!.payloads![0]!.data!).toString('utf8'));
}

/** The reason an update was refused with. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorkflowUpdateFailedError);
  return (error as WorkflowUpdateFailedError).cause?.message ?? '';
}

describe('Nexus tool calls, checked like any tool', () => {
  const bed = useAgentTestbed();
  const { fake } = bed;
  let client: Client;
  let team: ForecastTeam;
  let handlerClient: Client;

  let keyDir: string;
  let registryFile: string;

  beforeAll(async () => {
    keyDir = await mkdtemp(path.join(tmpdir(), 'nexus-signed-'));
    registryFile = path.join(keyDir, 'approvers.json');
    await writeFile(registryFile, JSON.stringify(createApproverKey('alice', { dir: path.join(keyDir, 'keys') }).registryEntry));
    client = await newClient();
    team = await startForecastTeam(client);
    handlerClient = await newClient(team.namespace);
  });
  afterAll(async () => {
    await team?.stop();
    await handlerClient?.connection.close();
    await client?.connection.close();
    await rm(keyDir, { recursive: true, force: true });
  });

  const harness = () => ({ ...bed.harness(), agents: [forecaster(team.endpoint)] });
  const missing = (city: string) => expect(handlerClient.workflow.getHandle(forecastWorkflowId(city)).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

  it('answers calls whose arguments do not fit the schema with an error naming what was wrong: nothing parks, no operation starts', async () => {
    const task = uniqueId('nexus-misfit');
    const city = uniqueId('lyon');
    // A write tool: a call that fit would park for a person. These two must not.
    fake.script(task, [reply(toolCall('weather_forecast', { town: city }), toolCall('weather_forecast', { city: 42 })), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'forecaster', task });
      expect((await handle.result()).status).toBe('completed');
      expect(await nexusOperationsOf(handle)).toEqual([]);
      const status = await handle.query(statusQuery);
      expect(status.decisions).toEqual([]);
      expect(status.recentToolCalls.filter((c) => c.tool === 'weather_forecast').map((c) => c.outcome)).toEqual(['error', 'error']);
    });
    await missing(city);
    const [noCity, badType] = resultsIn(fake.requestsFor(task)[1]);
    expect(noCity).toMatchObject({ tool_use_id: 'toolu_0_0', is_error: true });
    expect(noCity?.content).toContain('Invalid arguments for weather_forecast:\n- city: is required');
    expect(noCity?.content).toContain('Expected schema: {"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}');
    expect(noCity?.content).toContain('The Nexus operation was not started');
    expect(badType).toMatchObject({ tool_use_id: 'toolu_0_1', is_error: true });
    expect(badType?.content).toContain('- city: must be string');
  });

  it('runs an approved call with the edited arguments, checked against the schema, and exactly those reach the handler', async () => {
    const asked = uniqueId('madrid');
    const edited = uniqueId('sevilla');
    const task = uniqueId('nexus-edit');
    fake.script(task, [reply(toolCall('weather_forecast', { city: asked })), complete()]);
    await withAgentWorker(harness(), async ({ start }) => {
      const handle = await start({ agent: 'forecaster', task });
      await parked(handle);
      // An edit that does not fit the schema is refused and the call stays parked as the model asked it.
      const why = await refusal(handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'approve', approver: 'ann', arguments: { city: 7 } }] }));
      expect(why).toMatch(/^the edit of toolu_0_0 is refused: the edited arguments do not fit weather_forecast's input schema: .*city/);
      expect((await handle.query(statusQuery)).pendingApprovals).toMatchObject([{ callId: 'toolu_0_0', input: { city: asked } }]);
      expect(await nexusOperationsOf(handle)).toEqual([]);

      const outcome = await handle.executeUpdate(decideApprovalUpdate, { args: [{ callId: 'toolu_0_0', decision: 'approve', approver: 'ann', arguments: { city: edited } }] });
      expect(outcome).toEqual({ applied: true, message: 'approve applied to toolu_0_0 with the edited arguments' });
      expect((await handle.result()).status).toBe('completed');
      expect(await nexusOperationsOf(handle)).toEqual(['forecast']);
    });
    expect(await handlerInput(handlerClient, edited)).toEqual({ city: edited });
    await missing(asked);
    const [result] = resultsIn(fake.requestsFor(task)[1]);
    const [note, output] = String(result?.content).split('\n');
    expect(note).toBe(`[ann edited this call before approving it (city: "${asked}" → "${edited}"); the output below is of the edited call]`);
    expect(JSON.parse(output!)).toEqual({ forecast: `sunny in ${edited}`, namespace: team.namespace });
  });

  it('keeps a parked call across a continue-as-new link and a worker restart, and runs it once approved', async () => {
    const city = uniqueId('rome');
    const edited = uniqueId('napoli');
    const task = uniqueId('nexus-restart');
    const doomed = Array.from({ length: 6 }, () => reply(toolCall('doomed_forecast', { city: 'Atlantis' })));
    fake.script(task, [...doomed, reply(toolCall('weather_forecast', { city })), complete()]);
    const taskQueue = uniqueId('q');
    // A small history budget: the failed reads fill the first link, so the call parks in a later one.
    const first = await withAgentWorker({ ...harness(), taskQueue, keepRuns: true }, async ({ start }) => {
      const handle = await start({ agent: 'forecaster', task, historyBudget: { maxEvents: 50 }, maxIterations: 12 });
      const status = await parked(handle);
      return { workflowId: handle.workflowId, firstRunId: (handle as unknown as { firstExecutionRunId: string }).firstExecutionRunId, callId: status.pendingApprovals[0]!.callId };
    });
    // The first worker is gone (its cache with it); a new one answers the parked call from the history.
    await withAgentWorker({ ...harness(), taskQueue }, async ({ client: runClient }) => {
      const handle = runClient.workflow.getHandle(first.workflowId);
      expect((await handle.query(statusQuery)).pendingApprovals).toMatchObject([{ callId: first.callId, tool: 'weather_forecast', input: { city } }]);
      await handle.signal(approvalSignal, { callId: first.callId, decision: 'approve', approver: 'ann', arguments: { city: edited } });
      expect((await handle.result()).status).toBe('completed');
      const chain = await runChain(runClient, first.workflowId, first.firstRunId);
      expect(chain.length).toBeGreaterThanOrEqual(2);
      const forecastLinks = chain.filter((link) => (link.history.events ?? []).some((e) => e.nexusOperationScheduledEventAttributes?.operation === 'forecast'));
      expect(forecastLinks.map((link) => link.runId)).not.toContain(first.firstRunId);
      expect(forecastLinks).toHaveLength(1);
    });
    expect(await handlerInput(handlerClient, edited)).toEqual({ city: edited });
    await missing(city);
  });

  it('with an approver registry, runs an edit only when the signature covers the edited arguments', async () => {
    const asked = { city: uniqueId('porto') };
    const edited = { city: uniqueId('faro') };
    const task = uniqueId('nexus-signed-edit');
    const aliceSigns = (run: RunIdentity, args: unknown, fields: Omit<DecisionFields, 'approver'>): string =>
      signWithApproverKey('alice', signedText(decisionMessage(run, args, { ...fields, approver: 'alice' })), { dir: path.join(keyDir, 'keys') })!;
    fake.script(task, [reply(toolCall('weather_forecast', asked)), complete()]);
    await withAgentWorker({ ...harness(), env: { AGENT_APPROVERS_FILE: registryFile } }, async ({ start }) => {
      const handle = await start({ agent: 'forecaster', task });
      await parked(handle);
      const run = await describeRunIdentity(handle);
      const base = { callId: 'toolu_0_0', decision: 'approve' as const, expiresAt: new Date(Date.now() + 600_000).toISOString() };
      // Alice signed the call as the model asked it; an insider adds an edit to her signed decision.
      const overOriginal: ApprovalDecision = { ...base, approver: 'alice', signature: aliceSigns(run, asked, base), arguments: edited };
      expect(await refusal(handle.executeUpdate(decideApprovalUpdate, { args: [overOriginal] }))).toMatch(/^bad signature for alice: .*arguments \(the original and the edited ones\)/);
      expect(await nexusOperationsOf(handle)).toEqual([]);

      const overEdit: ApprovalDecision = { ...base, approver: 'alice', arguments: edited, argumentsHash: argumentsHash(asked), signature: aliceSigns(run, asked, { ...base, arguments: edited }) };
      await handle.executeUpdate(decideApprovalUpdate, { args: [overEdit] });
      expect((await handle.result()).status).toBe('completed');
    });
    expect(await handlerInput(handlerClient, edited.city)).toEqual(edited);
    await missing(asked.city);
  });
});
