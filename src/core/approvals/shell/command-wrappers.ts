import type { ShellWord } from '../../../contract/shell-analysis';

/**
 * Commands that run another command given as their arguments (`sudo rm -rf /`, `xargs rm`,
 * `find . -exec rm {} ;`). A reject rule for `rm` must see the `rm` inside them, and the analyzer must
 * see the `sh -c` inside `sudo sh -c '...'`. Pure, like `shell-analysis.ts`: the matcher that uses it
 * runs in workflow code.
 */

/** What a wrapper runs: the inner commands' words, or why they cannot be known before it runs. */
export interface WrappedCommands {
  inner: ShellWord[][];
  /** Set when the wrapper builds its command from text we cannot see as words (`env -S '...'`). */
  opaque?: string;
}

interface WrapperSpec {
  /** False for wrappers that take no options at all: everything after the name is the command. */
  options: boolean;
  /** Short options whose value follows (`-u root` or `-uroot`). */
  shortWithValue?: string;
  /** Long options whose value is the next word unless given as `--name=value`. */
  longWithValue?: readonly string[];
  /** Short options after which nothing is run (`command -v ls` only prints a path). */
  shortWithoutCommand?: string;
  /** Options that hand the wrapper a command line as one string, which it splits itself. */
  splitsString?: { short: string; long: readonly string[] };
  /** `NAME=value` words before the command are environment settings, not the command. */
  assignments?: boolean;
  /** Operands the wrapper takes before the command (the duration of `timeout 5 cmd`). */
  operandsBeforeCommand?: number;
}

const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  sudo: {
    options: true,
    shortWithValue: 'CDcghpRrTtUu',
    longWithValue: ['--chdir', '--chroot', '--close-from', '--command-timeout', '--group', '--host', '--login-class', '--other-user', '--prompt', '--role', '--type', '--user'],
    shortWithoutCommand: 'eKlVv',
    assignments: true,
  },
  doas: { options: true, shortWithValue: 'Cu' },
  env: {
    options: true,
    shortWithValue: 'Cu',
    longWithValue: ['--chdir', '--unset'],
    splitsString: { short: 'S', long: ['--split-string'] },
    assignments: true,
  },
  nice: { options: true, shortWithValue: 'n', longWithValue: ['--adjustment'] },
  nohup: { options: false },
  // The `time` keyword takes -p and assignments (`time X=1 cmd`); GNU /usr/bin/time takes -o and -f.
  time: { options: true, shortWithValue: 'fo', longWithValue: ['--format', '--output'], assignments: true },
  timeout: { options: true, shortWithValue: 'ks', longWithValue: ['--kill-after', '--signal'], operandsBeforeCommand: 1 },
  command: { options: true, shortWithoutCommand: 'vV' },
  builtin: { options: false },
  exec: { options: true, shortWithValue: 'a' },
  xargs: {
    options: true,
    shortWithValue: 'adEILnPs',
    longWithValue: ['--arg-file', '--delimiter', '--max-args', '--max-chars', '--max-procs', '--process-slot-var'],
  },
  stdbuf: { options: true, shortWithValue: 'eio', longWithValue: ['--error', '--input', '--output'] },
  ionice: { options: true, shortWithValue: 'cn', longWithValue: ['--class', '--classdata'], shortWithoutCommand: 'pPu' },
  busybox: { options: false },
  setsid: { options: true },
  chrt: { options: true, operandsBeforeCommand: 1 },
  taskset: { options: true, operandsBeforeCommand: 1 },
  flock: { options: true, shortWithValue: 'Ewc', operandsBeforeCommand: 1 },
  unshare: { options: true },
  fakeroot: { options: true },
  strace: { options: true, shortWithValue: 'abeEIoOpPsSuUX' },
  ltrace: { options: true, shortWithValue: 'aAeEflnopsuX' },
  chroot: { options: true, operandsBeforeCommand: 1 },
  setpriv: { options: true },
  runuser: { options: true, shortWithValue: 'ugG' },
  parallel: { options: true },
  watch: { options: true, shortWithValue: 'nq' },
  script: { options: true, shortWithValue: 'cEIOT' },
  nsenter: { options: true, shortWithValue: 'tSG' },
};

/**
 * Wrappers modelled exactly: what follows their options is the program that runs, and the analyzer
 * lists it as a command of its own, so a rule must allow it too. Every other wrapper (and every
 * program in RUNS_ITS_ARGUMENTS) makes the line ask a person: their option syntax differs between
 * versions, and one misread option is a hidden program.
 */
export const EXACT_WRAPPERS: ReadonlySet<string> = new Set(['env', 'time']);

/** Programs that run their arguments as a command, beyond the WRAPPERS whose options are listed. */
const RUNS_ITS_ARGUMENTS = new Set([
  'su', 'sg', 'newgrp', 'pkexec', 'systemd-run', 'cgexec', 'numactl', 'prlimit', 'setarch', 'linux32', 'linux64',
  'faketime', 'unbuffer', 'rlwrap', 'firejail', 'bwrap', 'proot', 'schroot', 'catchsegv', 'valgrind', 'gdb', 'perf',
  'dbus-run-session', 'xvfb-run', 'torsocks', 'proxychains', 'proxychains4', 'tsp', 'at', 'batch', 'chpst', 'softlimit',
  'envdir', 'setuidgid', 'daemonize', 'start-stop-daemon', 'ssh-agent', 'expect', 'caffeinate', 'trickle', 'ts', 'sem',
]);

/** Whether `name` is a program that runs its arguments as a command (a wrapper), known or not. */
export function isWrapper(name: string): boolean {
  return name in WRAPPERS || RUNS_ITS_ARGUMENTS.has(name) || name === 'find';
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The program's name without its directory: `/usr/bin/sudo` is `sudo`. */
export function programName(word: ShellWord): string {
  return word.text.slice(word.text.lastIndexOf('/') + 1);
}

/** The commands `words` runs through a known wrapper; none when it is not one. */
export function wrappedCommands(words: readonly ShellWord[]): WrappedCommands {
  const first = words[0];
  if (first === undefined || !first.literal) return { inner: [] };
  const name = programName(first);
  if (name === 'find') return { inner: findExecCommands(words) };
  const spec = WRAPPERS[name];
  if (spec === undefined) return RUNS_ITS_ARGUMENTS.has(name) ? innerCommand(name, { options: true }, words) : { inner: [] };
  return innerCommand(name, spec, words);
}

function innerCommand(name: string, spec: WrapperSpec, words: readonly ShellWord[]): WrappedCommands {
  let index = 1;
  while (spec.options && index < words.length) {
    const word = words[index]!;
    if (!word.literal) return { inner: [], opaque: `the options of "${name}" are computed at run time` };
    const text = word.text;
    if (text === '--') {
      index += 1;
      break;
    }
    if (spec.assignments === true && ASSIGNMENT.test(text)) {
      index += 1;
      continue;
    }
    if (text.startsWith('--')) {
      const option = text.split('=')[0]!;
      if (spec.splitsString?.long.includes(option) === true) return splitStringProblem(name, text);
      index += spec.longWithValue?.includes(option) === true && !text.includes('=') ? 2 : 1;
      continue;
    }
    if (!text.startsWith('-')) break;
    // A lone `-` is skipped too: for env it means -i, and no other wrapper takes it as an operand.
    const cluster = readShortCluster(text, spec);
    if (cluster === 'no-command') return { inner: [] };
    if (cluster === 'splits-string') return splitStringProblem(name, text);
    index += cluster === 'value-follows' ? 2 : 1;
  }
  index += spec.operandsBeforeCommand ?? 0;
  return index < words.length ? { inner: [words.slice(index)] } : { inner: [] };
}

/** Reads `-abc` the way getopt does: a letter that takes a value swallows the rest of the cluster. */
function readShortCluster(text: string, spec: WrapperSpec): 'plain' | 'value-follows' | 'no-command' | 'splits-string' {
  for (let position = 1; position < text.length; position += 1) {
    const letter = text[position]!;
    if (spec.splitsString?.short.includes(letter) === true) return 'splits-string';
    if (spec.shortWithoutCommand?.includes(letter) === true) return 'no-command';
    if (spec.shortWithValue?.includes(letter) === true) return position === text.length - 1 ? 'value-follows' : 'plain';
  }
  return 'plain';
}

function splitStringProblem(name: string, option: string): WrappedCommands {
  return { inner: [], opaque: `"${name} ${option}" splits a command line out of one string, which cannot be checked word by word` };
}

/** `find ... -exec CMD ... ;` (also -execdir, -ok, -okdir; `+` ends it too) runs CMD per file. */
function findExecCommands(words: readonly ShellWord[]): ShellWord[][] {
  const found: ShellWord[][] = [];
  let start = -1;
  for (let index = 1; index < words.length; index += 1) {
    const text = words[index]!.text;
    if (start < 0) {
      if (['-exec', '-execdir', '-ok', '-okdir'].includes(text)) start = index + 1;
    } else if (text === ';' || text === '+') {
      if (index > start) found.push(words.slice(start, index));
      start = -1;
    }
  }
  // An unterminated -exec makes find fail before running anything, but it costs nothing to look.
  if (start > 0 && start < words.length) found.push(words.slice(start));
  return found;
}
