// Live output: the real `agentctl` prints the model's text while the model call is still streaming
// (read from the call's heartbeat details, not from history), `--json` emits it as `text_delta`
// events. Also: a follower of a thread run exits once the thread has answered and waits.
import { describe, expect, it } from 'vitest';
import { agentctl, startAgentctl } from './agentctl-process';
import { waitFor, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, text, toolCall } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';
import type { TextDeltaEvent } from '../../src/client/live-text';

const bed = useAgentTestbed();
const fake = bed.fake;

const SENTENCE = 'The model writes this sentence a few characters at a time, and the terminal shows it as it comes. ';
const STREAMED = SENTENCE.repeat(2).trim();
const done = (summary: string) => reply(toolCall('complete_task', { summary, status: 'success' }));

describe('live output', () => {
  it('agentctl run prints the streamed text before the model call finishes', async () => {
    const task = uniqueId('live');
    // ~200 characters in pieces of 6, 120 ms apart: about 4 s of streaming.
    fake.script(task, [reply(text(STREAMED), toolCall('list_files', {})).chunked(6, 120), done('streamed')]);
    await withAgentWorker(bed.harness(), async ({ taskQueue }) => {
      const id = uniqueId('live-run');
      const cli = startAgentctl(['run', 'general', task, '--id', id], { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue });
      // When each prefix of the text reached stdout.
      const seen: { at: number; chars: number }[] = [];
      cli.child.stdout!.on('data', () => {
        const out = cli.stdout();
        const start = out.indexOf('💬 ');
        if (start < 0) return;
        const shown = out.slice(start + 3).split('\n')[0]!.replace(/^… /, '');
        seen.push({ at: Date.now(), chars: shown.length });
      });
      await cli.waitFor(/💬 The model writes/, 30_000);
      const request = await waitFor(async () => fake.requestsFor(task)[0], 'the model request');
      // The first words are on screen while the fake is still sending the reply.
      expect(request.answeredAt).toBeUndefined();
      const result = await cli.done;
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`💬 ${STREAMED}\n`);
      expect(result.stdout).toMatch(/Iteration 1\/\d+\n {2}💬 The model/);

      // Every piece the fake sent reached the screen (how fast is not a test's business; see the
      // issue notes for the measured delay).
      let sent = 0;
      for (const piece of request.textSentAt) {
        sent += piece.text.length;
        expect(seen.some((s) => s.chars >= sent)).toBe(true);
      }
    });
  });

  it('watch --json emits the text as text_delta events on stderr that add up to the reply', async () => {
    const task = uniqueId('live-json');
    // Sent over 5 s: `agentctl watch` is a process of its own, and on a loaded machine it may take
    // seconds to attach; it must still see the reply arrive in pieces.
    fake.script(task, [reply(text(STREAMED), toolCall('list_files', {})).chunked(10, 500), done('streamed')]);
    await withAgentWorker(bed.harness(), async ({ start, taskQueue }) => {
      const handle = await start({ agent: 'general', task });
      const result = await agentctl(['watch', handle.workflowId, '--json'], { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue });
      expect(result.code).toBe(0);
      const events = result.stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as TextDeltaEvent);
      expect(events.length).toBeGreaterThan(1);
      expect(events.every((e) => e.type === 'text_delta' && e.workflowId === handle.workflowId && e.iteration === 1 && e.attempt === 1)).toBe(true);
      expect(events.map((e) => e.text).join('')).toBe(STREAMED);
      // stdout keeps only the final outcome.
      expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'completed', result: { completion: { summary: 'streamed' } } });
      // Nothing per token in history: the reply is one activity result, as before.
      const history = await handle.fetchHistory();
      const heartbeatsInHistory = JSON.stringify(history).split('The model writes').length - 1;
      expect(heartbeatsInHistory).toBeLessThanOrEqual(1);
    });
  });

  it('agentctl run --follow-ups exits once the thread has answered and waits for the next message', async () => {
    const task = uniqueId('thread-follow');
    fake.script(task, [done('first answer')]);
    await withAgentWorker(bed.harness(), async ({ client, taskQueue }) => {
      const id = uniqueId('thread-run');
      const result = await agentctl(['run', 'general', task, '--follow-ups', '--id', id], { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('✅ success: first answer');
      expect(result.stdout).toContain(`agentctl send ${id}`);
      // The thread itself is still open.
      const description = await client.workflow.getHandle(id).describe();
      expect(description.status.name).toBe('RUNNING');
      await client.workflow.getHandle(id).terminate('test done');
    });
  });
});
