// What a library user installs and loads: each tarball given (default: `npm pack` of this checkout)
// is installed with zod alone into a fresh project outside the repository, then the size of its
// node_modules, the number of packages in its lockfile and the cold `require` time of each entry
// (a fresh node process per sample; the median) are printed as a table.
//
//   npm run bench:install -- [--samples 5] [path/to/before.tgz path/to/after.tgz ...]
//
// Compare two versions by packing each (`npm pack` in a checkout of each) and passing both tarballs.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const REPO = path.join(__dirname, '..');
const ENTRIES = ['durable-agent', 'durable-agent/client', 'durable-agent/testing'];

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, timeout: 900_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

function argValue(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

async function measure(tarball: string, samples: number): Promise<{ mb: number; packages: number; load: Record<string, number> }> {
  const project = await mkdtemp(path.join(tmpdir(), 'bench-install-'));
  try {
    await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'bench-install', version: '1.0.0', private: true }));
    const zod = (JSON.parse(await readFile(path.join(REPO, 'node_modules', 'zod', 'package.json'), 'utf8')) as { version: string }).version;
    await run('npm', ['install', tarball, `zod@${zod}`, '--prefer-offline', '--no-audit', '--no-fund'], project);
    const kb = Number((await run('du', ['-sk', 'node_modules'], project)).split('\t')[0]);
    const lock = JSON.parse(await readFile(path.join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    const packages = Object.keys(lock.packages).filter((key) => key !== '').length;
    const load: Record<string, number> = {};
    for (const entry of ENTRIES) {
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const script = `const t = process.hrtime.bigint(); require(${JSON.stringify(entry)}); console.log(Number(process.hrtime.bigint() - t) / 1e6);`;
        times.push(Number((await run(process.execPath, ['-e', script], project)).trim()));
      }
      times.sort((a, b) => a - b);
      load[entry] = times[Math.floor(times.length / 2)]!;
    }
    return { mb: kb / 1024, packages, load };
  } finally {
    await rm(project, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const samples = argValue('samples', 5);
  let tarballs = process.argv.slice(2).filter((arg, i, all) => arg.endsWith('.tgz') && all[i - 1] !== '--samples').map((file) => path.resolve(file));
  let packed: string | undefined;
  if (tarballs.length === 0) {
    packed = await mkdtemp(path.join(tmpdir(), 'bench-pack-'));
    await run('npm', ['pack', '--pack-destination', packed], REPO);
    tarballs = (await readdir(packed)).filter((name) => name.endsWith('.tgz')).map((name) => path.join(packed!, name));
  }
  const rows: string[] = [];
  for (const tarball of tarballs) {
    const { mb, packages, load } = await measure(tarball, samples);
    rows.push(`| ${path.basename(tarball)} | ${mb.toFixed(0)} MB | ${packages} | ${ENTRIES.map((entry) => `${load[entry]!.toFixed(0)} ms`).join(' | ')} |`);
  }
  console.log(`| tarball | node_modules | packages | ${ENTRIES.map((entry) => `require('${entry}')`).join(' | ')} |`);
  console.log(`| --- | --- | --- | ${ENTRIES.map(() => '---').join(' | ')} |`);
  for (const row of rows) console.log(row);
  console.log(`\n(npm install <tarball> zod in a fresh project; cold require: median of ${samples} fresh node processes)`);
  if (packed) await rm(packed, { recursive: true, force: true });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
