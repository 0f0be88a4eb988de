import type { Client } from '@temporalio/client';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { readHistoryJson, writeHistoryJson } from '../../runtime/history-json';
import { z } from 'zod';
import { describeZodError } from '../../contract/describe-zod-error';
import { fetchRecordedHistories } from './recorded-source';
import { replayLinks, type History } from './recorded-replay';
import { assembleRecordedRun, type RecordedEnding, type RecordedRun } from './recorded-run';
import { RecordedRunUnreadableError } from './replay-errors';
import { callsWithAttachments, exportedBodies, type ExportedBodies, type StoredBodies } from './stored-bodies';

export const RECORDED_RUN_FORMAT = 'durable-agent.recorded-run';

/**
 * What `agentctl replay --export <id>` writes and `replayRecordedRun` (durable-agent/testing) reads:
 * every link's history, its payloads decoded (so a test needs no keys), and the bodies the history
 * does not carry. Version 1.
 */
export const RecordedRunFileSchema = z.object({
  format: z.literal(RECORDED_RUN_FORMAT),
  version: z.literal(1),
  workflowId: z.string().min(1),
  exportedAt: z.string(),
  ending: z.enum(['completed', 'failed', 'cancelled', 'terminated', 'timed_out', 'parked']),
  links: z.array(z.object({ runId: z.string(), history: z.looseObject({ events: z.array(z.unknown()) }) })).min(1),
  bodies: z.object({
    conversations: z.array(z.object({ key: z.string(), tag: z.string().optional(), messages: z.array(z.any()) })).default([]),
    attachments: z.array(z.object({ callId: z.string(), stored: z.object({ messages: z.array(z.any()), tag: z.string() }) })).default([]),
    missing: z.array(z.string()).default([]),
  }),
});
export type RecordedRunFile = z.infer<typeof RecordedRunFileSchema>;

const isPayload = (value: unknown): value is Payload => value !== null && typeof value === 'object' && (value as Payload).data instanceof Uint8Array && typeof (value as Payload).metadata === 'object';

/** Decodes every payload of a history in place with the codecs (last one first, as a client does). */
async function decodePayloads(value: unknown, codecs: readonly PayloadCodec[]): Promise<void> {
  if (codecs.length === 0 || value === null || typeof value !== 'object') return;
  for (const [key, member] of Object.entries(value)) {
    if (isPayload(member)) {
      let decoded = [member];
      for (const codec of [...codecs].reverse()) decoded = await codec.decode(decoded);
      (value as Record<string, unknown>)[key] = decoded[0];
    } else await decodePayloads(member, codecs);
  }
}

/**
 * Writes a run as a recorded-run file: its histories with payloads decoded by the client's codec, and
 * the bodies a replay needs that only a conversation store keeps (when `bodies` reaches one). What is
 * missing is listed in the file (`bodies.missing`), with where it was looked for; an offline replay
 * does not need attachments, a live one refuses without them.
 */
export async function exportRecordedRun(client: Client, workflowId: string, bodies?: StoredBodies): Promise<RecordedRunFile> {
  const { ending, links } = await fetchRecordedHistories(client, workflowId);
  const codecs = client.options.dataConverter?.payloadCodecs ?? [];
  for (const link of links) await decodePayloads(link.history, codecs);
  const exported: ExportedBodies = { conversations: [], attachments: [], missing: [] };
  const recorded = await assembleRecordedRun(workflowId, await replayLinks(workflowId, links), ending, async (prefix) => {
    const messages = await bodies?.conversation(prefix);
    if (messages) exported.conversations.push({ key: prefix.key, ...(prefix.tag ? { tag: prefix.tag } : {}), messages });
    return messages;
  });
  const where = bodies?.description ?? 'no conversation store';
  for (const call of recorded.modelCalls.filter((c) => c.missing)) exported.missing.push(`the first ${call.missing!.baseCount} message(s) of model request ${call.index + 1} (key ${call.missing!.key}), looked for in ${where}`);
  for (const callId of callsWithAttachments(recorded)) {
    const stored = await bodies?.attachments(workflowId, callId);
    if (stored) exported.attachments.push({ callId, stored });
    else exported.missing.push(`the attachments of tool call ${callId}, looked for in ${where}`);
  }
  return {
    format: RECORDED_RUN_FORMAT,
    version: 1,
    workflowId,
    exportedAt: new Date().toISOString(),
    ending,
    links: links.map((link) => ({ runId: link.runId, history: JSON.parse(writeHistoryJson(link.history)) as RecordedRunFile['links'][number]['history'] })),
    bodies: exported,
  };
}

/** Checks a parsed file (or its text) is a recorded-run file; the error names what is wrong. */
export function parseRecordedRunFile(content: unknown, source = 'the recorded run'): RecordedRunFile {
  let json = content;
  if (typeof content === 'string') {
    try {
      json = JSON.parse(content);
    } catch (error) {
      throw new RecordedRunUnreadableError(`${source} is not JSON (${(error as Error).message}); write it with \`agentctl replay --export <workflowId> > run.json\`.`);
    }
  }
  const parsed = RecordedRunFileSchema.safeParse(json);
  if (!parsed.success) throw new RecordedRunUnreadableError(`${source} is not a recorded run of this release (format ${RECORDED_RUN_FORMAT}, version 1):\n${describeZodError(parsed.error)}\nWrite it with \`agentctl replay --export <workflowId> > run.json\`.`);
  return parsed.data;
}

/** Reads a recorded-run file the way a run is read from the server: its histories replayed with the recorder. */
export async function recordedRunFromFile(file: RecordedRunFile, source = 'the recorded run'): Promise<{ recorded: RecordedRun; bodies: StoredBodies }> {
  let links: { runId: string; history: History }[];
  try {
    links = file.links.map((link) => ({ runId: link.runId, history: readHistoryJson(link.history) }));
  } catch (error) {
    throw new RecordedRunUnreadableError(`${source} holds a history that cannot be read (${(error as Error).message}).`);
  }
  const bodies = exportedBodies(file.bodies, source);
  const recorded = await assembleRecordedRun(file.workflowId, await replayLinks(file.workflowId, links), file.ending as RecordedEnding, (prefix) => bodies.conversation(prefix));
  return { recorded, bodies };
}
