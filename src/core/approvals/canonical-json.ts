/**
 * JSON with every object's keys sorted (by UTF-16 code unit, as `Array.prototype.sort` does), so the
 * same arguments give the same text, and the same digest, whatever order the model wrote them in.
 * Otherwise as `JSON.stringify`: `toJSON` is honoured, undefined members are left out, and an
 * undefined or function value at the top level or in an array becomes `null`.
 */
/* Pure: used in workflow code (remembered choices) and on the worker (audit digests). */
export function canonicalJson(value: unknown): string {
  return canonical(value) ?? 'null';
}

function canonical(value: unknown): string | undefined {
  const v = hasToJson(value) ? value.toJSON() : value;
  if (Array.isArray(v)) return `[${v.map((item) => canonical(item) ?? 'null').join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const members = Object.keys(v)
      .sort()
      .flatMap((key) => {
        const text = canonical((v as Record<string, unknown>)[key]);
        return text === undefined ? [] : [`${JSON.stringify(key)}:${text}`];
      });
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(v) as string | undefined;
}

function hasToJson(value: unknown): value is { toJSON(): unknown } {
  return value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}
