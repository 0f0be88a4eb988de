// How a watcher finds a worker's live relay when no model call is in flight (a run parked on an
// approval): the model call's result names the relay in the run's history, so a watcher reads it once
// with the same read access the run's history takes, and nothing else. A client of another namespace
// finds nothing, a client without the encryption key cannot read the address, and a watcher that has
// the feed sends Temporal no query while it lasts; when the feed drops, it says so and polls.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { WorkflowHandle } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { liveFeedPath } from '../../../src/contract/live-feed';
import { relayInHistory } from '../../../src/client/relay-lookup';
import { RunFeed } from '../../../src/client/run-feed';
import { approvalSignal } from '../../../src/contract/agent-run-api';
import { waitFor, waitForApprovals, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { parkingTask } from '../../support/parking-task';
import { newClient, uniqueId } from '../../support/temporal';

const bed = useAgentTestbed();
const fake = bed.fake;

/** Counts the Temporal reads a watcher makes through `handle`: status queries and describes. */
function counted(handle: WorkflowHandle): { handle: WorkflowHandle; queries: () => number; describes: () => number } {
  let queries = 0;
  let describes = 0;
  const query = handle.query.bind(handle);
  const describe = handle.describe.bind(handle);
  const spied = Object.assign(Object.create(Object.getPrototypeOf(handle) as object) as WorkflowHandle, handle, {
    query: ((...args: Parameters<typeof query>) => {
      queries += 1;
      return query(...args);
    }) as typeof query,
    describe: () => {
      describes += 1;
      return describe();
    },
  });
  return { handle: spied, queries: () => queries, describes: () => describes };
}

describe('finding the relay of a parked run', () => {
  it("a watcher in the run's namespace finds it in the history; another namespace finds nothing, and nothing else opens the feed", async () => {
    const task = parkingTask(fake, 'find-parked');
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await waitForApprovals(handle);
      // Nothing is in flight: no heartbeat names the relay.
      expect((await handle.describe()).raw.pendingActivities ?? []).toEqual([]);
      const address = await relayInHistory(handle);
      expect(address?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const feed = (token: string) => fetch(new URL(liveFeedPath(handle.workflowId), address!.url), { headers: { authorization: `Bearer ${token}` } });
      const ok = await feed(address!.token);
      expect(ok.status).toBe(200);
      await ok.body?.cancel();

      // An insider of another namespace, who knows the workflow id, the run id and where the relay is.
      const namespace = uniqueId('live-other');
      const other = await newClient();
      try {
        await other.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
      } finally {
        await other.connection.close();
      }
      const outsider = await newClient(namespace);
      try {
        const theirs = outsider.workflow.getHandle(handle.workflowId);
        const found = await relayInHistory(theirs).catch((error: unknown) => error);
        expect(found === undefined || found instanceof Error).toBe(true);
        // The run's id, what an outsider might have seen in a log or a URL, is no token.
        const runId = (await handle.describe()).runId;
        for (const guess of [runId, handle.workflowId, `${namespace}:${handle.workflowId}`]) {
          const refused = await feed(guess);
          expect(refused.status).toBe(403);
          expect(await refused.text()).not.toContain('waiting_approval');
        }
      } finally {
        await outsider.connection.close();
      }
      await handle.terminate('test over');
    });
  });

  it('a watcher of a parked run takes its status from the relay and sends Temporal no query while the feed lasts; when the feed drops it says so and polls', async () => {
    const task = parkingTask(fake, 'find-fallback');
    // The watchers reach the relay through a proxy this test can cut.
    const relayPort = await freePort();
    const proxy = net.createServer((socket) => {
      const upstream = net.connect(relayPort, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      const drop = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on('error', drop);
      upstream.on('error', drop);
      sockets.add(socket);
    });
    const sockets = new Set<net.Socket>();
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      await withAgentWorker({ ...bed.harness(), env: { AGENT_LIVE_RELAY: `127.0.0.1:${relayPort}`, AGENT_LIVE_RELAY_URL: proxyUrl } }, async ({ start }) => {
        const run = await start({ agent: 'general', task });
        const parked = await waitForApprovals(run);
        const watcher = counted(run);
        const said: string[] = [];
        const feed = new RunFeed(watcher.handle, { onText: () => undefined, onFallback: (why) => said.push(why) });
        try {
          const first = await feed.next();
          expect(first && 'status' in first && first.status.phase).toBe('waiting_approval');
          expect(feed.via).toBe('relay');
          // Parked for a while: the relay has the feed, the watcher asks Temporal nothing.
          const queriesBefore = watcher.queries();
          const describesBefore = watcher.describes();
          await new Promise((resolve) => setTimeout(resolve, 3_000));
          expect(watcher.queries()).toBe(queriesBefore);
          expect(watcher.describes()).toBe(describesBefore);
          expect(queriesBefore).toBe(0);

          // The decision's effects come pushed.
          await run.signal(approvalSignal, { callId: parked.pendingApprovals[0]!.callId, decision: 'approve', approver: 'test' });
          await waitFor(async () => {
            const reading = await feed.next();
            return reading && 'status' in reading && reading.status.decisions.length > 0 ? true : undefined;
          }, 'the decision pushed', 30_000);
          expect(watcher.queries()).toBe(0);
        } finally {
          await feed.close();
        }

        // A second watcher, then the way to the relay is cut: it says so and reads Temporal again.
        const run2 = await start({ agent: 'general', task: parkingTask(fake, 'find-fallback-2') });
        await waitForApprovals(run2);
        const second = counted(run2);
        const said2: string[] = [];
        const feed2 = new RunFeed(second.handle, { onText: () => undefined, onFallback: (why) => said2.push(why) });
        try {
          await feed2.next();
          expect(feed2.via).toBe('relay');
          for (const socket of sockets) socket.destroy();
          proxy.close();
          await waitFor(async () => (said2.length > 0 ? true : undefined), 'the watcher saying the feed dropped', 30_000);
          expect(said2[0]).toMatch(/live feed .*(dropped|ended)/i);
          await waitFor(async () => {
            const reading = await feed2.next();
            return reading && 'status' in reading && feed2.via === 'poll' ? true : undefined;
          }, 'a polled status', 30_000);
          expect(second.queries()).toBeGreaterThan(0);
        } finally {
          await feed2.close();
        }
        expect(said).toEqual([]);
        await run2.terminate('test over');
      });
    } finally {
      proxy.close();
    }
  });

  it('a client without the encryption key cannot read the relay from the history', async () => {
    const key = `k1:${randomBytes(32).toString('base64')}`;
    const task = parkingTask(fake, 'find-encrypted');
    await withAgentWorker({ ...bed.harness(), env: { AGENT_ENCRYPTION_KEY: key } }, async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      await waitForApprovals(handle);
      // With the key (the worker's client), the address is there ...
      const token = (await relayInHistory(handle))?.token;
      expect(token).toBeDefined();
      // ... without it, the history's payloads say nothing.
      const plain = await newClient();
      try {
        const history = await plain.workflow.getHandle(handle.workflowId).fetchHistory();
        const bytes = Buffer.from(temporal.api.history.v1.History.encode(history).finish()).toString('latin1');
        expect(bytes).not.toContain(token!);
        expect(bytes).not.toContain('127.0.0.1');
        expect(await relayInHistory(plain.workflow.getHandle(handle.workflowId))).toBeUndefined();
      } finally {
        await plain.connection.close();
      }
      await handle.terminate('test over');
    });
  });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
