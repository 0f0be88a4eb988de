// Ranks where a bench:cpu worker's CPU went, from the .cpuprofile files `--profile DIR` leaves (one
// per thread) and the steady window bench:cpu wrote beside them (window.json): only samples inside
// the window count, so start-up (tsx compiling, the bundle loading) and warm-up stay out.
//
//   npx tsx bench/cpu/profile-summary.ts DIR/1 [--top 25]
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const dir = process.argv[2];
if (!dir) throw new Error('usage: profile-summary.ts DIR [--top N]');
const topAt = process.argv.indexOf('--top');
const TOP = topAt < 0 ? 25 : Number(process.argv[topAt + 1]);
const window = JSON.parse(readFileSync(path.join(dir, 'window.json'), 'utf8')) as { startUs: number; endUs: number; iterations: number };

/** Where a frame's code lives: an npm package, a file of ours, Node's internals, or V8's pseudo-frames. */
function areaOf(url: string, name: string): string {
  if (!url) return `(${name || 'anonymous'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const ours = /\/(src\/.*|bench\/.*)$/.exec(url);
  if (ours) return ours[1]!.replace(/\?.*$/, '');
  if (url.startsWith('node:')) return 'node:internal';
  return url.replace(/^.*\//, '');
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort()) {
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let at = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < window.startUs || at > window.endUs) return;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') return;
    const area = areaOf(frame.url, frame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + delta);
    const fn = `${frame.functionName || '(anonymous)'} ${area}:${frame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + delta);
    total += delta;
  });
  if (total === 0) continue;
  const perIteration = (us: number) => (us / 1000 / window.iterations).toFixed(2);
  console.log(`\n## ${file}: ${perIteration(total)} ms of sampled CPU per iteration (${window.iterations} iterations)\n`);
  console.log('| area (self time) | ms / iteration |\n| --- | --- |');
  for (const [area, us] of [...areas].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`| ${area} | ${perIteration(us)} |`);
  console.log('\n| function (self time) | ms / iteration |\n| --- | --- |');
  for (const [fn, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`| ${fn} | ${perIteration(us)} |`);
}
