/**
 * Environment variables that make a program load or run code before it does what it was asked (a
 * preloaded library, a shell's start-up file, an interpreter's start-up options), or that tell git
 * where to find its configuration and which programs to run. Tool processes never get them: neither
 * AGENT_TOOL_ENV nor an agent's `env` may name one (both are refused with this list), and the tool
 * environment drops them (src/runtime/tools/sandbox/tool-environment.ts). docs/guides/security.md
 * lists them under "What each runtime reads".
 */
export const CODE_LOADING_VARIABLES: readonly string[] = [
  'LD_PRELOAD', 'LD_AUDIT',
  'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'PS4', 'SHELLOPTS', 'BASHOPTS', 'GLOBIGNORE', 'CDPATH',
  'PYTHONSTARTUP', 'PYTHONHOME', 'PYTHONINSPECT',
  'NODE_OPTIONS',
  'PERL5OPT', 'PERL5DB',
  'RUBYOPT',
  'JAVA_TOOL_OPTIONS', 'JDK_JAVA_OPTIONS', '_JAVA_OPTIONS',
  'LESSOPEN', 'LESSCLOSE',
];

/** Git's variables that only say who made a commit; every other `GIT_*` variable is refused. */
const GIT_IDENTITY = new Set(['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_AUTHOR_DATE', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_COMMITTER_DATE']);

/** Whether a variable may never reach a tool process (see CODE_LOADING_VARIABLES). */
export function isCodeLoadingVariable(name: string): boolean {
  if (CODE_LOADING_VARIABLES.includes(name)) return true;
  // Exported bash functions arrive as BASH_FUNC_<name>%%.
  if (name.startsWith('BASH_FUNC_')) return true;
  return name.startsWith('GIT_') && !GIT_IDENTITY.has(name);
}

/** The sentence a refusal gives: which names, why, what to do. `where` names the list (AGENT_TOOL_ENV, an agent's env). */
export function codeLoadingRefusal(where: string, names: readonly string[]): string {
  return (
    `${where} names ${names.join(', ')}: ${names.length === 1 ? 'it makes' : 'they make'} programs load or run code before they start ` +
    '(or tell git which programs to run), so tool processes never get ' + (names.length === 1 ? 'it' : 'them') + '. Remove ' +
    (names.length === 1 ? 'it' : 'them') + ' (docs/guides/security.md lists what tool processes never get).'
  );
}
