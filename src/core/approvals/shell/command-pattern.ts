import type { SyntaxNode } from './bash-parser';
import { loadBashParser, namedChildrenOf, withSyntaxTree } from './bash-parser';
import { InvalidCommandPatternError } from './errors';
import type { CommandPattern, ShellWord } from '../../../contract/shell-analysis';
import { readWord } from './shell-word';
import { describeSyntaxProblems, excerpt } from './syntax-problems';
import { testCommandWords } from './test-command-words';

/**
 * Splits an approval rule for the `shell` tool into words, the way the shell would split the command
 * it describes, so `rm  -rf "/"` and `rm -rf /` are the same rule. A rule must be exactly one simple
 * command of literal words; it is checked when the rule is loaded, so a rule that could never match
 * fails loudly instead of silently matching nothing.
 */
export async function parseCommandPattern(pattern: string): Promise<CommandPattern> {
  const parser = await loadBashParser();
  const words = withSyntaxTree(parser, pattern, (tree) => patternWords(pattern, tree.rootNode));
  if (words === undefined) throw new InvalidCommandPatternError(pattern, 'it took too long to parse; write a shorter rule');
  return { pattern, words };
}

function patternWords(pattern: string, root: SyntaxNode): string[] {
  const invalid = (reason: string) => new InvalidCommandPatternError(pattern, reason);
  const statements = namedChildrenOf(root);
  const [command] = statements;
  if (command === undefined) throw invalid('it is empty; write the command it should match, e.g. "npm test"');
  const [syntaxProblem] = describeSyntaxProblems(root, pattern);
  if (syntaxProblem !== undefined) throw invalid(syntaxProblem);
  if (statements.length > 1 || ['list', 'pipeline'].includes(command.type)) {
    throw invalid('it holds more than one command (joined by ;, &&, ||, | or a newline); write one rule per command');
  }
  if (command.type === 'redirected_statement') {
    throw invalid('it has a redirection (>, <, <<); rules match commands, and writes are checked separately, so leave it out');
  }
  const words = command.type === 'test_command' ? testCommandWords(command) : commandWords(command, invalid);
  return words.map((word) => {
    if (!word.literal) {
      throw invalid(`the word "${excerpt(word.text)}" is expanded by the shell; write the literal text to match, or * for any word`);
    }
    if (word.glob && /[?[]/.test(word.text)) {
      throw invalid(`the word "${word.text}" has ? or [, which the shell treats as a glob; only * is a wildcard in rules, so quote the word to match it literally`);
    }
    return word.text;
  });
}

/** The words of a simple command or declaration; an assignment or redirection has no place in a rule. */
function commandWords(command: SyntaxNode, invalid: (reason: string) => Error): ShellWord[] {
  if (!['command', 'declaration_command', 'unset_command'].includes(command.type)) {
    throw invalid(`it is not a simple command but a ${command.type.replace(/_/g, ' ')}; write the command itself`);
  }
  const simple = command.type === 'command';
  return command.children.flatMap((child, index) => {
    if (child === null || child.type === 'comment') return [];
    // `export`, `local`, `unset` and the like are keywords in the grammar, but words of the command.
    if (!simple && !child.isNamed) return [{ text: child.text, literal: true, glob: false }];
    const field = simple ? command.fieldNameForChild(index) : 'argument';
    if (simple && child.type === 'variable_assignment') {
      throw invalid(`it sets a variable (${child.text}); allow rules never match a command that sets variables, and reject rules ignore them, so leave it out`);
    }
    if (field === 'redirect') throw invalid('it has a redirection (>, <, <<<); leave it out');
    if (field !== 'name' && field !== 'argument') throw invalid(`"${excerpt(child.text)}" is not a word of a simple command; write the command itself`);
    return [readWord(child)];
  });
}
