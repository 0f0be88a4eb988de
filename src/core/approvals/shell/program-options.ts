/**
 * Options that make a program run another program (or load code, or write a file the line does not
 * show), one row per program. A rule like `sort *` means "sort files", not "run whatever
 * `--compress-program` names", so a command using one of these asks a person whatever the rules say.
 * Each option's `why` says how it runs a program; it is also what the person reads. The reader is
 * program-options-check.ts; docs/guides/security.md shows the table. Found missing in issue 30:
 * git -O and ext:: URLs, sort, tar, sed, man, zip, rsync, ssh, diff3, awk.
 */

export interface OptionThatRuns {
  /**
   * Spellings: `-x` is a short option (also inside a cluster such as `-ix`, with its value attached
   * or in the next word); `--name` a long one, any abbreviation getopt accepts (`--compress-prog`);
   * `-name` (one dash, several letters) a whole word; `+` any word starting with `+`.
   */
  names: readonly string[];
  why: string;
  /** Only when the option's value matches (`ssh -o ProxyCommand=...`). */
  value?: RegExp;
  /** Only under this subcommand (`git grep -O`). */
  subcommand?: string;
  /** Where a short letter counts in a cluster: anywhere (the default), first (`-cx`), or alone (`-u`). */
  letter?: 'any' | 'first' | 'alone';
}

export interface ProgramRow {
  /** Program names, without their directory; `python3.11` falls back to `python3` and the like. */
  programs: readonly string[];
  /** The program runs commands from sources the analyzer cannot read (its stdin, start-up files): always ask. */
  always?: string;
  options?: readonly OptionThatRuns[];
  /** Short options that take a value, so the letters after one are its value (`-fI` is -f with value I). */
  shortWithValue?: string;
  /** tar's old style: a first word without a dash is a cluster (`tar cIf prog a.tar`). */
  oldStyleFirstWord?: boolean;
  /** Subcommands (the first operand) that run programs. */
  subcommands?: Readonly<Record<string, string>>;
  /** Words that run a program wherever they appear (git's `ext::` URLs). */
  words?: ReadonlyArray<{ pattern: RegExp; why: string }>;
  /** The program's own language is in its words; its reader looks for commands that run programs. */
  language?: 'sed' | 'awk';
  /** An interpreter: with no script operand (or `-`) it reads its program from standard input. */
  stdin?: { shortWithValue: string; longWithValue?: readonly string[]; noProgramNeeded: readonly string[] };
}

const SSH_CONFIG_FILE = { names: ['-F'], value: /^(?!none$)/, why: 'reads a configuration file, which can name a ProxyCommand or LocalCommand' } as const;
const SSH_OPTIONS: readonly OptionThatRuns[] = [
  { names: ['-o'], value: /^\s*proxycommand\b/i, why: 'ProxyCommand runs a local command to reach the host' },
  { names: ['-o'], value: /^\s*(localcommand|permitlocalcommand)\b/i, why: 'LocalCommand runs a local command after connecting' },
  { names: ['-o'], value: /^\s*knownhostscommand\b/i, why: 'KnownHostsCommand runs a local command to list host keys' },
  { names: ['-o'], value: /^\s*(pkcs11provider|securitykeyprovider)\b/i, why: 'PKCS11Provider and SecurityKeyProvider load a library (code)' },
  { names: ['-o'], value: /^\s*xauthlocation\b/i, why: 'XAuthLocation names a program ssh runs' },
  SSH_CONFIG_FILE,
];

export const PROGRAM_ROWS: readonly ProgramRow[] = [
  {
    programs: ['git'],
    subcommands: {
      bisect: 'can run commands given in its words (bisect run)', 'filter-branch': 'can run commands given in its words', 'filter-repo': 'can run commands given in its words',
      submodule: 'can run commands given in its words (foreach) or in .gitmodules', difftool: 'runs a diff program the configuration names', mergetool: 'runs a merge program the configuration names',
      instaweb: 'starts a web server and a browser', 'send-email': 'runs sendmail or an SMTP program (--smtp-server, --to-cmd)', credential: 'runs the credential helpers the configuration names',
      'credential-cache': 'starts a credential daemon', 'credential-store': 'writes credentials to a file', daemon: 'starts a server that runs --access-hook', 'web--browse': 'runs a browser the configuration names',
      'imap-send': 'runs imap.tunnel, a command the configuration names', hook: 'runs a hook script', maintenance: 'schedules jobs (crontab, systemd) and runs gc', shell: 'runs commands given in its words',
      'upload-pack': 'runs uploadpack.packObjectsHook', 'receive-pack': 'runs the repository hooks', 'upload-archive': 'is the server side of archive --remote', 'http-backend': 'is a CGI server',
      p4: 'runs the p4 program', svn: 'runs Subversion programs', cvsimport: 'runs cvs', cvsserver: 'is a server', cvsexportcommit: 'runs cvs', archimport: 'runs tla', 'fsmonitor--daemon': 'starts a daemon',
    },
    options: [
      { names: ['-c'], letter: 'first', why: 'sets configuration, which can name programs git runs (core.pager, core.fsmonitor...)' },
      { names: ['--config-env', '--config'], why: 'sets configuration from the environment, which can name programs git runs' },
      { names: ['--exec-path'], why: 'makes git run its subcommands from another folder' },
      { names: ['-O', '--open-files-in-pager'], why: 'runs its value as a pager command on the matching files' },
      { names: ['-u', '--upload-pack'], letter: 'alone', why: 'runs its value instead of git-upload-pack' },
      { names: ['-u'], subcommand: 'clone', why: 'runs its value instead of git-upload-pack (git clone -u)' },
      { names: ['--receive-pack'], why: 'runs its value instead of git-receive-pack' },
      { names: ['--exec', '-x'], letter: 'alone', why: 'runs a command (rebase --exec) or a remote program (archive --exec)' },
      { names: ['-x'], subcommand: 'rebase', why: 'runs a command after each commit (git rebase -x)' },
      { names: ['--ext-diff', '--textconv'], why: 'runs the diff or text conversion programs the configuration names' },
      { names: ['-w', '--web'], subcommand: 'help', why: 'opens the page in a browser, a program the configuration names' },
      { names: ['--remote'], subcommand: 'archive', why: 'runs git-upload-archive through a transport (ssh, ext::)' },
      { names: ['--output', '-o'], letter: 'first', why: 'writes a file the line shows as no redirection' },
      { names: ['--git-dir', '--work-tree', '-C', '--namespace', '--separate-git-dir'], letter: 'alone', why: 'points git at another repository, whose configuration can run programs' },
      { names: ['--template'], why: 'copies hooks from a template folder into the repository' },
    ],
    words: [{ pattern: /(^|=)[A-Za-z][A-Za-z0-9+.-]*::/, why: 'is a NAME:: URL, which runs the program git-remote-NAME (ext:: runs any command)' }],
  },
  { programs: ['sort'], options: [{ names: ['--compress-program'], why: 'runs the program it names to compress temporary files' }] },
  { programs: ['split'], options: [{ names: ['--filter'], why: 'runs each piece through a shell command' }] },
  {
    programs: ['tar', 'gtar', 'bsdtar'],
    oldStyleFirstWord: true,
    shortWithValue: 'bCfgHKLNTVX',
    options: [
      { names: ['--checkpoint-action'], value: /^exec=/, why: 'with exec= runs a command at each checkpoint' },
      { names: ['-I', '--use-compress-program'], why: 'runs the program it names to (de)compress the archive' },
      { names: ['--to-command'], why: 'runs a command for every file extracted' },
      { names: ['-F', '--info-script', '--new-volume-script'], why: 'runs a script at the end of each volume' },
      { names: ['--rsh-command', '--rmt-command'], why: 'runs the program it names to reach a remote archive' },
      { names: ['-f', '--file'], value: /^[^/]*:/, why: 'names a remote archive (host:file), which tar reaches by running rsh or ssh (write ./file for a local one)' },
    ],
    words: [{ pattern: /^[^-/=][^/=]*:/, why: 'looks like a remote archive (host:file), which tar reaches by running rsh or ssh (write ./file for a local one)' }],
  },
  { programs: ['sed', 'gsed'], options: [{ names: ['-f', '--file'], why: 'reads its script from a file, which cannot be checked' }], shortWithValue: 'el', language: 'sed' },
  {
    programs: ['awk', 'gawk', 'mawk', 'nawk', 'original-awk'],
    shortWithValue: 'Fve',
    language: 'awk',
    options: [
      { names: ['-f', '--file', '-E', '--exec'], why: 'reads its program from a file, which cannot be checked' },
      { names: ['-i', '--include', '-l', '--load'], why: 'loads awk source or a shared library (code) from a file' },
      { names: ['-W'], why: 'passes an implementation option (mawk -W exec reads the program from a file)' },
      { names: ['-D', '--debug'], why: 'starts the debugger, which reads commands from standard input' },
      { names: ['-p', '--profile', '-o', '--pretty-print', '-d', '--dump-variables'], why: 'writes a file the line shows as no redirection' },
    ],
  },
  {
    programs: ['man'],
    options: [
      { names: ['-P', '--pager'], why: 'runs its value as the pager command' },
      { names: ['-H', '--html'], why: 'runs a browser program' },
      { names: ['-C', '--config-file'], why: 'reads a configuration file, which can name the programs man runs' },
      { names: ['-X', '--gxditview'], why: 'runs a viewer program' },
    ],
  },
  {
    programs: ['zip'],
    options: [{ names: ['--unzip-command'], why: 'runs its value to test the archive' }],
    words: [{ pattern: /^-[^-]*TT/, why: 'is -TT, which runs its value to test the archive' }],
  },
  {
    programs: ['rsync'],
    shortWithValue: 'fBT',
    options: [
      { names: ['-e', '--rsh'], why: 'runs its value as the remote shell program' },
      { names: ['--rsync-path'], why: 'runs its value as the rsync at the other end' },
      { names: ['-M', '--remote-option'], why: 'passes options (such as --rsync-path) to the other end' },
      { names: ['--daemon', '--config'], why: 'starts a daemon, whose configuration can run commands' },
      { names: ['--log-file', '--write-batch', '--only-write-batch'], why: 'writes a file the line shows as no redirection' },
    ],
  },
  { programs: ['ssh'], shortWithValue: 'bceilmopBDEFIJLOQRSwW', options: [...SSH_OPTIONS, { names: ['-I'], why: 'loads a PKCS#11 library (code)' }] },
  { programs: ['scp'], shortWithValue: 'cDFiJloPSX', options: [...SSH_OPTIONS, { names: ['-S', '-D'], why: 'runs the program it names for the connection' }] },
  { programs: ['sftp', 'ftp', 'lftp'], always: 'reads commands from its standard input or a batch file (-b), and ! runs a local shell' },
  { programs: ['ssh-keygen'], options: [{ names: ['-D', '-w'], why: 'loads a PKCS#11 or security key provider library (code)' }] },
  { programs: ['ssh-add'], options: [{ names: ['-s', '-S'], why: 'loads a PKCS#11 or security key provider library (code)' }] },
  { programs: ['nc', 'ncat', 'netcat', 'nc.traditional'], options: [{ names: ['-e', '-c', '--exec', '--sh-exec', '--lua-exec'], why: 'runs a program connected to the network socket' }] },
  { programs: ['socat'], words: [{ pattern: /^(exec|system):/i, why: 'is an EXEC: or SYSTEM: address, which runs a program' }] },
  { programs: ['cpio'], options: [{ names: ['--rsh-command'], why: 'runs the program it names to reach a remote archive' }] },
  { programs: ['diff3'], options: [{ names: ['--diff-program'], why: 'runs its value instead of diff' }] },
  {
    programs: ['sdiff'],
    options: [
      { names: ['--diff-program'], why: 'runs its value instead of diff' },
      { names: ['-o', '--output'], why: 'merges interactively, running an editor on commands from standard input' },
    ],
  },
  {
    programs: ['less'],
    shortWithValue: 'bhjkoOpPtTxyz#',
    options: [
      { names: ['+'], why: '+cmd runs less commands on start (! runs a shell command when less has a terminal)' },
      { names: ['-k', '--lesskey-file', '--lesskey-src', '--lesskey-content'], why: 'reads key bindings, which can set LESSOPEN (an input filter command)' },
      { names: ['-o', '-O', '--log-file', '--LOG-FILE'], why: 'writes a file the line shows as no redirection' },
    ],
  },
  { programs: ['vim', 'vi', 'ex', 'view', 'vimdiff', 'rvim', 'nvim', 'gvim', 'evim'], always: 'runs editor commands from its words (-c, +cmd, --cmd, -S), its start-up files and its standard input, and :! runs a shell' },
  { programs: ['ed'], always: 'reads editing commands from its standard input, and ! runs a shell command' },
  { programs: ['emacs', 'emacsclient'], always: 'runs Lisp from its words (--eval, -l, -f) and its start-up files' },
  {
    programs: ['make', 'gmake'],
    shortWithValue: 'CfIjloWE',
    options: [
      { names: ['-E', '--eval'], why: 'evaluates makefile text given in its words, whose recipes run commands' },
      { names: ['-f', '--file', '--makefile'], why: 'reads another makefile, whose recipes run commands' },
    ],
    words: [{ pattern: /^[^-=][^=]*=/, why: 'assigns a make variable, which overrides the makefile (SHELL, CC...) and so what its recipes run' }],
  },
  {
    programs: ['npm', 'pnpm', 'yarn'],
    options: [
      { names: ['--script-shell', '--shell'], why: 'runs package scripts with the program it names' },
      { names: ['--node-options'], why: 'adds node options (--require loads code) to every script' },
      { names: ['--userconfig', '--globalconfig'], why: 'reads an npmrc, which can set script-shell and node-options' },
      { names: ['--git', '--editor', '--browser', '--viewer', '--call', '--onload-script', '--init-module'], why: 'names a program or script npm runs' },
      { names: ['--prefix', '-C'], letter: 'alone', why: 'runs the scripts of another package folder' },
    ],
  },
  {
    programs: ['wget'],
    shortWithValue: 'aABDiIlOoPQRTtUwXY',
    options: [
      { names: ['--use-askpass'], why: 'runs the program it names to ask for credentials' },
      { names: ['-e', '--execute', '--config'], why: 'sets wgetrc commands (use_askpass runs a program)' },
    ],
  },
  { programs: ['openssl'], options: [{ names: ['-engine', '-provider', '-provider-path', '-config', '-keygen_engine'], why: 'loads an engine, a provider or a configuration: a shared library (code)' }] },
  {
    programs: ['gpg', 'gpg2'],
    options: [
      { names: ['--photo-viewer', '--exec-path', '--agent-program', '--dirmngr-program', '--keyboxd-program'], why: 'names a program gpg runs' },
      { names: ['--options', '--homedir', '--load-extension'], why: 'reads another configuration, which can name programs' },
    ],
  },
  {
    programs: ['gcc', 'cc', 'g++', 'c++', 'clang', 'clang++'],
    options: [
      { names: ['-wrapper', '-fplugin', '-specs', '--specs'], why: 'runs its compiler passes through a program, or loads a plugin or specs (which run programs)' },
      { names: ['-B'], letter: 'first', why: 'runs the compiler passes found in the folder it names' },
    ],
    words: [{ pattern: /^@/, why: 'is a response file, whose options cannot be checked' }],
  },
  { programs: ['go'], options: [{ names: ['-exec', '-toolexec'], why: 'runs every test binary or build tool through the program it names' }] },
  {
    programs: ['java'],
    options: [{ names: ['-javaagent', '-agentpath', '-agentlib'], why: 'loads an agent (code) into the program' }],
    words: [
      { pattern: /^-javaagent:|^-agent(path|lib):/, why: 'loads an agent (code) into the program' },
      { pattern: /^-XX:(\+|-)?On(Error|OutOfMemoryError)=/, why: 'runs a command when the program fails' },
      { pattern: /^@/, why: 'is an argument file, whose options cannot be checked' },
    ],
  },
  { programs: ['apt-get', 'apt', 'apt-cache'], options: [{ names: ['-o', '--option', '-c', '--config-file'], why: 'sets APT configuration, whose hooks (Pre-Invoke, Post-Invoke) run commands' }] },
  { programs: ['ldd'], always: 'runs the program it inspects with its own loader, which a crafted program can replace' },
  // zsh scripts are read with bash's grammar (for the commands a reject rule looks for), but zsh runs
  // code the grammar does not show, such as the glob qualifier in `ls *(e:'cmd':)`.
  { programs: ['fish', 'csh', 'tcsh', 'pwsh', 'nu', 'xonsh', 'elvish', 'zsh'], always: 'is a shell whose language the analyzer does not read' },
  { programs: ['tclsh', 'wish'], stdin: { shortWithValue: '', noProgramNeeded: [] } },
  { programs: ['Rscript', 'R'], options: [{ names: ['-e'], why: 'runs R code given in its words' }] },
  { programs: ['groff', 'troff', 'nroff'], options: [{ names: ['-U'], why: 'turns on unsafe mode, in which documents run shell commands (.sy, .pso)' }] },
  {
    programs: ['find'],
    options: [
      { names: ['-exec', '-execdir', '-ok', '-okdir'], why: 'runs a command for every file found' },
      { names: ['-delete'], why: 'deletes every file found' },
      { names: ['-fprint', '-fprint0', '-fprintf', '-fls'], why: 'writes a file the line shows as no redirection' },
    ],
  },
  {
    programs: ['python3', 'python', 'python2', 'pypy3'],
    options: [
      { names: ['-c'], why: 'runs Python code given in its words' },
      { names: ['-i'], why: 'reads Python code from standard input after the script' },
    ],
    stdin: { shortWithValue: 'cmWXQ', longWithValue: ['--check-hash-based-pycs'], noProgramNeeded: ['-m', '-c', '-V', '--version', '-h', '--help', '-?'] },
  },
  {
    programs: ['perl'],
    options: [
      { names: ['-e', '-E'], why: 'runs Perl code given in its words' },
      { names: ['-M', '-m'], why: 'loads a module, and -M text is Perl code (-M"x;system q(id)")' },
      { names: ['-d'], why: 'starts the debugger, which runs Perl from its input' },
    ],
    stdin: { shortWithValue: 'eEMmI', noProgramNeeded: ['-e', '-E', '-v', '-V', '-h'] },
  },
  {
    programs: ['node', 'nodejs'],
    options: [
      { names: ['-e', '--eval', '-p', '--print'], why: 'runs JavaScript given in its words' },
      { names: ['-r', '--require', '--import', '--loader', '--experimental-loader'], why: 'loads a module before the script' },
      { names: ['--env-file', '--env-file-if-exists'], why: 'reads NODE_OPTIONS from a file (--require loads code)' },
      { names: ['-i', '--interactive'], why: 'reads JavaScript from standard input' },
      { names: ['--inspect', '--inspect-brk', '--inspect-wait'], why: 'opens a debugger port, through which anything can run' },
      { names: ['--openssl-config'], why: 'reads an OpenSSL configuration, which can load engines (code)' },
    ],
    stdin: { shortWithValue: 'erpC', longWithValue: ['--require', '--import', '--loader', '--experimental-loader', '--conditions', '--input-type', '--title', '--eval', '--print'], noProgramNeeded: ['-e', '--eval', '-p', '--print', '-v', '--version', '-h', '--help', '--test', '--run', '-c', '--check', '--v8-options'] },
  },
  {
    programs: ['ruby'],
    options: [
      { names: ['-e'], why: 'runs Ruby code given in its words' },
      { names: ['-r'], why: 'loads a library before the script' },
    ],
    stdin: { shortWithValue: 'eErICF', noProgramNeeded: ['-e', '-v', '--version', '-h', '--help'] },
  },
  { programs: ['php'], options: [{ names: ['-r', '-B', '-R', '-E', '-F'], why: 'runs PHP code given in its words' }, { names: ['-d', '-c'], why: 'sets php.ini values (auto_prepend_file runs code)' }] },
  { programs: ['lua', 'luajit'], options: [{ names: ['-e'], why: 'runs Lua code given in its words' }, { names: ['-l'], why: 'loads a library before the script' }] },
  { programs: ['psql'], always: 'runs shell commands through \\! and \\o |cmd in its words, its -f files and its standard input' },
  { programs: ['sqlite3'], always: 'runs shell commands through .shell, .system and .once |cmd in its words, its -init file and its standard input' },
  { programs: ['mysql', 'mariadb'], always: 'runs shell commands through \\! and system in its words and its standard input' },
  { programs: ['tmux', 'screen'], always: 'starts a terminal session that runs the commands it is given' },
  { programs: ['dc'], always: "reads commands from its words, files and standard input, and ! runs a shell command" },
  { programs: ['xdg-open', 'sensible-browser', 'x-www-browser', 'www-browser', 'sensible-editor', 'sensible-pager'], always: 'runs whatever program the system configuration picks for the file' },
];
