// The relay's fan-out, without Temporal or sockets: frames made close together reach each watcher in one
// write (a write per piece per watcher was the relay's largest cost with 100 watchers, issue 37), a
// frame after a quiet while at once, in order, and a watcher who joins meanwhile gets each character once.
// And its reading of the status: a status the run pushed stands in for the query a change would ask
// for, and a query's answer that was on its way while a push came does not overwrite the push.
// The same against a real run: live-relay.test.ts ("reads a working run's status from its pushes").
import { afterEach, describe, expect, it } from 'vitest';
import { LiveCalls } from '../../../src/runtime/live/live-calls';
import { FLUSH_MS, WatchedRun, type Subscriber } from '../../../src/runtime/live/watched-run';
import { runStatus } from '../../support/status-factory';

const WORKFLOW = 'wf-fanout';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A watcher that keeps what each write carried. */
function recorder(): Subscriber & { writes: string[]; closed: boolean } {
  const sub = {
    writes: [] as string[],
    closed: false,
    send: (frames: string | Buffer) => void sub.writes.push(frames.toString()),
    close: () => void (sub.closed = true),
  };
  return sub;
}

/** The text of every `text` frame a watcher got, in order (frames here are plain JSON, no converter). */
const texts = (writes: string[]) =>
  writes.join('').split('\n\n').filter((f) => f.startsWith('event: text')).map((f) => (JSON.parse(f.slice(f.indexOf('data: ') + 6)) as { text: string }).text);

/** The run under test (each test makes one) and the live calls it reads; both cleared after each test. */
let run: WatchedRun | undefined;
const calls = new LiveCalls();
afterEach(() => {
  run?.dispose();
  calls.clear();
});

describe('WatchedRun fan-out', () => {

  function watched(): WatchedRun {
    run = new WatchedRun({
      workflowId: WORKFLOW,
      calls,
      queryStatus: async () => runStatus({ phase: 'running' }),
      readProgress: async () => undefined,
      frame: async (name, value) => `event: ${name}\ndata: ${JSON.stringify(value)}\n\n`,
      awaitClose: () => new Promise<boolean>(() => undefined),
      gone: () => undefined,
    });
    return run;
  }

  async function joined(r: WatchedRun, sub: Subscriber) {
    r.add(sub, undefined);
    // Its first status, then it is served.
    await sleep(FLUSH_MS * 2);
  }

  it('writes a piece after a quiet while at once, and the pieces that follow within the window together, in order', async () => {
    const r = watched();
    const a = recorder();
    const b = recorder();
    await joined(r, a);
    await joined(r, b);
    await sleep(FLUSH_MS * 2);
    const before = [a.writes.length, b.writes.length];
    const writer = calls.begin({ workflowId: WORKFLOW, iteration: 1, attempt: 1 });
    for (const piece of ['one ', 'two ', 'three ', 'four']) writer.write('text', piece);
    // The first piece is not held back: nothing was written for a while.
    await sleep(1);
    for (const [sub, had] of [[a, before[0]!], [b, before[1]!]] as const) expect(texts(sub.writes.slice(had))).toEqual(['one ']);
    await sleep(FLUSH_MS * 3);
    for (const [sub, had] of [[a, before[0]!], [b, before[1]!]] as const) {
      // Two writes for four pieces: the first at once, the three made within the window together.
      expect(sub.writes.length - had).toBe(2);
      expect(texts(sub.writes.slice(had))).toEqual(['one ', 'two ', 'three ', 'four']);
    }
  });

  it('gives a watcher who joins while frames are unsent each character once', async () => {
    const r = watched();
    const a = recorder();
    await joined(r, a);
    const writer = calls.begin({ workflowId: WORKFLOW, iteration: 1, attempt: 1 });
    writer.write('text', 'abc');
    const late = recorder();
    r.add(late, undefined);
    writer.write('text', 'def');
    await sleep(FLUSH_MS * 3);
    expect(texts(a.writes).join('')).toBe('abcdef');
    expect(texts(late.writes).join('')).toBe('abcdef');
  });

  it('writes what is unsent before it closes the feeds', async () => {
    const r = watched();
    const a = recorder();
    await joined(r, a);
    calls.begin({ workflowId: WORKFLOW, iteration: 2, attempt: 1 }).write('text', 'last words');
    await r.close({ reason: 'shutting_down', message: 'bye' });
    expect(texts(a.writes)).toEqual(['last words']);
    expect(a.writes.join('')).toContain('event: end');
    expect(a.closed).toBe(true);
  });
});

describe('WatchedRun status reading', () => {

  /** A run whose queries answer what `answer` says, counted, each after `answerAfter` ms. */
  function watched(options: { answerAfter?: number } = {}) {
    const reads = { queries: 0, answer: runStatus({ phase: 'running', iteration: 1 }) };
    run = new WatchedRun({
      workflowId: WORKFLOW,
      calls,
      queryStatus: async () => {
        reads.queries += 1;
        const answer = reads.answer;
        await sleep(options.answerAfter ?? 0);
        return answer;
      },
      readProgress: async () => undefined,
      frame: async (name, value) => `event: ${name}\ndata: ${JSON.stringify(value)}\n\n`,
      awaitClose: () => new Promise<boolean>(() => undefined),
      gone: () => undefined,
    });
    return { run, reads };
  }

  /** A run with one watcher, once `settleMs` have passed (its first status read by then). */
  async function watchedBy(settleMs: number, options: { answerAfter?: number } = {}) {
    const { run: r, reads } = watched(options);
    const a = recorder();
    r.add(a, undefined);
    await sleep(settleMs);
    return { r, reads, a };
  }

  /** The iteration of every `status` frame a watcher got, in order. */
  const iterations = (writes: string[]) =>
    writes.join('').split('\n\n').filter((f) => f.startsWith('event: status')).map((f) => (JSON.parse(f.slice(f.indexOf('data: ') + 6)) as { iteration: number }).iteration);

  it('asks for the status after a change unless the run pushed it (the control: without a push it asks)', async () => {
    const { r, reads, a } = await watchedBy(100);
    expect(reads.queries).toBe(1);

    // A change the run pushed: the push's status goes out, and nothing is asked.
    r.changed();
    r.pushed(runStatus({ phase: 'running', iteration: 2 }));
    await sleep(200);
    expect(reads.queries).toBe(1);
    expect(iterations(a.writes)).toEqual([1, 2]);

    // A change with no push after it (a run armed no more, or running elsewhere): read once, 50 ms on.
    reads.answer = runStatus({ phase: 'running', iteration: 3 });
    r.changed();
    await sleep(200);
    expect(reads.queries).toBe(2);
    expect(iterations(a.writes)).toEqual([1, 2, 3]);
  });

  it('drops the answer of a query that was on its way when a push came', async () => {
    const { r, reads, a } = await watchedBy(250, { answerAfter: 150 });
    expect(iterations(a.writes)).toEqual([1]);

    // A query goes out (the answer it will bring: iteration 1), then the run pushes iteration 2.
    r.changed();
    await sleep(80);
    expect(reads.queries).toBe(2);
    r.pushed(runStatus({ phase: 'running', iteration: 2 }));
    await sleep(300);
    expect(iterations(a.writes)).toEqual([1, 2]);
  });

  it('while the run pushes, asks again only to arm it (every 5 s), not every second', async () => {
    const { r, reads } = await watchedBy(50);
    expect(reads.queries).toBe(1);
    const pushing = setInterval(() => r.pushed(runStatus({ phase: 'running', iteration: 2 })), 100);
    try {
      await sleep(3_000);
      // Without the pushes a running run is read every second: 3 more by now.
      expect(reads.queries).toBe(1);
      await sleep(2_500);
      expect(reads.queries).toBe(2);
    } finally {
      clearInterval(pushing);
    }
  });
});

describe("WatchedRun and the run's end", () => {
  /**
   * A run whose end the test decides (`closes(true)`, as the relay's long poll would say), whose queries
   * answer `reads.answer`, counted; `gone` counted; `signal` is the one the long poll was given.
   */
  function closing() {
    const reads = { queries: 0, gone: 0, answer: runStatus({ phase: 'waiting_approval', iteration: 1 }), signal: undefined as AbortSignal | undefined };
    let closes: (closed: boolean) => void = () => undefined;
    run = new WatchedRun({
      workflowId: WORKFLOW,
      calls,
      queryStatus: async () => {
        reads.queries += 1;
        return reads.answer;
      },
      readProgress: async () => undefined,
      frame: async (name, value) => `event: ${name}\ndata: ${JSON.stringify(value)}\n\n`,
      awaitClose: (signal) => {
        reads.signal = signal;
        return new Promise<boolean>((resolve) => (closes = resolve));
      },
      gone: () => void (reads.gone += 1),
    });
    return { run, reads, closes: (closed: boolean) => closes(closed) };
  }

  /** Each frame's event name, and for a status its phase, for an end its reason. */
  const events = (writes: string[]) =>
    writes.join('').split('\n\n').filter(Boolean).map((f) => {
      const name = /^event: (\w+)/.exec(f)?.[1];
      const data = JSON.parse(f.slice(f.indexOf('data: ') + 6)) as { phase?: string; reason?: string };
      return name === 'status' ? `status ${data.phase}` : name === 'end' ? `end ${data.reason}` : `${name}`;
    });

  it('ends every feed with `closed` after the last status when a run closes without a word (terminated): read once more, then the end', async () => {
    const { run: r, reads, closes } = closing();
    const a = recorder();
    r.add(a, undefined);
    await sleep(100);
    expect(events(a.writes)).toEqual(['status waiting_approval']);
    expect(reads.queries).toBe(1);

    closes(true);
    await sleep(100);
    // The run said nothing more of itself (its status still waits): it is read once more.
    expect(reads.queries).toBe(2);
    expect(events(a.writes)).toEqual(['status waiting_approval', 'end closed']);
    expect(a.closed).toBe(true);
    expect(reads.gone).toBe(1);
  });

  it("takes a pushed status still waiting as the last one, asks nothing more for the end, and gives a watcher who is just joining the status and the end", async () => {
    const { run: r, reads, closes } = closing();
    const a = recorder();
    r.add(a, undefined);
    await sleep(100);
    // The run's last transition pushes `completed`; it closes before the push's settling time is over.
    reads.answer = runStatus({ phase: 'completed', iteration: 1 });
    r.pushed(reads.answer);
    const b = recorder();
    r.add(b, undefined);
    closes(true);
    await sleep(200);
    // One query of b's joining (each new watcher asks), none of the end's.
    expect(reads.queries).toBe(2);
    expect(events(a.writes)).toEqual(['status waiting_approval', 'status completed', 'end closed']);
    expect(events(b.writes)).toEqual(['status completed', 'end closed']);
    expect([a.closed, b.closed]).toEqual([true, true]);
  });

  it('stops its long poll for the end when the relay lets go of the run, and ends nothing when the poll says it did not close', async () => {
    const { run: r, reads, closes } = closing();
    const a = recorder();
    r.add(a, undefined);
    await sleep(100);
    closes(false);
    await sleep(100);
    expect(events(a.writes)).toEqual(['status waiting_approval']);
    expect(a.closed).toBe(false);
    expect(reads.signal?.aborted).toBe(false);
    r.remove(a);
    r.dispose();
    expect(reads.signal?.aborted).toBe(true);
  });
});
