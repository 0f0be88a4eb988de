// `npm run test:cluster`: the topology of `npm run cluster` (PostgreSQL, the Temporal server built
// from source, three worker hosts in network namespaces) under a host failure. 30 runs spread over
// the hosts; one host is SIGKILLed mid-run; approvals are sent while it is down. Every run must
// complete, the approvals must be applied, and no model call may miss its conversation.
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { Client as PgClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun } from '../../src/client/start-run';
import { CONVERSATION_TABLE } from '../../src/runtime/conversation/postgres-conversation-store';
import { approvalSignal, statusQuery } from '../../src/contract/agent-run-api';
import { startCluster, type Cluster } from '../../scripts/cluster/cluster';
import { namespacePids } from '../../scripts/cluster/host-network';
import { toolResultsIn, waitFor, waitForApprovals } from '../support/agent-run-harness';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { uniqueId } from '../support/temporal';
import { evidenceOf, scriptDrillRun, type DrillRun, type RunEvidence } from './support/drill-runs';

const STEPS_RUNS = 20;
const APPROVAL_RUNS = 10;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

describe('the cluster topology', () => {
  let cluster: Cluster;
  let fake: FakeAnthropic;
  let client: Client;
  const timings: string[] = [];

  beforeAll(async () => {
    const started = Date.now();
    // Its own names and subnet, so it can run beside an `npm run cluster`.
    cluster = await startCluster({
      name: 'dat',
      subnet: '10.214.0',
      ui: false,
      log: (line) => console.log(`[cluster] ${line}`),
      model: async (gateway) => {
        fake = await startFakeAnthropic({ host: gateway });
        return { baseUrl: fake.baseUrl, apiKey: 'test-key', close: () => fake.close() };
      },
    });
    timings.push(`cluster start ${seconds(Date.now() - started)}`);
    client = new Client({ connection: await Connection.connect({ address: cluster.temporalAddress }), namespace: cluster.namespace });
  });

  afterAll(async () => {
    await client?.connection.close();
    const stopping = Date.now();
    await cluster?.stop();
    timings.push(`cluster stop ${seconds(Date.now() - stopping)}`);
    console.log(`[cluster] timings: ${timings.join(', ')}`);
  });

  /** The worker logs, shown when the drill fails. */
  const dumpLogs = () => {
    for (const host of cluster.hosts) console.error(`--- worker on ${host.hostname} ---\n${host.process.tail()}`);
    console.error(`--- Temporal server ---\n${cluster.server.process.tail()}`);
  };

  it('completes every run after a host is killed mid-run, applies approvals sent while it is down, and never misses a conversation', async () => {
    const drillStarted = Date.now();
    const [victim, ...survivors] = cluster.hosts;
    const suffix = uniqueId('d');
    const runs: DrillRun[] = [
      ...Array.from({ length: STEPS_RUNS }, (_, i) => scriptDrillRun(fake, 'steps', i + 1, suffix)),
      ...Array.from({ length: APPROVAL_RUNS }, (_, i) => scriptDrillRun(fake, 'approval', i + 1, suffix)),
    ];
    try {
      for (const run of runs) {
        const toolApproval = run.alwaysApproved ? { alwaysApproved: run.alwaysApproved } : undefined;
        run.handle = await startRun(client, { agent: 'general', task: run.task, toolApproval }, { taskQueue: cluster.taskQueue, workflowId: uniqueId('drill') });
      }
      const approvalRuns = runs.filter((run) => run.kind === 'approval');
      await Promise.all(approvalRuns.map((run) => waitForApprovals(run.handle!, 1, 60_000)));

      // Kill the victim while it has model calls in flight and the steps runs are under way.
      const stepRequests = () => fake.requests.filter((r) => r.match?.includes(' steps run '));
      await waitFor(
        async () => {
          const inFlight = fake.requests.some((r) => r.remoteAddress === victim!.address && r.answeredAt === undefined);
          return inFlight && stepRequests().length >= (STEPS_RUNS * 7) / 4 ? true : undefined;
        },
        `${victim!.hostname} to have a model call in flight a quarter of the way through`,
        60_000,
      );
      const killedAt = Date.now();
      await victim!.kill();
      const finishedBeforeKill = (await Promise.all(runs.map((run) => run.handle!.describe()))).filter((d) => d.status.name !== 'RUNNING').length;
      expect(namespacePids(victim!.namespace)).toEqual([]);

      // Approvals sent while the host is down: signals are recorded by the server and applied by
      // whichever host runs the workflow next.
      for (const run of approvalRuns) await run.handle!.signal(approvalSignal, { callId: 'toolu_0_0', decision: 'approve', approver: 'drill' });
      expect(victim!.isUp()).toBe(false);

      const results = await Promise.all(runs.map((run) => run.handle!.result()));
      timings.push(`30 runs ${seconds(Date.now() - drillStarted)} (${seconds(Date.now() - killedAt)} after the kill)`);
      expect(results.map((result) => result.status)).toEqual(runs.map(() => 'completed'));
      expect(finishedBeforeKill).toBeLessThan(runs.length);

      const evidence: RunEvidence[] = await Promise.all(runs.map((run) => evidenceOf(run.handle!)));
      // Zero conversation-store misses: every host found every conversation in PostgreSQL.
      expect(evidence.map((e) => e.storeMisses)).toEqual(runs.map(() => 0));
      // Spread over the three hosts, and work the victim had started was taken over by the others.
      const hosts = new Set(evidence.flatMap((e) => [...e.activityHosts]));
      expect([...hosts].sort()).toEqual(cluster.hosts.map((h) => h.hostname).sort());
      const takenOver = evidence.flatMap((e) => e.retriedActivities);
      console.log(`[cluster] ${finishedBeforeKill} runs had finished at the kill; activities retried on another host: ${JSON.stringify(takenOver)}`);

      // The approvals were applied: each write ran once, on a surviving host, and the file is there;
      // the sandboxed shell (bwrap inside a host's network namespace) read it back.
      for (const [i, run] of runs.entries()) {
        if (run.kind !== 'approval') continue;
        const status = await run.handle!.query(statusQuery);
        expect(status.decisions).toContainEqual(expect.objectContaining({ callId: 'toolu_0_0', decision: 'approve', approver: 'drill', via: 'signal' }));
        expect(survivors.map((h) => h.hostname)).toContain(evidence[i]!.writeHost);
        expect(await readFile(path.join(cluster.workspace, run.file!), 'utf8')).toMatch(/^approved while a host was down/);
        const [catResult] = toolResultsIn(fake.requestsFor(run.task).find((request) => request.index === 2));
        expect(catResult).toMatchObject({ content: expect.stringContaining('approved while a host was down') });
        expect(catResult?.is_error).not.toBe(true);
      }

      // Closed runs leave nothing in the conversation store.
      const pg = new PgClient({ connectionString: cluster.conversationStoreUrl });
      await pg.connect();
      try {
        const ids = runs.map((run) => run.handle!.workflowId);
        const { rows } = await pg.query(`SELECT count(*)::int AS n FROM ${CONVERSATION_TABLE} WHERE owner = ANY($1)`, [ids]);
        expect(rows[0].n).toBe(0);
      } finally {
        await pg.end();
      }
      expect(fake.errors).toEqual([]);
    } catch (error) {
      dumpLogs();
      throw error;
    }
  });
});
