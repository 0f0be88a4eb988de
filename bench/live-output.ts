// Live output latency: from a piece of the model's text leaving the (fake) Messages API to the real
// `agentctl run` showing it on stdout. The text travels in the model activity's heartbeat details
// (throttled to one per 500 ms by the worker) and the CLI polls them, so this measures that path end
// to end. Both clocks are this machine's.
//
//   npm run bench:live-output -- [--runs 5]
import { startAgentctl } from '../test/client/agentctl-process';
import { reply, startFakeAnthropic, text, toolCall } from '../test/support/fake-anthropic';
import { benchWorker, ms, percentile, report, sizeArg, startBenchEnv, table, uniqueId } from './support/bench-env';

const RUNS = sizeArg('runs', 5);
const SENTENCE = 'The model writes this sentence a few characters at a time, and the terminal shows it as it comes. ';
const STREAMED = SENTENCE.repeat(2).trim();
/** ~200 characters in pieces of 6, 120 ms apart: about 4 s of streaming per run. */
const PIECE_CHARS = 6;
const PIECE_GAP_MS = 120;

async function run(): Promise<void> {
  const fake = await startFakeAnthropic();
  const env = await startBenchEnv();
  const worker = await benchWorker(env, fake.baseUrl);
  const running = worker.worker.run();
  const delays: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const task = uniqueId('live');
      fake.script(task, [
        reply(text(STREAMED), toolCall('list_files', {})).chunked(PIECE_CHARS, PIECE_GAP_MS),
        reply(toolCall('complete_task', { summary: 'streamed', status: 'success' })),
      ]);
      const cli = startAgentctl(['run', 'general', task, '--id', uniqueId('live-run')], { TEMPORAL_ADDRESS: env.server.address, TEMPORAL_TASK_QUEUE: worker.taskQueue });
      // When each prefix of the text reached stdout.
      const seen: { at: number; chars: number }[] = [];
      cli.child.stdout!.on('data', () => {
        const out = cli.stdout();
        const start = out.indexOf('💬 ');
        if (start >= 0) seen.push({ at: Date.now(), chars: out.slice(start + 3).split('\n')[0]!.replace(/^… /, '').length });
      });
      const result = await cli.done;
      if (result.code !== 0) throw new Error(`agentctl run exited ${result.code}:\n${result.stderr}`);
      let sent = 0;
      for (const piece of fake.requestsFor(task)[0]!.textSentAt) {
        sent += piece.text.length;
        const shown = seen.find((s) => s.chars >= sent);
        if (shown) delays.push(shown.at - piece.at);
      }
    }
  } finally {
    worker.worker.shutdown();
    await running;
    await worker.close();
    await env.close();
    await fake.close();
  }
  report(
    'live-output',
    `npm run bench:live-output -- --runs ${RUNS}`,
    [
      `${RUNS} runs, each streaming ${STREAMED.length} characters in pieces of ${PIECE_CHARS}, ${PIECE_GAP_MS} ms apart; delay from a piece leaving the fake API to \`agentctl run\` printing it.`,
      '',
      table(['pieces', 'p50 ms', 'p95 ms', 'max ms'], [[delays.length, ms(percentile(delays, 50), 0), ms(percentile(delays, 95), 0), ms(Math.max(...delays), 0)]]),
    ].join('\n'),
  );
}

run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
