import type { Parser } from 'web-tree-sitter';
import { namedChildrenOf, withSyntaxTree, type SyntaxNode } from './bash-parser';
import { unmodelledCommand } from './command-checks';
import { wrappedCommands } from './command-wrappers';
import { embeddedScript } from './embedded-script';
import { describeCommand } from './match-command';
import { readFileRedirect } from './file-redirect';
import type { ShellWord, SimpleCommand } from '../../../contract/shell-analysis';
import { readWord } from './shell-word';
import { describeSyntaxProblems, excerpt } from './syntax-problems';
import { hidesRedirection, testCommandWords } from './test-command-words';
import { unmodelledNode, unusualCharacters } from './unmodelled-syntax';

/** A command run or a file written, in source order: write targets depend on the `cd`s before them. */
export type LineEvent = { kind: 'command'; words: ShellWord[]; repeats: boolean } | { kind: 'write'; target: ShellWord };

export interface CollectedLine {
  commands: SimpleCommand[];
  events: LineEvent[];
  problems: string[];
}

interface Context {
  /** How many scripts-inside-scripts deep we are (`sh -c "eval '...'"` is 2). */
  depth: number;
  /** Inside a loop or function body, where a `cd` may run any number of times. */
  repeats: boolean;
}

const MAX_DEPTH = 8;

/** Node types that hold statements: each child runs as a command of its own. */
const STATEMENT_LISTS = new Set([
  'program', 'list', 'pipeline', 'subshell', 'do_group', 'if_statement', 'elif_clause', 'else_clause',
  'case_statement', 'case_item', 'negated_command', 'command_substitution', 'process_substitution',
]);

/** Node types inside words and expressions; only the substitutions among their children run commands. */
const EXPRESSIONS = new Set([
  'concatenation', 'string', 'raw_string', 'ansi_c_string', 'translated_string', 'number', 'simple_expansion',
  'expansion', 'arithmetic_expansion', 'brace_expression', 'variable_name', 'special_variable_name', 'subscript',
  'array', 'binary_expression', 'unary_expression', 'ternary_expression', 'postfix_expression',
  'parenthesized_expression', 'test_operator', 'variable_assignment', 'variable_assignments', 'heredoc_body',
  'heredoc_start', 'heredoc_end', 'file_descriptor', 'herestring_redirect', 'command_name',
]);

/** Leaves whose text the grammar does not look into; a backquote there is a command it missed. */
const TEXT_LEAVES = new Set(['word', 'string_content', 'heredoc_content', 'extglob_pattern', 'regex']);

/**
 * Walks a command line's syntax tree and lists every simple command in it, wherever it sits. The
 * walk is a whitelist: a node type it does not know is reported as a problem instead of skipped,
 * because a construct we skip could hide a command.
 */
export function collectCommands(parser: Parser, source: string): CollectedLine {
  const collector = new Collector(parser);
  collector.script(source, { depth: 0, repeats: false });
  return { commands: collector.commands, events: collector.events, problems: [...new Set(collector.problems)] };
}

class Collector {
  readonly commands: SimpleCommand[] = [];
  readonly events: LineEvent[] = [];
  readonly problems: string[] = [];

  constructor(private readonly parser: Parser) {}

  script(source: string, context: Context): void {
    if (context.depth > MAX_DEPTH) {
      this.problems.push(`scripts are nested more than ${MAX_DEPTH} deep (sh -c / eval inside each other)`);
      return;
    }
    const unusual = unusualCharacters(source);
    if (unusual !== undefined) this.problems.push(unusual);
    const parsed = withSyntaxTree(this.parser, source, (tree) => {
      this.problems.push(...describeSyntaxProblems(tree.rootNode, source));
      this.visit(tree.rootNode, context);
      return true;
    });
    if (parsed === undefined) this.problems.push(`the command line took too long to parse: "${excerpt(source)}"`);
  }

  private visit(node: SyntaxNode, context: Context): void {
    // Anonymous nodes are keywords and operators; syntax errors were reported for the whole script.
    if (!node.isNamed || node.isMissing || node.type === 'comment') return;
    // Commands inside a broken region still count for reject rules; the line is not understood anyway.
    if (node.isError) return this.statements(node, context);
    const unmodelled = unmodelledNode(node);
    if (unmodelled !== undefined) this.problem(unmodelled, node.text);
    switch (node.type) {
      case 'command':
        return this.command(node, context, [], node.text);
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node, context);
      case 'test_command':
        return this.testCommand(node, context);
      case 'redirected_statement':
        return this.redirected(node, context);
      case 'file_redirect':
        return this.strayWordsNotAllowed(this.fileRedirect(node, context), node);
      case 'heredoc_redirect':
        return this.strayWordsNotAllowed(this.heredoc(node, context, []), node);
      case 'compound_statement':
        if (node.child(0)?.type !== '((') return this.statements(node, context);
        // The shell tool runs `sh -c`; in dash `((reboot))` is two subshells running `reboot`.
        this.problem('(( )) is arithmetic in bash but runs its contents as a command in sh (dash); use [ ] or $(( ))', node.text);
        return this.children(node, context);
      case 'while_statement':
      case 'for_statement':
        return this.statements(node, { ...context, repeats: true });
      case 'c_style_for_statement':
        return this.children(node, { ...context, repeats: true });
      case 'function_definition':
        return this.children(node, { ...context, repeats: true });
    }
    if (node.type === 'command_substitution') this.checkSubstitution(node);
    // `${x@P}` expands x like a prompt, running any $( ) inside the variable's value.
    if (node.type === 'expansion' && /@P\}$/.test(node.text)) this.problem('${...@P} runs command substitutions stored in a variable', node.text);
    if (STATEMENT_LISTS.has(node.type)) return this.statements(node, context);
    if (EXPRESSIONS.has(node.type)) return this.children(node, context);
    if (TEXT_LEAVES.has(node.type)) return this.checkBackquotes(node);
    this.problem(`unsupported shell syntax (${node.type})`, node.text);
  }

  private statements(node: SyntaxNode, context: Context): void {
    for (const child of namedChildrenOf(node)) this.statement(child, context);
  }

  /** A node in statement position, where a bare assignment (`PATH=/tmp`) is a command of its own. */
  private statement(node: SyntaxNode, context: Context): void {
    if (node.type === 'variable_assignment' || node.type === 'variable_assignments') this.assignmentsOnly(node, context);
    else this.visit(node, context);
  }

  private children(node: SyntaxNode, context: Context): void {
    for (const child of namedChildrenOf(node)) this.visit(child, context);
  }

  private assignmentsOnly(node: SyntaxNode, context: Context): void {
    const assignments = node.type === 'variable_assignment' ? [node] : namedChildrenOf(node);
    this.record({ words: [], assignments: assignments.map((child) => child.text), source: node.text }, context);
    this.children(node, context);
  }

  /** A simple command; `strayWords` are arguments the grammar attached to a redirection after it. */
  private command(node: SyntaxNode, context: Context, strayWords: SyntaxNode[], source: string): void {
    const words: ShellWord[] = [];
    const assignments: string[] = [];
    const trailing = [...strayWords];
    node.children.forEach((child, index) => {
      if (child === null || child.type === 'comment') return;
      const field = node.fieldNameForChild(index);
      if (field === 'redirect' && child.type === 'file_redirect') {
        trailing.push(...this.fileRedirect(child, context).strayWords);
      } else if (field === 'name' || field === 'argument') {
        words.push(readWord(child));
        this.visit(child, context);
      } else if (child.type === 'variable_assignment') {
        assignments.push(child.text);
        this.visit(child, context);
      } else if (child.isNamed) {
        this.visit(child, context);
        if (field !== 'redirect' && !child.isError) this.problem(`unsupported part of a command (${child.type})`, node.text);
      }
    });
    for (const stray of trailing) {
      words.push(readWord(stray));
      this.visit(stray, context);
    }
    if (words[0] !== undefined && !words[0].literal) {
      this.problem('the command name is computed at run time; write the program name itself', source);
    } else if (words[0]?.glob === true) {
      this.problem('the command name is a file glob, so the program depends on the files present; write the program name itself', source);
    }
    this.record({ words, assignments, source }, context);
  }

  /** `export A=1 B`, `local x`, `unset y`: the keyword and its arguments, as words. */
  private declaration(node: SyntaxNode, context: Context): void {
    const words = node.children.flatMap((child) => {
      if (child === null || child.type === 'comment') return [];
      if (!child.isNamed) return [{ text: child.text, literal: true, glob: false }];
      this.visit(child, context);
      return [readWord(child)];
    });
    this.record({ words, assignments: [], source: node.text }, context);
  }

  /** `[ ... ]` and `[[ ... ]]`: the brackets and every operand and operator, as words. */
  private testCommand(node: SyntaxNode, context: Context): void {
    if (hidesRedirection(node)) this.problem('`>` or `<` inside [ ] or [[ ]] is a redirection in sh; use -gt or -lt', node.text);
    this.children(node, context);
    this.record({ words: testCommandWords(node), assignments: [], source: node.text }, context);
  }

  private redirected(node: SyntaxNode, context: Context): void {
    const statedBody = node.childForFieldName('body');
    let body = statedBody;
    // The grammar hangs the redirection of `a && b > f` on the whole list; the shell gives it to `b`.
    while (body !== null && ['list', 'pipeline', 'negated_command'].includes(body.type)) {
      const parts = namedChildrenOf(body);
      for (const part of parts.slice(0, -1)) this.statement(part, context);
      body = parts.at(-1) ?? null;
    }
    const strayWords: SyntaxNode[] = [];
    const afterBody: SyntaxNode[] = [];
    // Redirections are set up before the body runs, so their writes come first.
    for (const child of namedChildrenOf(node)) {
      if (child.id === statedBody?.id) continue;
      if (child.type === 'file_redirect') strayWords.push(...this.fileRedirect(child, context).strayWords);
      else if (child.type === 'heredoc_redirect') strayWords.push(...this.heredoc(child, context, afterBody).strayWords);
      else this.visit(child, context);
    }
    if (body?.type === 'command') {
      // With stray words the command's own text runs to the end of the last redirection.
      this.command(body, context, strayWords, strayWords.length > 0 ? node.text.slice(body.startIndex - node.startIndex) : body.text);
    } else {
      this.strayWordsNotAllowed({ strayWords }, node);
      if (body !== null) this.statement(body, context);
    }
    for (const statement of afterBody) this.statement(statement, context);
  }

  private fileRedirect(node: SyntaxNode, context: Context): { strayWords: SyntaxNode[] } {
    const redirect = readFileRedirect(node);
    if (redirect.writes !== undefined) this.events.push({ kind: 'write', target: redirect.writes });
    for (const child of namedChildrenOf(node)) this.visit(child, context);
    return redirect;
  }

  /**
   * `cat <<EOF | sh` hangs the rest of the pipeline (`| sh`, `&& next`) on the here-document node;
   * those statements go to `afterBody`, to be walked after the command they follow.
   */
  private heredoc(node: SyntaxNode, context: Context, afterBody: SyntaxNode[]): { strayWords: SyntaxNode[] } {
    const strayWords: SyntaxNode[] = [];
    node.children.forEach((child, index) => {
      if (child === null || !child.isNamed || child.type === 'comment') return;
      const field = node.fieldNameForChild(index);
      if (child.type === 'file_redirect') strayWords.push(...this.fileRedirect(child, context).strayWords);
      else if (field === 'argument') strayWords.push(child);
      else if (child.type === 'pipeline' || field === 'right') afterBody.push(child);
      else this.visit(child, context);
    });
    return { strayWords };
  }

  private strayWordsNotAllowed(redirect: { strayWords: SyntaxNode[] }, node: SyntaxNode): void {
    if (redirect.strayWords.length > 0) this.problem('words after a redirection that belong to no command', node.text);
  }

  /**
   * Looks at what the command runs: wrapped commands, `sh -c` scripts, `eval` text. A program a
   * wrapper runs (`env X=1 npm test`, `find -exec rm`) is listed as a command of its own, so rules
   * judge it and the person sees it.
   */
  private record(command: SimpleCommand, context: Context): void {
    this.commands.push(command);
    this.events.push({ kind: 'command', words: command.words, repeats: context.repeats });
    const runs: ShellWord[][] = [command.words];
    // Each wrapper peels at least one word, so the bound only stops a pathological line early.
    for (let index = 0; index < runs.length && index < 32; index += 1) {
      const words = runs[index]!;
      if (index > 0) this.commands.push({ words, assignments: [], source: describeCommand({ words, assignments: [], source: '' }) });
      if (index > 0 && words[0] !== undefined && !words[0].literal) {
        this.problem('the command run by a wrapper (sudo, env, xargs, ...) is computed at run time', command.source);
      }
      const unmodelled = unmodelledCommand(words, index === 0 ? command.assignments : []);
      if (unmodelled !== undefined) this.problem(unmodelled, command.source);
      const embedded = embeddedScript(words);
      if (embedded.kind === 'script') this.script(embedded.text, { ...context, depth: context.depth + 1 });
      if (embedded.kind === 'opaque') this.problem(embedded.problem, command.source);
      const wrapped = wrappedCommands(words);
      if (wrapped.opaque !== undefined) this.problem(wrapped.opaque, command.source);
      runs.push(...wrapped.inner);
    }
  }

  private checkSubstitution(node: SyntaxNode): void {
    // The grammar misreads nested backquotes (`a \`b\``) and `$((` (arithmetic in a here-document).
    if (node.text.startsWith('`') && node.text.includes('\\`')) this.problem('nested backquotes are not supported; use $( ) instead', node.text);
    if (node.text.startsWith('$((')) this.problem('$(( read as a command substitution is not supported; in a here-document, quote the delimiter (<<\'EOF\')', node.text);
  }

  private checkBackquotes(node: SyntaxNode): void {
    if (/(^|[^\\])(\\\\)*`/.test(node.text)) this.problem('a backquoted command the parser could not read; use $( ) instead', node.text);
  }

  private problem(reason: string, source: string): void {
    this.problems.push(`${reason} (in "${excerpt(source)}")`);
  }
}
