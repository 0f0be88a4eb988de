import type { z } from 'zod';
import { KNOWN_KEYS } from './agent-config-schema';

type Issue = z.core.$ZodIssue;

/** `agents[1].approval.scopes.write`: a zod path as a person reads it in the file. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
}

/** A known key that differs from an unknown one only in case, `-`/`_`, or one letter. */
function suggestion(key: string, known: readonly string[]): string | undefined {
  const plain = (s: string) => s.toLowerCase().replace(/[-_]/g, '');
  return known.find((k) => plain(k) === plain(key)) ?? known.find((k) => Math.abs(k.length - key.length) <= 1 && [...k].filter((c, i) => key[i] !== c).length <= 1);
}

function knownKeysAt(path: readonly PropertyKey[]): readonly string[] | undefined {
  if (path.length === 0) return KNOWN_KEYS.file;
  if (path.length === 2 && path[0] === 'agents') return KNOWN_KEYS.agent;
  return undefined;
}

/**
 * One line per problem: where in the file, and what is wrong or expected. A union (an MCP server is
 * stdio or HTTP) reports the problems of the branch that came closest, after what the union needs.
 */
export function describeConfigIssues(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): string[] {
  return issues.flatMap((issue): string[] => {
    const path = [...prefix, ...issue.path];
    const where = formatPath(path) || '(top level)';
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // A branch of another type altogether (a string where an object was written) came nowhere close.
      const otherType = (branch: readonly Issue[]) => Number(branch.length === 1 && branch[0]!.code === 'invalid_type' && branch[0]!.path.length === 0);
      const closest = [...issue.errors].sort((a, b) => otherType(a) - otherType(b) || a.length - b.length)[0]!;
      return [`- ${where}: ${issue.message}`, ...describeConfigIssues(closest, path).map((line) => `  ${line}`)];
    }
    // A record key that does not fit (an MCP server's name): what is wrong with the key itself.
    if (issue.code === 'invalid_key') return issue.issues.map((inner) => `- ${where}: ${inner.message}`);
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(path);
      return issue.keys.map((key) => {
        const hint = known ? suggestion(key, known) : undefined;
        return `- ${formatPath([...path, key])}: unknown key${hint ? `; did you mean "${hint}"?` : known ? `; known keys: ${known.join(', ')}` : '; remove it'}`;
      });
    }
    return [`- ${where}: ${issue.message}`];
  });
}
