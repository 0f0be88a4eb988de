import type { SimpleCommand } from '../../contract/shell-analysis';

/**
 * How a remembered choice compares with a call by meaning rather than by raw text. Pure: it runs in
 * workflow code, so paths are normalized here by hand (no `node:path`). Issue 18 found two holes in
 * comparing raw text: an "always" on `find . -name '*'` read its quoted `*` as a wildcard and allowed
 * `find . -name canary -delete`, and an "always" on `notes/` allowed `notes/../.git/config`.
 */

/** What literalCommandMatches reads from a stored command choice. */
interface CommandChoice {
  pattern: { words: readonly string[] };
  prefix?: boolean;
}

/**
 * An "always" for a shell command: the command's words equal the stored words one for one (a `*`
 * among them is the character `*`), or, for a prefix choice, start with them and go on with literal
 * words only. A word the shell expands ($x, a glob) never matches, and neither does a command that
 * sets variables.
 */
export function literalCommandMatches(choice: CommandChoice, command: SimpleCommand): boolean {
  if (command.assignments.length > 0) return false;
  if (command.words.some((word) => !word.literal || word.glob)) return false;
  const stored = choice.prefix === true ? choice.pattern.words.slice(0, -1) : choice.pattern.words;
  const texts = command.words.map((word) => word.text);
  if (choice.prefix === true ? texts.length < stored.length : texts.length !== stored.length) return false;
  return stored.every((word, index) => texts[index] === word);
}

/**
 * A path choice (`write_file` path `notes/`) against a call's path, both normalized first: `./a`,
 * `a//b` and `a/x/../b` are read as the shell and the file tools read them. An "always" never covers
 * a path that climbs out (`..`) or is absolute when the choice is not. A "never" errs the other way:
 * it also catches its path anywhere inside an absolute or climbing path.
 */
export function pathMatches(stored: string, requested: string, prefix: boolean, preference: 'always' | 'never'): boolean {
  const choice = normalizePath(stored) + (prefix && stored.endsWith('/') ? '/' : '');
  const value = normalizePath(requested);
  const covers = (candidate: string) => (prefix ? candidate.startsWith(choice) || `${candidate}/` === choice : candidate === choice);
  if (preference === 'always') {
    const climbs = value === '..' || value.startsWith('../');
    return !climbs && value.startsWith('/') === choice.startsWith('/') && covers(value);
  }
  if (covers(value)) return true;
  // `/workspace/secrets/key.pem` or `../ws/secrets/key.pem` for a "never" on `secrets/`.
  const segments = value.split('/');
  return segments.some((_, start) => start > 0 && covers(segments.slice(start).join('/')));
}

/** `a/./b//c/../d` → `a/b/d`; keeps a leading `/` and leading `..` segments. */
export function normalizePath(text: string): string {
  const absolute = text.startsWith('/');
  const out: string[] = [];
  for (const segment of text.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && out.length > 0 && out.at(-1) !== '..') out.pop();
    else if (segment !== '..' || !absolute) out.push(segment);
  }
  const joined = out.join('/');
  return absolute ? `/${joined}` : joined === '' ? '.' : joined;
}
