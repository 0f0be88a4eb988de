// The model's thinking, live: `agentctl run` and `watch` show it dimmed while the model call streams
// (from the call's heartbeat details, like the text), `--no-thinking` hides it, and `--json` emits it
// as `thinking_delta` events. Also: `--model` and `--effort` reach the request.
import { describe, expect, it } from 'vitest';
import { agentctl, startAgentctl } from './agentctl-process';
import { waitFor, withAgentWorker } from '../support/agent-run-harness';
import { useAgentTestbed } from '../support/agent-testbed';
import { reply, text, thinking, toolCall } from '../support/fake-anthropic';
import { temporalAddress, uniqueId } from '../support/temporal';
import type { ThinkingDeltaEvent } from '../../src/client/live-text';

const bed = useAgentTestbed();
const fake = bed.fake;

const THOUGHT = 'First I list the files, then I decide.';
const SENTENCE = 'The model answers slowly, a few characters at a time, so the follower reads the heartbeat. '.repeat(2).trim();
// The text streams for a few seconds after the thinking, so heartbeats carry the thinking while the call runs.
const thinkingScript = (task: string) =>
  fake.script(task, [reply(thinking(THOUGHT), text(SENTENCE), toolCall('list_files', {})).chunked(8, 120), reply(toolCall('complete_task', { summary: 'thought it through', status: 'success' }))]);

describe('live thinking', () => {
  it('agentctl run shows the thinking dimmed, before the text; --no-thinking hides it; --model and --effort reach the request', async () => {
    const task = uniqueId('think');
    const quiet = uniqueId('think-quiet');
    thinkingScript(task);
    thinkingScript(quiet);
    await withAgentWorker(bed.harness(), async ({ taskQueue }) => {
      const env = { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue };
      const shown = await agentctl(['run', 'general', task, '--model', 'claude-opus-4-8', '--effort', 'max'], env);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain(`💭 \x1b[2m${THOUGHT}\x1b[22m`);
      expect(shown.stdout.indexOf('💭')).toBeLessThan(shown.stdout.indexOf('💬'));
      const hidden = await agentctl(['run', 'general', quiet, '--no-thinking'], env);
      expect(hidden.code).toBe(0);
      expect(hidden.stdout).toContain('💬 The model answers');
      expect(hidden.stdout).not.toContain('💭');
      expect(hidden.stdout).not.toContain(THOUGHT);
    });
    for (const request of fake.requestsFor(task)) expect(request.wire).toMatchObject({ model: 'claude-opus-4-8', output_config: { effort: 'max' } });
    expect(fake.requestsFor(quiet)[0]!.wire).not.toHaveProperty('output_config');
  });

  it('watch --json emits the thinking as thinking_delta events on stderr that add up to it', async () => {
    const task = uniqueId('think-json');
    // The answer waits until the watcher follows the run: a watcher that comes once the call is over
    // sees its text in the status, not its thinking, and under load a process takes seconds to start.
    let following: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (following = resolve));
    fake.script(task, [reply(thinking(THOUGHT), text(SENTENCE), toolCall('list_files', {})).chunked(8, 120).until(gate), reply(toolCall('complete_task', { summary: 'thought it through', status: 'success' }))]);
    await withAgentWorker(bed.harness(), async ({ start, taskQueue }) => {
      const handle = await start({ agent: 'general', task });
      const watcher = startAgentctl(['watch', handle.workflowId, '--json'], { TEMPORAL_ADDRESS: temporalAddress(), TEMPORAL_TASK_QUEUE: taskQueue });
      // It says something (on stderr with --json) once it has read the run's status.
      await waitFor(async () => (/\S/.test(watcher.stdout() + watcher.stderr()) || watcher.child.exitCode !== null ? true : undefined), 'the watcher following the run', 60_000);
      following();
      const result = await watcher.done;
      expect(result.code).toBe(0);
      const events = result.stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as ThinkingDeltaEvent)
        .filter((e) => e.type === 'thinking_delta');
      expect(events.map((e) => e.text).join('')).toBe(THOUGHT);
      expect(events.every((e) => e.iteration === 1 && e.attempt === 1)).toBe(true);
    });
  });

  it('agentctl run refuses an effort the API does not know, before starting anything', async () => {
    const result = await agentctl(['run', 'general', 'some task', '--effort', 'extreme'], { TEMPORAL_ADDRESS: '127.0.0.1:1' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('--effort must be one of low, medium, high, xhigh, max (got "extreme")');
  });
});
