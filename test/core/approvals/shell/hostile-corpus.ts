import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { ToolApprovalSchema } from '../../../../src/contract/approval-rules';
import { PreferenceRuleSchema } from '../../../../src/core/approvals/preference-rules';

/**
 * The hostile-command corpus (hostile-commands.json): commands a model could write to get past the
 * approval rules, each with the rules or remembered choices it is tried against and what must happen.
 * `bypass` is the number in issue 18, or null for a variant found since. Entries with `endToEnd`
 * also run through a real worker, bwrap and bash (test/workflows/trust-boundary/hostile-commands.test.ts).
 */
export const HostileEntrySchema = z
  .object({
    id: z.string().min(1),
    bypass: z.number().int().nullable(),
    tool: z.string().default('shell'),
    command: z.string().optional(),
    input: z.record(z.string(), z.unknown()).optional(),
    rules: ToolApprovalSchema.optional(),
    preferences: z.array(PreferenceRuleSchema).optional(),
    expected: z.enum(['ask', 'reject']),
    /** Programs the person must see among the analysis's commands. */
    shows: z.array(z.string()).optional(),
    endToEnd: z.boolean().optional(),
    note: z.string().min(1),
  })
  .strict();
export type HostileEntry = z.infer<typeof HostileEntrySchema>;

export const hostileCommands: HostileEntry[] = z
  .array(HostileEntrySchema)
  .parse(JSON.parse(readFileSync(path.join(__dirname, 'hostile-commands.json'), 'utf8')));
