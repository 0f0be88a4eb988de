// The worker's live relay against a real dev server and a model faked at the HTTP level: a late
// subscriber gets the text from the offset it asks for; a watcher without the run's token (or with
// another one) is refused; watchers fall back to polling Temporal when the relay is off or cannot be
// reached; a relay that cannot listen leaves the worker running; and the relay adds nothing of the
// text to the run's history (only its address and the run's token, in the model call's result).
// The relay reads a working run's status from what the run pushes once armed, not by a query per step.
// Finding the relay of a parked run: relay-discovery.test.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WorkflowClient, type WorkflowHandle } from '@temporalio/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveFeedPath, type LiveFeedFrom, type LiveRelayAddress } from '../../../src/contract/live-feed';
import { LiveTextTracker } from '../../../src/client/live-text';
import { RelayRefusedError, relayFeed } from '../../../src/client/relay-feed';
import { RunFeed } from '../../../src/client/run-feed';
import { heartbeatProgress, type HeartbeatProgress } from '../../../src/runtime/live/heartbeat-progress';
import { agentctl } from '../../client/agentctl-process';
import { waitFor, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, text, toolCall } from '../../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../../support/temporal';
import type { TextDeltaEvent } from '../../../src/client/live-text';

const bed = useAgentTestbed();
const fake = bed.fake;

const SENTENCE = 'The relay pushes this sentence to every watcher while the model is still writing it. ';
const STREAMED = SENTENCE.repeat(2).trim();
const LATE_AT = 24;

/** About 170 characters in pieces of 8, 250 ms apart: some 5 s of streaming, then the run completes. */
function streamingTask(prefix: string): string {
  const task = uniqueId(prefix);
  fake.script(task, [reply(text(STREAMED), toolCall('complete_task', { summary: 'streamed', status: 'success' })).chunked(8, 250)]);
  return task;
}

async function progressOf(handle: WorkflowHandle): Promise<HeartbeatProgress | undefined> {
  return heartbeatProgress(await handle.describe(), handle.client.options.loadedDataConverter);
}

/** The heartbeat once it carries at least `chars` characters (and the relay's address, with `relay`). */
function heartbeatWith(handle: WorkflowHandle, chars: number, relay: boolean): Promise<HeartbeatProgress> {
  return waitFor(async () => {
    const progress = await progressOf(handle);
    return progress && progress.chars >= chars && (!relay || progress.relay) ? progress : undefined;
  }, `a heartbeat with ${chars} characters`, 60_000);
}

/** Reads the relay's feed of the run until `want` characters of iteration 1's text are in; returns the pieces. */
async function readFeed(address: LiveRelayAddress, handle: WorkflowHandle, from: LiveFeedFrom | undefined, want: number) {
  const pieces: { offset: number; text: string }[] = [];
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new Error('timed out')), 60_000);
  let have = from?.text ?? 0;
  try {
    for await (const event of relayFeed(address, handle.workflowId, from, handle.client.options.loadedDataConverter, stop.signal)) {
      if (event.type !== 'text' || event.piece.kind !== 'text') continue;
      pieces.push({ offset: event.piece.offset, text: event.piece.text });
      have = event.piece.offset + event.piece.text.length;
      if (have >= want) break;
    }
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
  return pieces;
}

/** Follows the run in this process as `agentctl watch` does, until it ends; the text it showed and how it read it. */
async function follow(handle: WorkflowHandle, relay = true): Promise<{ text: string; via: Set<string>; pushed: string }> {
  const tracker = new LiveTextTracker(handle.workflowId);
  let shown = '';
  /** What came while the feed was the relay's (not from the status at the end). */
  let pushed = '';
  const via = new Set<string>();
  const feed = new RunFeed(handle, {
    tracker,
    relay,
    onText: (delta) => {
      shown += delta.text;
      if (feed.via === 'relay') pushed += delta.text;
    },
  });
  const deadline = Date.now() + 90_000;
  try {
    while (Date.now() < deadline) {
      const reading = await feed.next();
      via.add(feed.via);
      if (!reading || !('status' in reading)) continue;
      // The end of a reply no reading carried comes from the status once the reply is in (as follow-run.ts does).
      shown += tracker.fromStatus(reading.status)?.text ?? '';
      if (['completed', 'failed', 'cancelled'].includes(reading.status.phase)) break;
    }
  } finally {
    await feed.close();
  }
  return { text: shown, via, pushed };
}

/** A loopback port nobody listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

afterEach(() => vi.restoreAllMocks());

/** Counts the relay's status queries of `workflowId`: `watchStatus`, which only a relay sends (a polling watcher sends `status`). */
function countRelayQueries(workflowId: string): { total: () => number } {
  let total = 0;
  type QueryInput = { queryType: string; workflowExecution: { workflowId?: string } };
  const proto = WorkflowClient.prototype as unknown as { _queryWorkflowHandler(input: QueryInput): Promise<unknown> };
  const original = proto._queryWorkflowHandler;
  vi.spyOn(proto, '_queryWorkflowHandler').mockImplementation(function (this: WorkflowClient, input: QueryInput) {
    if (input.workflowExecution.workflowId === workflowId && input.queryType === 'watchStatus') total += 1;
    return original.call(this, input);
  });
  return { total: () => total };
}

describe('live relay', () => {
  it('a late subscriber gets the text from the offset it asks for, and one without an offset gets it all', async () => {
    const task = streamingTask('relay-late');
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      // Late: the call has streamed well past the offset before anybody subscribes.
      const progress = await heartbeatWith(handle, LATE_AT + 16, true);
      const from: LiveFeedFrom = { iteration: progress.iteration!, attempt: progress.attempt, text: LATE_AT, thinking: 0 };
      const [late, whole] = await Promise.all([readFeed(progress.relay!, handle, from, STREAMED.length), readFeed(progress.relay!, handle, undefined, STREAMED.length)]);
      // The first piece is the text so far from the offset, at once, not just what came after subscribing.
      expect(late[0]!.offset).toBe(LATE_AT);
      expect(late[0]!.text.length).toBeGreaterThanOrEqual(16);
      expect(late.map((p) => p.text).join('')).toBe(STREAMED.slice(LATE_AT));
      expect(whole[0]!.offset).toBe(0);
      expect(whole.map((p) => p.text).join('')).toBe(STREAMED);
      // Pieces follow each other without a gap or an overlap.
      for (const pieces of [late, whole]) for (let i = 1; i < pieces.length; i++) expect(pieces[i]!.offset).toBe(pieces[i - 1]!.offset + pieces[i - 1]!.text.length);
      await handle.result();
    });
  });

  it('refuses a watcher without the token, with a wrong one, or with the token of another run', async () => {
    const task = streamingTask('relay-token');
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      const { relay } = await heartbeatWith(handle, 1, true);
      const feedUrl = (workflowId: string) => new URL(liveFeedPath(workflowId), relay!.url);
      const get = (workflowId: string, headers: Record<string, string>) => fetch(feedUrl(workflowId), { headers });

      const none = await get(handle.workflowId, {});
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      const wrong = await get(handle.workflowId, { authorization: `Bearer ${'x'.repeat(relay!.token.length)}` });
      expect(wrong.status).toBe(403);
      // This run's token opens no other run's feed.
      const other = await get(`${handle.workflowId}-other`, { authorization: `Bearer ${relay!.token}` });
      expect(other.status).toBe(403);
      const truncated = await get(handle.workflowId, { authorization: `Bearer ${relay!.token.slice(0, -1)}` });
      expect(truncated.status).toBe(403);
      for (const res of [none, wrong, other, truncated]) {
        expect(res.headers.get('content-type')).toContain('application/json');
        expect(await res.text()).not.toContain('relay pushes');
      }
      // The watcher's side names it a refusal (so it does not try that token again) ...
      const refused = readFeed({ url: relay!.url, token: 'y'.repeat(43) }, handle, undefined, 1);
      await expect(refused).rejects.toBeInstanceOf(RelayRefusedError);
      // ... and the right token gets the feed (so the refusals above are the token's doing).
      const ok = await get(handle.workflowId, { authorization: `Bearer ${relay!.token}` });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toContain('text/event-stream');
      await ok.body?.cancel();
      await handle.result();
    });
  });

  it('a follower takes the text from the relay when it can (the control for the fallbacks below)', async () => {
    const task = streamingTask('relay-on');
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      const followed = await follow(handle);
      expect(followed.text).toBe(STREAMED);
      expect(followed.via.has('relay')).toBe(true);
      // Most of the text was pushed (the start may come by polling, before the relay is found).
      expect(followed.pushed.length).toBeGreaterThan(STREAMED.length / 2);
    });
  });

  it('with AGENT_LIVE_RELAY=off the heartbeat names no relay, and watchers poll Temporal for the text', async () => {
    const task = streamingTask('relay-off');
    await withAgentWorker({ ...bed.harness(), env: { AGENT_LIVE_RELAY: 'off' } }, async ({ start, taskQueue }) => {
      const handle = await start({ agent: 'general', task });
      const progress = await heartbeatWith(handle, 1, false);
      expect(progress.relay).toBeUndefined();
      const [followed, cli] = await Promise.all([
        follow(handle),
        agentctl(['watch', handle.workflowId, '--json'], { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue }),
      ]);
      expect(followed.text).toBe(STREAMED);
      expect([...followed.via]).toEqual(['poll']);
      expect(cli.code).toBe(0);
      const deltas = cli.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as TextDeltaEvent);
      expect(deltas.map((d) => d.text).join('')).toBe(STREAMED);
    });
  });

  it('a relay the watcher cannot reach (AGENT_LIVE_RELAY_URL to a closed port): watchers poll Temporal for the text', async () => {
    const task = streamingTask('relay-unreachable');
    const unreachable = `http://127.0.0.1:${await closedPort()}`;
    await withAgentWorker({ ...bed.harness(), env: { AGENT_LIVE_RELAY_URL: unreachable } }, async ({ start, taskQueue }) => {
      const handle = await start({ agent: 'general', task });
      const progress = await heartbeatWith(handle, 1, true);
      // The heartbeat does advertise the relay: the watchers try it, fail, and fall back.
      expect(progress.relay!.url).toBe(unreachable);
      const [followed, cli] = await Promise.all([
        follow(handle),
        agentctl(['watch', handle.workflowId, '--json'], { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue }),
      ]);
      expect(followed.text).toBe(STREAMED);
      expect(cli.code).toBe(0);
      const deltas = cli.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as TextDeltaEvent);
      expect(deltas.map((d) => d.text).join('')).toBe(STREAMED);
    });
  });

  it('a relay that cannot listen is a warning: the worker runs, and its runs stream through the heartbeat', async () => {
    const squatter = http.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const { port } = squatter.address() as AddressInfo;
    const warn = vi.spyOn(console, 'warn');
    try {
      const task = streamingTask('relay-taken');
      await withAgentWorker({ ...bed.harness(), env: { AGENT_LIVE_RELAY: `127.0.0.1:${port}` } }, async ({ start }) => {
        expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(new RegExp(`live relay cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\).*watchers poll Temporal`));
        const handle = await start({ agent: 'general', task });
        const followed = await follow(handle);
        expect(followed.text).toBe(STREAMED);
        expect([...followed.via]).toEqual(['poll']);
        expect(await handle.result()).toMatchObject({ completion: { summary: 'streamed' } });
      });
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
  });

  it('puts nothing of the text in the history beyond what a run without the relay has', async () => {
    const histories: Record<'relay' | 'off', { json: string; events: string[]; heartbeatDetails: unknown[]; token?: string }> = {} as never;
    for (const mode of ['relay', 'off'] as const) {
      const task = streamingTask(`relay-history-${mode}`);
      await withAgentWorker({ ...bed.harness(), env: mode === 'off' ? { AGENT_LIVE_RELAY: 'off' } : {} }, async ({ start }) => {
        const handle = await start({ agent: 'general', task });
        const progress = await heartbeatWith(handle, 1, mode === 'relay');
        // Watched the whole time, so the relay has a subscriber and pushes every piece.
        const followed = await follow(handle);
        expect(followed.text).toBe(STREAMED);
        // The status says completed a moment before the history does.
        await handle.result();
        const history = await handle.fetchHistory();
        const details: unknown[] = [];
        // Payloads as text (their bytes are UTF-8 JSON here), so the text is found wherever it is.
        const json = JSON.stringify(history, function (this: Record<string, unknown>, key, value: unknown) {
          if (/heartbeatdetails/i.test(key)) details.push(value);
          // Payload data comes as bytes or base64, by how the history was read: as text either way.
          const raw = this[key];
          if (raw instanceof Uint8Array) return Buffer.from(raw).toString('utf8');
          return key === 'data' && typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : value;
        });
        histories[mode] = { json, events: (history.events ?? []).map((e) => String(e.eventType)), heartbeatDetails: details, token: progress.relay?.token };
      });
    }
    const { relay, off } = histories;
    expect(relay.token).toBeDefined();
    // The same activities (workflow tasks may split differently with timing), the same heartbeat
    // details (none: a completed call's heartbeats stay on the server).
    const activities = (events: string[]) => events.filter((e) => ['10', '11', '12'].includes(e));
    expect(activities(relay.events)).toEqual(activities(off.events));
    expect(relay.heartbeatDetails).toEqual(off.heartbeatDetails);
    // The reply is there once, as the activity's result, in both. The relay's address and the run's
    // token are in the model call's result (so a watcher of a parked run finds the relay), once per
    // call, and nowhere else; the feed's path never.
    const count = (json: string) => json.split('The relay pushes this sentence').length - 1;
    expect(count(off.json)).toBeGreaterThanOrEqual(1);
    expect(count(relay.json)).toBe(count(off.json));
    expect(relay.json.split(relay.token!).length - 1).toBe(1);
    // (The payload's JSON sits inside the history's JSON, so its quotes are escaped.)
    expect(relay.json).toContain(`\\"relay\\":{\\"url\\":\\"http://127.0.0.1:`);
    expect(relay.json).toContain(`\\"token\\":\\"${relay.token}\\"}`);
    expect(off.json).not.toContain('\\"relay\\"');
    expect(relay.json).not.toContain('/v1/runs/');
  });

  it("reads a working run's status from its pushes: one query arms the run, not one per step (issue 37)", async () => {
    const task = uniqueId('pushed-status');
    const STEPS = 10;
    fake.script(task, [
      // Streams for a while first, so the watcher finds the relay in the heartbeat and joins early.
      reply(text(STREAMED), toolCall('list_files', {})).chunked(8, 60),
      // Then steps of about 150 ms each, each a model call, a tool call and their transitions.
      ...Array.from({ length: STEPS }, (_, i) => reply(text(`Step ${i + 1} of ${STEPS}.`), toolCall('list_files', {})).chunked(6, 50)),
      reply(toolCall('complete_task', { summary: 'stepped', status: 'success' })),
    ]);
    await withAgentWorker(bed.harness(), async ({ start }) => {
      const handle = await start({ agent: 'general', task });
      const relayQueries = countRelayQueries(handle.workflowId);
      await heartbeatWith(handle, 1, true);
      const seen = new Set<number>();
      let last: string | undefined;
      const feed = new RunFeed(handle, { onText: () => undefined });
      try {
        for (let reading = await feed.next(); reading; reading = await feed.next()) {
          if (!('status' in reading)) continue;
          expect(feed.via).toBe('relay');
          seen.add(reading.status.iteration);
          last = reading.status.phase;
          if (last === 'completed') break;
        }
      } finally {
        await feed.close();
      }
      expect(last).toBe('completed');
      // The watcher saw the run move step by step, though the relay asked for its status at most twice
      // (the query that armed it, and one more if the run outlasted REARM_EVERY_MS); a query per burst
      // of events, as before, made more than one per step.
      expect(seen.size).toBeGreaterThanOrEqual(STEPS / 2);
      console.log(`pushed-status: ${relayQueries.total()} relay queries over ${STEPS + 2} iterations; the watcher saw ${seen.size} iterations`);
      expect(relayQueries.total()).toBeGreaterThanOrEqual(1);
      expect(relayQueries.total()).toBeLessThanOrEqual(2);
      await handle.result();
    });
  });
});
