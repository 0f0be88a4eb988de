// Live updates as server-sent events: one stream for the run list and inbox (the shared watcher's
// snapshots, as this person may act on them) and one per open run view. SSE rather than WebSockets
// because the traffic is one-way (changes go through the JSON routes, with their CSRF checks) and
// the browser reconnects by itself.
import type { Hono } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { inboxItemFor } from '../runs/inbox';
import { loadRunDetail } from '../runs/run-detail';
import type { ConsoleDeps, ConsoleEnv } from './console-context';

/** A comment line now and then keeps proxies and idle timeouts from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

/** Resolves when the client goes away or the console shuts down. */
function ended(stream: SSEStreamingApi, shutdown: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    stream.onAbort(resolve);
    if (shutdown.aborted) resolve();
    shutdown.addEventListener('abort', () => resolve(), { once: true });
  });
}

function sleep(ms: number, until: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), until]).finally(() => clearTimeout(timer));
}

export function addEventRoutes(app: Hono<ConsoleEnv>, deps: ConsoleDeps): void {
  app.get('/api/events', (c) => {
    const { user } = c.get('session');
    return streamSSE(c, async (stream) => {
      const done = ended(stream, deps.shutdown);
      const unsubscribe = deps.watcher.subscribe((snapshot) => {
        const view = { at: snapshot.at, user, runs: snapshot.runs, inbox: snapshot.inbox.map((e) => inboxItemFor(e, user)) };
        void stream.writeSSE({ event: 'snapshot', data: JSON.stringify(view) });
      });
      try {
        while (!stream.aborted && !deps.shutdown.aborted) {
          await sleep(KEEPALIVE_MS, done);
          if (!stream.aborted && !deps.shutdown.aborted) await stream.write(': keepalive\n\n');
        }
      } finally {
        unsubscribe();
      }
    });
  });

  app.get('/api/runs/:id/events', (c) => {
    const workflowId = c.req.param('id');
    return streamSSE(c, async (stream) => {
      const done = ended(stream, deps.shutdown);
      let last = '';
      let quietSince = Date.now();
      while (!stream.aborted && !deps.shutdown.aborted) {
        const read = loadRunDetail(deps.client, workflowId, { uiBaseUrl: deps.uiBaseUrl, knownRuns: deps.watcher.latest()?.runs, pricing: deps.pricing }).then(
          (detail) => ({ event: 'run', data: { ...detail, followUp: deps.followUp.supports(detail.status) } }),
          (error: unknown) => ({ event: 'run-error', data: { message: error instanceof Error ? error.message : String(error) } }),
        );
        // A read outlives the page that asked for it (a query the server refused for load is retried
        // on a timer): the console's stop waits for it, so its client is not closed under that timer,
        // whose retry would then throw "Channel has been shut down" where nobody can catch it.
        deps.reads.add(read);
        const payload = await read.finally(() => deps.reads.delete(read));
        const json = JSON.stringify(payload.data);
        if (json !== last) {
          last = json;
          quietSince = Date.now();
          await stream.writeSSE({ event: payload.event, data: json });
        }
        // A closed run changes no more: poll it rarely once it has been quiet for a while.
        const closed = payload.event === 'run' && (payload.data as { execution: string }).execution !== 'RUNNING';
        await sleep(closed && Date.now() - quietSince > 5_000 ? 5_000 : deps.runPollMs, done);
      }
    });
  });
}
