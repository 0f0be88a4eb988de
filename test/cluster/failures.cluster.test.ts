// `npm run test:cluster`: the topology of `npm run cluster` (PostgreSQL, the Temporal server built
// from source as two nodes behind one frontend address, three worker hosts in network namespaces)
// under three faults, one after another, each with 30 runs in flight and approvals sent while it
// lasts: a worker host killed, PostgreSQL stopped for 20 s, a Temporal server node killed. Every run
// must complete, every tool call's side effect must happen once (a canary per call), every approval
// must be applied once, and the figures of each fault are printed (kept in bench/results/cluster.md).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Client as PgClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_TABLE } from '../../src/runtime/conversation/postgres-conversation-store';
import { statusQuery } from '../../src/contract/agent-run-api';
import { startCluster, type Cluster } from '../../scripts/cluster/cluster';
import { CLUSTER_DIR } from '../../scripts/cluster/go-binaries';
import { namespacePids } from '../../scripts/cluster/host-network';
import { describeShards, isSplitBetween, readShardOwners, type ShardOwnership } from '../../scripts/cluster/shard-owners';
import { waitFor } from '../support/agent-run-harness';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { Wave, type DrillContext, type WaveOutcome } from './support/drill-wave';
import { faultFigures, figuresTable, type Fault, type FaultFigures } from './support/fault-figures';
import { drillClients, isClearError } from './support/retrying-client';

const POSTGRES_DOWN_MS = 20_000;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
/** The figures, beside the cluster's logs (gitignored); bench/results/cluster.md keeps a run of them. */
const FIGURES_FILE = path.join(CLUSTER_DIR, 'drill-figures.md');
/** Every process's log of the last drill (the servers', the workers', PostgreSQL's), kept for a look afterwards. */
const LOG_DIR = path.join(CLUSTER_DIR, 'drill-logs');

describe('the cluster topology', () => {
  let cluster: Cluster;
  let fake: FakeAnthropic;
  let ctx: DrillContext;
  const timings: string[] = [];
  const figures: FaultFigures[] = [];

  beforeAll(async () => {
    const started = Date.now();
    await rm(LOG_DIR, { recursive: true, force: true });
    // Its own names and subnet, so it can run beside an `npm run cluster`. On this subnet the ring
    // splits the 4 history shards 1 and 3 between the nodes (scripts/cluster/shard-owners.ts).
    cluster = await startCluster({
      name: 'dat',
      subnet: '10.214.0',
      ui: false,
      logDir: LOG_DIR,
      log: (line) => console.log(`[cluster] ${line}`),
      model: async (gateway) => {
        fake = await startFakeAnthropic({ host: gateway });
        return { baseUrl: fake.baseUrl, apiKey: 'test-key', close: () => fake.close() };
      },
    });
    timings.push(`cluster start ${seconds(Date.now() - started)}`);
    ctx = { cluster, fake, ...(await drillClients(cluster.temporalAddress, cluster.namespace)) };
  });

  afterAll(async () => {
    if (figures.length > 0) {
      const table = figuresTable(figures);
      console.log(`[cluster] figures:\n${table}`);
      await mkdir(path.dirname(FIGURES_FILE), { recursive: true });
      await writeFile(FIGURES_FILE, `${table}\n`);
    }
    await ctx?.close();
    const stopping = Date.now();
    await cluster?.stop();
    timings.push(`cluster stop ${seconds(Date.now() - stopping)}`);
    console.log(`[cluster] timings: ${timings.join(', ')}; frontend proxy: ${JSON.stringify(cluster?.frontend.stats())}`);
  });

  /** The logs, shown when a drill fails. */
  const dumpLogs = () => {
    for (const host of cluster.hosts) console.error(`--- worker on ${host.hostname} ---\n${host.process.tail()}`);
    for (const node of cluster.servers) console.error(`--- Temporal server on ${node.hostname} ---\n${node.process.tail()}`);
  };

  /**
   * What every fault must leave: all runs completed, every side effect at most once, every call the
   * model was told succeeded exactly once, every approval applied once. A call whose report did not
   * reach the server is not run again (shell must not run twice): the model is told its outcome is
   * unknown. With `victim`, only calls that host was running may end that way.
   */
  async function expectNothingLostOrDoubled(outcome: WaveOutcome, victim?: string): Promise<void> {
    const { runs } = outcome;
    expect(outcome.results.map((result) => result.status)).toEqual(runs.map(() => 'completed'));
    // 0 doubled: no tool call's command ran twice.
    expect(outcome.canaries.flat().filter((c) => c.ran > 1)).toEqual([]);
    // 0 lost: every call the model was told succeeded ran exactly once.
    expect(outcome.canaries.flat().filter((c) => !c.reportedError && c.ran !== 1)).toEqual([]);
    // Nothing else failed: an error the model saw is an unknown outcome (the fake names call k `toolu_k_0`).
    for (const [i, counts] of outcome.canaries.entries()) {
      for (const [k, count] of counts.entries()) {
        if (!count.reportedError) continue;
        expect(count.errorText, count.marker).toMatch(/^outcome unknown: /);
        if (victim) expect(outcome.evidence[i]!.toolHosts.get(`toolu_${k}_0`), count.marker).toBe(victim);
      }
    }
    // Every host found every conversation in PostgreSQL.
    expect(outcome.evidence.map((e) => e.storeMisses)).toEqual(runs.map(() => 0));
    // Each approval was delivered, applied once (by the drill, by the route it was sent on), and its call ran once.
    for (const delivery of outcome.deliveries) {
      const run = runs.find((r) => r.handle!.workflowId === delivery.workflowId)!;
      const status = await run.handle!.query(statusQuery);
      const decisions = status.decisions.filter((d) => d.callId === 'toolu_0_0');
      expect(decisions).toEqual([expect.objectContaining({ decision: 'approve', approver: 'drill', via: delivery.via })]);
      expect(outcome.canaries[runs.indexOf(run)]).toEqual([expect.objectContaining({ ran: 1, reportedError: false })]);
      // Errors on the way were clear ones, which the drill's client retried.
      for (const error of delivery.errors) expect(isClearError(error), `${error.name}: ${error.message}`).toBe(true);
    }
    // Closed runs leave nothing in the conversation store.
    const pg = new PgClient({ connectionString: cluster.conversationStoreUrl });
    await pg.connect();
    try {
      const { rows } = await pg.query(`SELECT count(*)::int AS n FROM ${CONVERSATION_TABLE} WHERE owner = ANY($1)`, [runs.map((run) => run.handle!.workflowId)]);
      expect(rows[0].n).toBe(0);
    } finally {
      await pg.end();
    }
    expect(fake.errors).toEqual([]);
  }

  /** When every shard's range id had risen above `before`'s, polled for up to `withinMs`; undefined if not by then. */
  async function shardsReacquired(before: readonly ShardOwnership[], withinMs: number): Promise<number | undefined> {
    const deadline = Date.now() + withinMs;
    while (Date.now() < deadline) {
      const now = await readShardOwners(cluster.temporalDatabaseUrl).catch(() => []);
      if (now.length > 0 && before.every((b) => now.some((s) => s.shardId === b.shardId && s.rangeId > b.rangeId))) return Date.now();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return undefined;
  }

  const drill = async (body: () => Promise<void>) => {
    try {
      await body();
    } catch (error) {
      dumpLogs();
      throw error;
    }
  };

  it('completes every run after a worker host is killed mid-run, and applies the approvals sent while it is down', () =>
    drill(async () => {
      const [victim, ...survivors] = cluster.hosts;
      const wave = await Wave.start(ctx, 'host');
      // Kill the victim while it has model calls in flight and the steps runs are under way.
      await wave.quarterWay(() => fake.requests.some((r) => r.remoteAddress === victim!.address && r.answeredAt === undefined));
      const killedAt = Date.now();
      await victim!.kill();
      expect(namespacePids(victim!.namespace)).toEqual([]);
      const endedAtKill = await wave.runsEnded();
      wave.sendApprovals();
      const outcome = await wave.finish();
      expect(victim!.isUp()).toBe(false);
      expect(endedAtKill).toBeLessThan(wave.runs.length);
      await expectNothingLostOrDoubled(outcome, victim!.hostname);

      // Spread over the three hosts, and what the victim had started was taken over by the others.
      const hosts = new Set(outcome.evidence.flatMap((e) => [...e.activityHosts]));
      expect([...hosts].sort()).toEqual(cluster.hosts.map((h) => h.hostname).sort());
      // The approved calls ran on surviving hosts (the sandboxed shell, bwrap inside the host's namespace).
      for (const [i, run] of outcome.runs.entries()) {
        if (run.kind === 'approval') expect(survivors.map((h) => h.hostname)).toContain(outcome.evidence[i]!.toolHosts.get('toolu_0_0'));
      }
      figures.push(faultFigures(outcome, { what: `worker host ${victim!.hostname} killed`, startedAt: killedAt, endedAt: killedAt, notes: [] }, fake));
      timings.push(`host wave ${seconds(outcome.completedAt - wave.startedAt)}`);
    }));

  it('completes every run after PostgreSQL is stopped for 20 s mid-run, and applies the approvals sent meanwhile', () =>
    drill(async () => {
      const wave = await Wave.start(ctx, 'pg');
      await wave.quarterWay();
      const shardsBefore = await readShardOwners(cluster.temporalDatabaseUrl);
      const stoppedAt = Date.now();
      await cluster.postgres.shutDown();
      expect(cluster.postgres.process.isRunning()).toBe(false);
      // Approvals sent during the outage: each is retried by the drill's client until it is delivered.
      wave.sendApprovals();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, stoppedAt + POSTGRES_DOWN_MS - Date.now())));
      await cluster.postgres.startAgain();
      const backAt = Date.now();
      // A node that cannot renew its shards' leases gives them up and acquires them again (a higher
      // range id) once the database is back: noted, not required.
      const reacquired = shardsReacquired(shardsBefore, 60_000);
      const outcome = await wave.finish();
      await expectNothingLostOrDoubled(outcome);
      // Every approval was sent while PostgreSQL was down; none could be delivered before it came back.
      for (const delivery of outcome.deliveries) expect(delivery.sentAt).toBeLessThan(backAt);
      const reacquiredAt = await reacquired;
      const fault: Fault = {
        what: `PostgreSQL stopped for ${POSTGRES_DOWN_MS / 1000} s`,
        startedAt: stoppedAt,
        endedAt: backAt,
        notes: [reacquiredAt ? `every history shard was acquired again (a higher range id) ${seconds(reacquiredAt - backAt)} after PostgreSQL was back` : 'the history shards kept their range ids (no node gave one up)'],
      };
      figures.push(faultFigures(outcome, fault, fake));
      timings.push(`PostgreSQL wave ${seconds(outcome.completedAt - wave.startedAt)}`);
    }));

  it('completes every run after a Temporal server node is killed mid-run: its shards move to the other node', () =>
    drill(async () => {
      const nodes = cluster.servers.map((node) => node.historyAddress);
      const nameOf = (owner: string) => cluster.servers.find((node) => node.historyAddress === owner)?.hostname ?? owner;
      const before = await readShardOwners(cluster.temporalDatabaseUrl);
      expect(isSplitBetween(before, nodes), `the shards should be split between the nodes: ${describeShards(before, nameOf)}`).toBe(true);
      // The node with more shards dies: more of the runs live on it.
      const owned = (node: { historyAddress: string }) => before.filter((s) => s.owner === node.historyAddress).length;
      const [victim, survivor] = [...cluster.servers].sort((a, b) => owned(b) - owned(a));
      const wave = await Wave.start(ctx, 'node');
      await wave.quarterWay();
      const killedAt = Date.now();
      await victim!.kill();
      expect(namespacePids(victim!.namespace)).toEqual([]);
      wave.sendApprovals();
      // The victim's shards are acquired by the survivor: it writes itself as their owner, with a new range id.
      const after = await waitFor(
        async () => {
          const shards = await readShardOwners(cluster.temporalDatabaseUrl);
          return shards.every((s) => s.owner === survivor!.historyAddress) ? shards : undefined;
        },
        `every shard to move to ${survivor!.hostname}`,
        120_000,
      );
      const movedAt = Date.now();
      const moved: ShardOwnership[] = before.filter((s) => s.owner === victim!.historyAddress);
      for (const shard of moved) expect(after.find((s) => s.shardId === shard.shardId)!.rangeId).toBeGreaterThan(shard.rangeId);
      const outcome = await wave.finish();
      await expectNothingLostOrDoubled(outcome);
      expect(victim!.isUp()).toBe(false);
      const fault: Fault = {
        what: `Temporal node ${victim!.hostname} killed`,
        startedAt: killedAt,
        endedAt: killedAt,
        notes: [`shards before: ${describeShards(before, nameOf)}; shard(s) ${moved.map((s) => s.shardId).join(', ')} owned by ${survivor!.hostname} ${seconds(movedAt - killedAt)} after the kill`],
      };
      figures.push(faultFigures(outcome, fault, fake));
      timings.push(`node wave ${seconds(outcome.completedAt - wave.startedAt)}`);
    }));
});
