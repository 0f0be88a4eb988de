// Runs the fuzzer of this checkout against the workflow code of another commit, e.g. the code before
// the fixes of issue 31, so the bugs the fuzzer found there can be shown again:
//   npx tsx scripts/fuzz-at.ts 27e1fcd -- --seed 7 --seed 16
//   npx tsx scripts/fuzz-at.ts 27e1fcd -- --schedules 20 --from 1
// It exports that commit's tree into a temporary folder (no worktree is registered), lays this
// checkout's test/workflows/fuzz over it (the harness talks to runs only through the contract and the
// client, so it runs on either code), links node_modules and .temporal, and runs the fuzzer there with
// the arguments after `--`. The folder is kept for the next run of the same commit
// (os.tmpdir()/durable-agent-fuzz-<commit>); delete it when done.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
}

function exportTree(commit: string, into: string, ...paths: string[]): void {
  const archive = execFileSync('git', ['archive', '--format=tar', commit, ...paths], { cwd: root, maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', into], { input: archive });
}

function main(): number {
  const dash = process.argv.indexOf('--');
  const own = dash < 0 ? process.argv.slice(2) : process.argv.slice(2, dash);
  const fuzzArgs = dash < 0 ? [] : process.argv.slice(dash + 1);
  if (own.length !== 1) {
    console.error('usage: npx tsx scripts/fuzz-at.ts <commit> -- <arguments of npm run fuzz>');
    return 2;
  }
  const commit = git('rev-parse', '--verify', `${own[0]}^{commit}`);
  const dir = path.join(tmpdir(), `durable-agent-fuzz-${commit.slice(0, 12)}`);
  if (!existsSync(path.join(dir, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    exportTree(commit, dir);
  }
  // The harness of this checkout, committed or not: copy the working files.
  execFileSync('cp', ['-R', path.join(root, 'test/workflows/fuzz'), path.join(dir, 'test/workflows/')]);
  for (const shared of ['node_modules', '.temporal']) {
    if (!existsSync(path.join(dir, shared))) symlinkSync(path.join(root, shared), path.join(dir, shared));
  }
  console.log(`fuzzing the workflow code of ${commit.slice(0, 12)} in ${dir}`);
  const run = spawnSync(process.execPath, [path.join(root, 'node_modules/.bin/tsx'), 'test/workflows/fuzz/run.ts', ...fuzzArgs], {
    cwd: dir,
    stdio: 'inherit',
  });
  return run.status ?? 2;
}

process.exit(main());
