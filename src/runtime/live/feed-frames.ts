import type { LoadedDataConverter, Payload } from '@temporalio/common';
import { decodeFromPayloadsAtIndex, encodeToPayload } from '@temporalio/common/lib/internal-non-workflow';
import type { LiveFeedEventName, LiveFeedEvents } from '../../contract/live-feed';

/** A payload as the feed writes it: `{ metadata: { key: base64 }, data: base64 }`. */
interface PayloadJson {
  metadata?: Record<string, string>;
  data?: string;
}

/**
 * One SSE event of the feed. Its data goes through the worker's data converter, payload codecs
 * included, so with AGENT_ENCRYPTION_KEY the text and status are encrypted on the wire as they are in
 * the heartbeat; only a watcher with the key reads them.
 */
export async function feedFrame<N extends LiveFeedEventName>(converter: LoadedDataConverter, name: N, value: LiveFeedEvents[N]): Promise<string> {
  const payload = await encodeToPayload(converter, value);
  const metadata: Record<string, string> = {};
  for (const [key, bytes] of Object.entries(payload.metadata ?? {})) if (bytes) metadata[key] = Buffer.from(bytes).toString('base64');
  const json: PayloadJson = { metadata, data: Buffer.from(payload.data ?? new Uint8Array()).toString('base64') };
  return `event: ${name}\ndata: ${JSON.stringify(json)}\n\n`;
}

/** The value of one event's data, decoded by the watcher's data converter (which must hold the worker's keys). */
export async function decodeFeedData(converter: LoadedDataConverter, data: string): Promise<unknown> {
  const json = JSON.parse(data) as PayloadJson;
  const metadata: Record<string, Uint8Array> = {};
  for (const [key, value] of Object.entries(json.metadata ?? {})) metadata[key] = Buffer.from(value, 'base64');
  const payload: Payload = { metadata, data: Buffer.from(json.data ?? '', 'base64') };
  return decodeFromPayloadsAtIndex<unknown>(converter, 0, [payload]);
}
