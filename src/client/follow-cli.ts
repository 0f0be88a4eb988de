import type { WorkflowHandle } from '@temporalio/client';
import { stringFlag } from './approval-helpers';
import type { CliContext } from './cli-context';
import { followRun } from './follow-run';
import { hintOnPark, promptOnPark } from './follow-prompts';
import type { TextDeltaEvent, ThinkingDeltaEvent } from './live-text';
import { exitCodeOf } from './run-outcome';
import { terminalSafe } from './terminal-safe';

/**
 * `run` and `watch`: follows a run in the terminal, with the model's text as it streams. Prompts for
 * approvals when stdin is a terminal (or with `--interactive`, e.g. answers piped in); otherwise
 * prints the agentctl commands. With `--json` the live lines go to stderr, the model's text as
 * `text_delta` events (one JSON object per line, so a reader can tell them from the human lines,
 * which never start with "{"), and stdout gets only the final outcome as JSON, as before. Ctrl-C
 * stops following; the run itself carries on.
 */
export async function followFromCli(ctx: CliContext, handle: WorkflowHandle): Promise<number> {
  const client = await ctx.client();
  const stream = ctx.json ? process.stderr : ctx.stdout;
  const out = (line: string) => void stream.write(`${line}\n`);
  const interactive = ctx.args.flags.interactive === true || (Boolean(ctx.stdin.isTTY) && !ctx.json);
  // The person answering is the run's user unless named: "always"/"never" are remembered under this name.
  const approver = stringFlag(ctx, 'approver') ?? stringFlag(ctx, 'user') ?? ctx.clientSettings.approver;
  const parked = interactive ? promptOnPark(handle, { input: ctx.stdin, output: stream, approver }, out) : hintOnPark(handle.workflowId, out);
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once('SIGINT', onSigint);
  try {
    const event = (delta: TextDeltaEvent | ThinkingDeltaEvent) => void stream.write(`${terminalSafe(JSON.stringify(delta))}\n`);
    const text = ctx.json ? { onText: event, onThinking: event } : { write: (fragment: string) => void stream.write(fragment) };
    // --no-thinking: the model's thinking is not shown (dimmed text otherwise, thinking_delta events with --json).
    const hideThinking = ctx.args.flags['no-thinking'] === true;
    const { relay, textPollMs } = ctx.clientSettings.watch ?? { relay: true };
    const result = await followRun(client, handle, { out, ...text, ...parked, hideThinking, relay, textPollMs, signal: stop.signal });
    if (result.kind === 'stopped') {
      out(`\nStopped following; the run goes on. Follow it again with: npx agentctl watch ${handle.workflowId}`);
      return 130;
    }
    if (ctx.json) ctx.out(terminalSafe(JSON.stringify(result, null, 2)));
    return exitCodeOf(result);
  } finally {
    process.off('SIGINT', onSigint);
  }
}
