// What the audit log keeps of a tool call's arguments. Small arguments are kept whole; large ones
// (a write_file with a whole file as `content`) become a digest plus a short preview, so the log stays
// small, never holds whole file contents, and still proves which arguments were approved: anyone with
// the arguments can recompute the digest.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../../core/approvals/canonical-json';

/** Canonical JSON longer than this is digested. */
export const MAX_KEPT_JSON_CHARS = 1_000;
/** Arguments with any string longer than this are digested, however short the whole. */
export const MAX_KEPT_STRING_CHARS = 200;
/** The preview's length at most. */
export const PREVIEW_CHARS = 200;
/** Each string in the preview is cut to this, so one long field cannot hide the others (a path). */
const PREVIEW_STRING_CHARS = 60;

export const DigestedArgumentsSchema = z.strictObject({
  /** `sha256:` and the hex SHA-256 of the arguments' canonical JSON (UTF-8). */
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  /** Length of the canonical JSON, in characters. */
  size: z.number().int().nonnegative(),
  /** The start of the arguments, each long string cut and marked with how much was left out. */
  preview: z.string(),
});
export type DigestedArguments = z.infer<typeof DigestedArgumentsSchema>;

/** A tool's arguments as the audit log keeps them: whole (any JSON value) or digested. */
export const AuditArgumentsSchema = z.union([DigestedArgumentsSchema, z.json()]);
export type AuditArguments = z.infer<typeof AuditArgumentsSchema>;


function longestString(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 0;
  return Math.max(0, ...Object.values(value).map(longestString));
}

/** The value with each string longer than `max` cut and marked, for the preview only. */
function cutStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max)}…[+${value.length - max} chars]` : value;
  if (Array.isArray(value)) return value.map((item) => cutStrings(item, max));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutStrings(item, max)]));
}

/**
 * The arguments to record: as given when small, otherwise `{ digest, size, preview }`. Arguments that
 * already have the digested shape are returned as they are, so applying this twice changes nothing.
 */
export function auditArguments(args: unknown): AuditArguments {
  if (DigestedArgumentsSchema.safeParse(args).success) return args as DigestedArguments;
  const json = canonicalJson(args);
  if (json.length <= MAX_KEPT_JSON_CHARS && longestString(args) <= MAX_KEPT_STRING_CHARS) return args as AuditArguments;
  const preview = canonicalJson(cutStrings(JSON.parse(json), PREVIEW_STRING_CHARS));
  return {
    digest: `sha256:${createHash('sha256').update(json, 'utf8').digest('hex')}`,
    size: json.length,
    preview: preview.length > PREVIEW_CHARS ? `${preview.slice(0, PREVIEW_CHARS - 1)}…` : preview,
  };
}
