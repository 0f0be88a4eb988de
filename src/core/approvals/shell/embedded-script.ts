import { programName } from './command-wrappers';
import type { ShellWord } from '../../../contract/shell-analysis';

/**
 * Commands that take shell code as text: `sh -c '...'`, `eval ...`, `trap '...' EXIT`. The analyzer
 * parses that text too, so `bash -c "rm -rf /"` shows its `rm`. A shell that reads its script from
 * standard input (`curl x | sh`, `sh <<EOF`) runs code nobody can see, and says so.
 */
export type EmbeddedScript = { kind: 'none' } | { kind: 'script'; text: string } | { kind: 'opaque'; problem: string };

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'pdksh', 'ash', 'rbash', 'yash', 'posh']);

const NONE: EmbeddedScript = { kind: 'none' };

export function embeddedScript(words: readonly ShellWord[]): EmbeddedScript {
  const first = words[0];
  if (first === undefined || !first.literal) return NONE;
  const name = programName(first);
  if (SHELLS.has(name)) return shellScript(name, words);
  if (name === 'eval') return evalScript(words);
  if (name === 'trap') return trapScript(words);
  if (name === 'coproc') return opaque('coproc is not supported; run the command directly');
  return NONE;
}

/** `sh [options] -c SCRIPT [name [args]]`, `sh [options] FILE`, or `sh` reading standard input. */
function shellScript(name: string, words: readonly ShellWord[]): EmbeddedScript {
  let index = 1;
  let commandString = false;
  let fromStdin = false;
  while (index < words.length) {
    const word = words[index]!;
    if (!word.literal) return opaque(`the options given to ${name} are computed at run time`);
    const text = word.text;
    if (text === '--' || text === '-') {
      index += 1;
      break;
    }
    if (text === '--help' || text === '--version') return NONE;
    if (text === '--posix') return opaque(`${name} --posix expands aliases, which the script's commands are not read through`);
    if (text.startsWith('--')) {
      index += text === '--rcfile' || text === '--init-file' ? 2 : 1;
      continue;
    }
    if (!/^[-+][A-Za-z]+$/.test(text)) break;
    const risky = text.startsWith('-') ? riskyShellOption(name, text, words[index + 1]?.text) : undefined;
    if (risky !== undefined) return opaque(risky);
    commandString ||= text.includes('c');
    fromStdin ||= text.includes('s');
    // -o and -O take an option name as the next word (`bash -o pipefail -c ...`).
    index += 1 + (text.match(/[oO]/g)?.length ?? 0);
  }
  const operand = words[index];
  if (commandString) {
    if (operand === undefined) return opaque(`${name} -c is given no script`);
    if (!operand.literal) return opaque(`the script given to ${name} -c is computed at run time; pass it as literal text`);
    return { kind: 'script', text: operand.text };
  }
  if (fromStdin || operand === undefined) {
    return opaque(`${name} reads its script from standard input (a pipe, here-document or redirection), which cannot be checked; pass the script with ${name} -c '...' instead`);
  }
  if (!operand.literal) return opaque(`the script file given to ${name} is computed at run time`);
  // `sh script.sh` runs a file: an ordinary command that a rule can allow or reject by name.
  return NONE;
}

/**
 * Options that make the shell read its script differently from how the analyzer read it: history
 * expansion rewrites lines (`!!:s/a/b/`), `-k` turns `cmd NAME=value` words into environment
 * settings, `-i` reads start-up files and expands aliases, and `-O` sets shopt options (extglob...).
 */
function riskyShellOption(name: string, cluster: string, next: string | undefined): string | undefined {
  if (cluster.includes('H')) return `${name} -H turns on history expansion, which rewrites the script's lines before they run`;
  if (cluster.includes('k')) return `${name} -k makes every NAME=value word an environment setting of its command`;
  if (cluster.includes('i')) return `${name} -i is interactive: it reads start-up files and expands aliases and history`;
  if (cluster.includes('O')) return `${name} -O sets a shopt option, which changes how the script is read`;
  if (cluster.includes('o') && /^(histexpand|history|keyword|posix)$/.test(next ?? '')) return `${name} -o ${next} changes how the script is read (history expansion, keyword settings or POSIX-mode aliases)`;
  return undefined;
}

/** `eval` joins its arguments with spaces and runs the result. */
function evalScript(words: readonly ShellWord[]): EmbeddedScript {
  const args = words[1]?.text === '--' ? words.slice(2) : words.slice(1);
  if (args.length === 0) return NONE;
  if (args.some((word) => !word.literal)) return opaque('eval runs text that is computed at run time');
  return { kind: 'script', text: args.map((word) => word.text).join(' ') };
}

/** `trap ACTION SIGNAL...` runs ACTION later; `trap -p`, `trap -l` and `trap - SIGNAL` run nothing. */
function trapScript(words: readonly ShellWord[]): EmbeddedScript {
  let args = words.slice(1);
  if (args[0]?.text === '-p' || args[0]?.text === '-l') return NONE;
  if (args[0]?.text === '--') args = args.slice(1);
  const action = args[0];
  // With a single operand, trap resets that signal rather than setting an action.
  if (action === undefined || args.length < 2 || (action.literal && (action.text === '-' || action.text === ''))) return NONE;
  if (!action.literal) return opaque('trap is given an action that is computed at run time');
  return { kind: 'script', text: action.text };
}

function opaque(problem: string): EmbeddedScript {
  return { kind: 'opaque', problem };
}
