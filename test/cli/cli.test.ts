import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/cli';
import { commands } from '../../src/cli/commands';

/** What `agentctl <argv>` writes to stdout, and its exit code. */
async function run(argv: string[]): Promise<{ code: number; stdout: string }> {
  const out: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  try {
    return { code: await main(argv), stdout: out.join('') };
  } finally {
    write.mockRestore();
  }
}

describe('agentctl help', () => {
  afterEach(() => vi.restoreAllMocks());

  it("lists every verb with its summary, and <verb> --help prints that verb's usage", async () => {
    const help = await run(['help']);
    expect(help.code).toBe(0);
    expect(commands.length).toBeGreaterThan(10);
    for (const command of commands) expect(help.stdout).toMatch(new RegExp(`^  ${command.name} +${command.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    expect(help.stdout).toContain('agentctl <verb> --help');

    for (const command of commands) {
      const usage = await run([command.name, '--help']);
      expect(usage).toEqual({ code: 0, stdout: `${command.usage}\n` });
      expect(command.usage).toContain(`agentctl ${command.name}`);
    }
  });
});
