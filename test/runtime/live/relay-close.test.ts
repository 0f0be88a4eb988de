// The relay reads Temporal for its watchers (the status, the heartbeat). The worker closes the
// client's connection right after the relay, and the client retries a call the server turned away
// from a timer: a retry on a closed connection throws where nobody can catch it (it ended `npm start`
// with exit code 1 under load). So closing the relay waits for every read it started, also those of a
// run whose last watcher has gone. Without Temporal: the client here is a stand-in that answers late.
import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@temporalio/client';
import { liveFeedPath } from '../../../src/contract/live-feed';
import { LiveRelay } from '../../../src/runtime/live/live-relay';
import { runStatus } from '../../support/status-factory';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client whose status query answers after `answerMs`; `settled` lists the workflow ids of the reads that ended. */
function lateClient(answerMs: number) {
  const reads = { started: 0, settled: [] as string[] };
  const client = {
    options: { loadedDataConverter: undefined },
    withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn(),
    workflow: {
      getHandle: (workflowId: string) => ({
        query: async () => {
          reads.started += 1;
          await sleep(answerMs);
          reads.settled.push(workflowId);
          return runStatus({ workflowId, phase: 'running' });
        },
        describe: async () => {
          throw new Error('not read here');
        },
      }),
    },
  } as unknown as Client;
  return { client, reads };
}

describe('closing the live relay', () => {
  let relay: LiveRelay | undefined;
  afterEach(async () => {
    await relay?.close();
  });

  it('waits for the reads it started, of watched runs and of runs whose last watcher has gone', async () => {
    const { client, reads } = lateClient(400);
    relay = await LiveRelay.start({ settings: { listen: { host: '127.0.0.1', port: 0 } }, namespace: 'default', temporal: () => client });
    const open = (workflowId: string) => {
      const stop = new AbortController();
      const { url, token } = relay!.addressFor(workflowId);
      void fetch(`${url}${liveFeedPath(workflowId)}`, { headers: { authorization: `Bearer ${token}` }, signal: stop.signal }).then((res) => res.body?.cancel(), () => undefined);
      return stop;
    };
    open('watched');
    const gone = open('left');
    await sleep(100);
    expect(reads.started).toBe(2);
    // The watcher of `left` goes: the relay drops that run, its read still in flight.
    gone.abort();
    await sleep(50);
    expect(reads.settled).toEqual([]);
    await relay.close();
    relay = undefined;
    expect(reads.settled.sort()).toEqual(['left', 'watched']);
  });
});
