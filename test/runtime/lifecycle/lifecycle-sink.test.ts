// The worker side of the lifecycle sink: a handler that throws (or rejects) is reported and skipped;
// the run and every other handler carry on as if it were not there.
import { describe, expect, it, vi } from 'vitest';
import type { LifecycleEvent } from '../../../src/contract/lifecycle-event';
import type { LifecycleHandler } from '../../../src/runtime/lifecycle/lifecycle-handler';
import { waitFor, withAgentWorker } from '../../support/agent-run-harness';
import { useAgentTestbed } from '../../support/agent-testbed';
import { reply, toolCall } from '../../support/fake-anthropic';
import { uniqueId } from '../../support/temporal';

describe('lifecycle handlers', () => {
  const bed = useAgentTestbed();
  const fake = bed.fake;

  it('keep delivering to the other handlers, and the run completes, when one handler throws and another rejects', async () => {
    const task = uniqueId('throwing-handler');
    fake.script(task, [reply(toolCall('list_files', { path: '.' })), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
    const seen = { throwing: 0, rejecting: 0 };
    const delivered: LifecycleEvent[] = [];
    // The failing handlers come first: a throw that escaped would keep the recorder from ever running.
    const handlers: LifecycleHandler[] = [
      {
        handle() {
          seen.throwing += 1;
          throw new Error('handler bug (sync)');
        },
      },
      {
        async handle() {
          seen.rejecting += 1;
          throw new Error('handler bug (async)');
        },
      },
      { handle: (event) => void delivered.push(event) },
    ];
    const reported: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((message: unknown) => void reported.push(String(message)));
    try {
      await withAgentWorker({ ...bed.harness(), lifecycleHandlers: handlers }, async ({ start }) => {
        const handle = await start({ agent: 'general', task });
        expect(await handle.result()).toMatchObject({ status: 'completed', iterations: 2 });
        // Sinks run after each activation; wait for the last event itself.
        await waitFor(async () => (delivered.some((e) => e.name === 'agentEnded') ? true : undefined), 'agentEnded to reach the recorder');
      });
    } finally {
      spy.mockRestore();
    }
    const names = delivered.map((e) => e.name);
    expect(names[0]).toBe('agentStarted');
    expect(names).toEqual(expect.arrayContaining(['iterationStarted', 'toolStarted', 'toolEnded', 'iterationCompleted']));
    expect(names.at(-1)).toBe('agentEnded');
    expect(delivered.at(-1)!.data).toMatchObject({ status: 'completed' });
    // Every event went to every handler, the failing ones included.
    expect(seen.throwing).toBe(delivered.length);
    expect(seen.rejecting).toBe(delivered.length);
    // Each failure was reported, naming the event.
    expect(reported.filter((message) => message.startsWith('lifecycle handler failed on')).length).toBe(2 * delivered.length);
  });

  it('never let a slow handler slow the run: it completes while the handler still works on every event', async () => {
    const task = uniqueId('slow-handler');
    fake.script(task, [reply(toolCall('list_files', { path: '.' })), reply(toolCall('complete_task', { summary: 'done', status: 'success' }))]);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let unfinished = 0;
    const delivered: LifecycleEvent[] = [];
    // The slow handler comes first: awaiting it would hold back the recorder and the run alike.
    const handlers: LifecycleHandler[] = [
      {
        async handle() {
          unfinished += 1;
          await released;
          unfinished -= 1;
        },
      },
      { handle: (event) => void delivered.push(event) },
    ];
    try {
      await withAgentWorker({ ...bed.harness(), lifecycleHandlers: handlers }, async ({ start }) => {
        const handle = await start({ agent: 'general', task });
        expect(await handle.result()).toMatchObject({ status: 'completed', iterations: 2 });
        await waitFor(async () => (delivered.some((e) => e.name === 'agentEnded') ? true : undefined), 'agentEnded to reach the recorder');
        // Every event reached the slow handler, and not one of its calls has finished.
        expect(unfinished).toBe(delivered.length);
      });
    } finally {
      release();
    }
  });
});
