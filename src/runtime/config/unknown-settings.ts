import { isKnownSetting, SETTINGS } from './settings-catalog';

/** Edit distance between two names: how many letters to add, remove or change. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * One warning per `AGENT_*` variable this project does not read: a misspelt name (a letter swapped in AGENT_PROMPT_CACHE)
 * would otherwise be ignored in silence and the default used. The nearest known name is suggested
 * when it is close enough to be the one meant.
 */
export function unknownSettingWarnings(env: NodeJS.ProcessEnv): string[] {
  const known = SETTINGS.map((s) => s.name).filter((name) => name.startsWith('AGENT_') && !name.endsWith('*'));
  return Object.keys(env)
    .filter((name) => name.startsWith('AGENT_') && !isKnownSetting(name))
    .sort()
    .map((name) => {
      const [nearest] = known.map((k) => ({ k, d: distance(name, k) })).sort((x, y) => x.d - y.d);
      const hint = nearest && nearest.d <= Math.max(2, Math.floor(name.length / 4)) ? ` Did you mean ${nearest.k}?` : '';
      return `${name} is set, but the worker reads no such variable; it is ignored.${hint}`;
    });
}
