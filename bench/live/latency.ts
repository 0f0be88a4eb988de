// Live output latency of one `agentctl run`: from each piece of the model's text leaving the (fake)
// Messages API to the CLI printing it on stdout. Both clocks are this machine's.
import { startAgentctl } from '../../test/client/agentctl-process';
import { reply, text, toolCall, type FakeAnthropic } from '../../test/support/fake-anthropic';
import { uniqueId } from '../support/bench-env';

const SENTENCE = 'The model writes this sentence a few characters at a time, and the terminal shows it as it comes. ';
export const STREAMED = SENTENCE.repeat(2).trim();
/** ~200 characters in pieces of 6, 120 ms apart: about 4 s of streaming per run. */
export const PIECE_CHARS = 6;
export const PIECE_GAP_MS = 120;

/** The delay of every piece of one run's streamed reply; a piece never shown counts in `missed`. */
export async function measureRun(fake: FakeAnthropic, address: string, taskQueue: string, clientEnv: NodeJS.ProcessEnv = {}): Promise<{ delays: number[]; missed: number }> {
  const task = uniqueId('live');
  fake.script(task, [
    reply(text(STREAMED), toolCall('list_files', {})).chunked(PIECE_CHARS, PIECE_GAP_MS),
    reply(toolCall('complete_task', { summary: 'streamed', status: 'success' })),
  ]);
  const cli = startAgentctl(['run', 'general', task, '--id', uniqueId('live-run')], { TEMPORAL_ADDRESS: address, TEMPORAL_TASK_QUEUE: taskQueue, ...clientEnv });
  // When each prefix of the text reached stdout.
  const seen: { at: number; chars: number }[] = [];
  cli.child.stdout!.on('data', () => {
    const out = cli.stdout();
    const start = out.indexOf('💬 ');
    if (start >= 0) seen.push({ at: Date.now(), chars: out.slice(start + 3).split('\n')[0]!.replace(/^… /, '').length });
  });
  const result = await cli.done;
  if (result.code !== 0) throw new Error(`agentctl run exited ${result.code}:\n${result.stderr}`);
  const delays: number[] = [];
  let missed = 0;
  let sent = 0;
  for (const piece of fake.requestsFor(task)[0]!.textSentAt) {
    sent += piece.text.length;
    const shown = seen.find((s) => s.chars >= sent);
    if (shown) delays.push(shown.at - piece.at);
    else missed += 1;
  }
  return { delays, missed };
}
