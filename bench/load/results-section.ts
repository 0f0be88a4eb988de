// bench/results/load.md holds the results of two modes of `npm run bench:load`: the zero-latency
// phases (written whole by report()) and the sustained 1,000-run comparison, which lives between two
// markers. Each mode rewrites its own part and keeps the other's.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

const BEGIN = '<!-- bench:load sustained: begin -->';
const END = '<!-- bench:load sustained: end -->';

export const resultsFile = (name: string) => path.join(process.env.BENCH_RESULTS_DIR ?? path.join(__dirname, '..', 'results'), `${name}.md`);

/** The sustained section of a results file, markers included ('' when it has none). */
export function sustainedSection(file: string): string {
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8');
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  return begin >= 0 && end > begin ? text.slice(begin, end + END.length) : '';
}

/** Puts `body` between the markers, replacing the section there or appending one. */
export function writeSustainedSection(file: string, body: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const section = `${BEGIN}\n${body.trim()}\n${END}`;
  const old = sustainedSection(file);
  writeFileSync(file, old ? text.replace(old, section) : `${text.trimEnd()}\n\n${section}\n`);
}

/** Appends a section kept from before a whole-file rewrite. */
export function restoreSustainedSection(file: string, kept: string): void {
  if (!kept || sustainedSection(file)) return;
  writeFileSync(file, `${readFileSync(file, 'utf8').trimEnd()}\n\n${kept}\n`);
}
