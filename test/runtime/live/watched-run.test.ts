// The relay's fan-out, without Temporal or sockets: frames made close together reach each watcher in one
// write (a write per piece per watcher was the relay's largest cost with 100 watchers, issue 37), a
// frame after a quiet while at once, in order, and a watcher who joins meanwhile gets each character once.
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

describe('WatchedRun fan-out', () => {
  let run: WatchedRun | undefined;
  const calls = new LiveCalls();
  afterEach(() => {
    run?.dispose();
    calls.clear();
  });

  function watched(): WatchedRun {
    run = new WatchedRun({
      workflowId: WORKFLOW,
      calls,
      queryStatus: async () => runStatus({ phase: 'running' }),
      readProgress: async () => undefined,
      frame: async (name, value) => `event: ${name}\ndata: ${JSON.stringify(value)}\n\n`,
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
