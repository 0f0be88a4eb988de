/**
 * Variables whose value changes what a later command runs, how bash reads the rest of the line, or
 * which configuration a program loads. Setting one (by assignment, `export`, `read`, `printf -v`, a
 * `for` loop, `env NAME=...`) makes the line ask: under `printf *` and `cat *`,
 * `printf -v 'BASH_CMDS[cat]' %s /bin/bash; cat -c '...'` runs bash (issue 30). Each entry says why.
 */

/** Exact names, with the reason a person must see. */
const NAMES: Readonly<Record<string, string>> = {
  // bash itself
  BASH_CMDS: "is bash's table of command paths: an entry makes a command name run another program",
  BASH_ALIASES: 'defines aliases, which bash expands in POSIX mode',
  PATH: 'decides which program a command name runs',
  EXECIGNORE: 'makes bash skip programs when it looks a command name up, so the name runs a later one',
  CDPATH: 'decides where `cd DIR` goes, so later relative paths point elsewhere',
  HOME: 'decides where `cd` and `~` go and where programs read their start-up files',
  IFS: 'changes how bash splits words',
  PS0: 'is expanded by bash, running any $(...) in it',
  PS1: 'is expanded by bash, running any $(...) in it',
  PS2: 'is expanded by bash, running any $(...) in it',
  PS3: 'is expanded by bash, running any $(...) in it',
  PS4: 'is expanded before every traced command (set -x), running any $(...) in it',
  PROMPT_COMMAND: 'is a command bash runs before a prompt',
  BASH_ENV: 'names a script every non-interactive bash started later runs first',
  ENV: 'names a script sh and bash in POSIX mode run first',
  SHELLOPTS: 'sets the options bash processes started later run with',
  BASHOPTS: 'sets the shopt options bash processes started later run with',
  BASH_LOADABLES_PATH: 'is where `enable -f` loads builtins from',
  BASH_COMPAT: 'changes how bash behaves',
  BASH_XTRACEFD: 'sends traces to another descriptor',
  GLOBIGNORE: 'changes which files a glob expands to',
  FUNCNEST: 'changes how deeply functions may nest',
  POSIXLY_CORRECT: 'turns on POSIX mode, in which bash expands aliases',
  histchars: 'changes the characters of history expansion',
  SHELL: 'is the shell other programs start commands with',
  // the dynamic loader and the C library
  GCONV_PATH: 'makes the C library load character-set modules (code) from a folder',
  GLIBC_TUNABLES: 'changes how the C library runs every program',
  LOCPATH: 'makes the C library load locale data from a folder',
  NLSPATH: 'makes programs load message catalogues from a folder',
  // programs that run another program or load configuration named by a variable
  PAGER: 'is the program many tools (man, git, psql) show output with',
  MANPAGER: 'is the program man shows pages with',
  MANOPT: 'adds options to man (-P runs a pager command)',
  EDITOR: 'is the program tools start to edit text',
  VISUAL: 'is the program tools start to edit text',
  BROWSER: 'is the program tools start to open a page',
  TAR_OPTIONS: 'adds options to tar (--to-command runs a program)',
  TAPE: 'names the archive tar uses by default, which may be remote (host:file, reached by running rsh)',
  ZIPOPT: 'adds options to zip (-TT runs a program)',
  UNZIP: 'adds options to unzip',
  GZIP: 'adds options to gzip',
  MFLAGS: 'adds options to make',
  GNUMAKEFLAGS: 'adds options to make',
  SSH_ASKPASS: 'is a program ssh runs to ask for a password',
  SSH_ASKPASS_REQUIRE: 'makes ssh run its askpass program',
  SUDO_ASKPASS: 'is a program sudo runs to ask for a password',
  GNUPGHOME: 'is where gpg reads its configuration (which can name programs)',
  WGETRC: 'names the configuration file wget reads',
  CURL_HOME: 'is where curl reads its configuration file',
  INPUTRC: 'names the readline configuration file',
  NODE_OPTIONS: 'adds options to every node process (--require loads code)',
  NODE_PATH: 'is where node looks for modules',
  NODE_REPL_EXTERNAL_MODULE: 'names a module node loads instead of its REPL',
  JAVA_TOOL_OPTIONS: 'adds options (-javaagent loads code) to every Java program',
  _JAVA_OPTIONS: 'adds options to every Java program',
  JDK_JAVA_OPTIONS: 'adds options to the java launcher',
  CLASSPATH: 'is where Java loads classes from',
  PHPRC: 'names the php.ini php loads (auto_prepend_file runs code)',
  PHP_INI_SCAN_DIR: 'names a folder of php.ini files php loads',
  VIMINIT: 'is run by vim as commands on start',
  EXINIT: 'is run by ex and vi as commands on start',
};

/** Families of names, each with the names in it that are known to be harmless. */
const PREFIXES: ReadonlyArray<{ prefix: string; why: string; except?: readonly string[]; anyCase?: boolean }> = [
  { prefix: 'LD_', why: 'changes which libraries every program loads (LD_PRELOAD runs code)' },
  { prefix: 'BASH_FUNC_', why: 'defines a function in every bash started later' },
  {
    prefix: 'GIT_',
    why: 'changes what git runs or which repository and configuration it reads (GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_DIR, GIT_CONFIG_*)',
    except: ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_AUTHOR_DATE', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_COMMITTER_DATE', 'GIT_TERMINAL_PROMPT', 'GIT_OPTIONAL_LOCKS', 'GIT_FLUSH', 'GIT_MERGE_VERBOSITY'],
  },
  { prefix: 'LESS', why: 'changes what less runs (LESSOPEN runs an input filter) or the options it takes' },
  { prefix: 'MAKE', why: 'adds options or makefiles to make' },
  { prefix: 'PYTHON', why: 'changes where Python loads code from or what it runs on start', except: ['PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'PYTHONIOENCODING', 'PYTHONHASHSEED', 'PYTHONUTF8'] },
  { prefix: 'PERL', why: 'adds options (-M loads code) or library folders to perl' },
  { prefix: 'RUBY', why: 'adds options (-r loads code) or library folders to ruby' },
  { prefix: 'LUA_', why: 'makes lua run code on start (LUA_INIT) or load modules from a folder' },
  { prefix: 'OPENSSL_', why: 'names the configuration or engines openssl loads' },
  { prefix: 'XDG_CONFIG_', why: 'is where programs (git among them) read their configuration' },
  { prefix: 'npm_config_', why: 'sets npm configuration (script-shell, node-options) that runs programs', anyCase: true },
];

/** Why setting `name` must be seen by a person, or undefined for an ordinary variable. */
export function dangerousVariable(name: string): string | undefined {
  const own = Object.hasOwn(NAMES, name) ? NAMES[name] : undefined;
  if (own !== undefined) return own;
  const family = PREFIXES.find((entry) => (entry.anyCase === true ? name.toLowerCase() : name).startsWith(entry.prefix) && entry.except?.includes(name) !== true);
  return family?.why;
}
