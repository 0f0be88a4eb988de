import { CompletionSchema } from '../../contract/control-tools/complete-task';
import type { ContentBlock } from '../../contract/messages';
import type { OutputCheck } from '../../contract/output-check';
import type { OutputContract } from './output-contract';

/** A tool spec as the Messages API takes it (the registry's `ModelToolSpec`). */
interface ToolSpec {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

const OUTPUT_NOTE =
  ' This run must return a typed result: put it in "output", matching the schema given for it. ' +
  'It is required unless the task is blocked; an output that does not match is sent back to you with the problems.';

/** The completion tools' specs with an `output` property of the contract's schema; the others unchanged. */
export function withOutputField(specs: readonly ToolSpec[], completionTools: readonly string[], contract: OutputContract): ToolSpec[] {
  return specs.map((spec) => {
    if (!completionTools.includes(spec.name)) return spec;
    const properties = { ...((spec.input_schema.properties as Record<string, unknown> | undefined) ?? {}), output: { ...contract.jsonSchema, description: 'The typed result of the task' } };
    return { ...spec, description: `${spec.description}${OUTPUT_NOTE}`, input_schema: { ...spec.input_schema, properties } };
  });
}

/** A completion that says the agent could not go on: it need not carry an output. */
function isBlocked(name: string, input: unknown): boolean {
  return name === 'complete_task' && CompletionSchema.safeParse(input).data?.status === 'blocked';
}

/**
 * Checks the `output` of every completion call in a reply against the contract. The workflow ends
 * the run only on a valid one; an invalid or missing one goes back to the model with the problems.
 */
export function checkCompletionOutputs(content: readonly ContentBlock[], completionTools: readonly string[], contract: OutputContract): Record<string, OutputCheck> {
  const checks: Record<string, OutputCheck> = {};
  for (const block of content) {
    if (block.type !== 'tool_use' || !completionTools.includes(block.name)) continue;
    const output = (block.input as { output?: unknown } | null)?.output;
    if (output === undefined) {
      checks[block.id] = isBlocked(block.name, block.input) ? { valid: true } : { valid: false, problems: '- output: is required (the typed result of the task)' };
      continue;
    }
    const result = contract.check(output);
    checks[block.id] = result.valid ? { valid: true } : { valid: false, problems: result.problems };
  }
  return checks;
}
