import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { type Command } from '../../client/cli-context';
import { stringFlag } from '../../client/approval-helpers';
import { UsageError } from '../../client/errors';
import { hashPassword } from '../../console/auth/password-hash';
import { consoleOptionsFrom } from '../../console/console-options';
import { loadAndStartConsole } from '../../console/load-console';

function portFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a port number (got "${value}")`);
  return port;
}

/** Reads one line from stdin, for a password that must not appear in the shell history. */
async function readLine(ctx: Parameters<Command['run']>[0]): Promise<string> {
  if (ctx.stdin.isTTY) process.stderr.write('Password: ');
  const lines = createInterface({ input: ctx.stdin });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  return line;
}

/**
 * `agentctl console`: the approval console, a web page on loopback with the inbox of parked calls
 * and questions, live runs, and start/cancel/resume. Runs until Ctrl-C.
 */
export const consoleCommand: Command = {
  name: 'console',
  usage:
    'agentctl console [--port P] [--host H] [--users FILE] [--workspace DIR] [--ui-url URL] [--filter QUERY]\n' +
    '       agentctl console --hash-password      (reads a password on stdin, prints the hash for a users file)',
  summary: 'serve the approval console (inbox, live runs) on loopback',
  async run(ctx) {
    if (ctx.args.flags['hash-password']) {
      const password = await readLine(ctx);
      if (!password) throw new UsageError('the password is empty');
      ctx.out(await hashPassword(password));
      return 0;
    }
    const options = consoleOptionsFrom({
      host: stringFlag(ctx, 'host'),
      port: portFlag(stringFlag(ctx, 'port')),
      usersFile: stringFlag(ctx, 'users'),
      workspace: stringFlag(ctx, 'workspace'),
      uiBaseUrl: stringFlag(ctx, 'ui-url'),
      filter: stringFlag(ctx, 'filter'),
    }, ctx.clientSettings.console);
    const running = await loadAndStartConsole(options, { client: await ctx.client() });
    ctx.out(`Approval console: ${running.url}`);
    ctx.out(`Start token (logs in as ${running.localUser}): ${running.token}`);
    if (running.users > 0) ctx.out(`Users file: ${options.usersFile} (${running.users} user(s))`);
    if (options.host !== '127.0.0.1' && options.host !== 'localhost' && options.host !== '::1') {
      ctx.out(`Warning: listening on ${options.host}, not only loopback; anyone who reaches it can try to log in. Plain HTTP: put TLS in front.`);
    }
    ctx.out('Press Ctrl-C to stop.');
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
    await running.close();
    ctx.out('Console stopped.');
    return 0;
  },
};
