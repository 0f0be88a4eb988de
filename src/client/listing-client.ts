// Listing runs in a namespace that also holds runs sealed with a key this client does not have.
import { Client } from '@temporalio/client';
import type { DataConverter, LoadedDataConverter, PayloadConverter } from '@temporalio/common';

/**
 * The same client for listing runs: a memo it cannot read (a run whose payloads another key encrypted)
 * reads as nothing instead of failing the whole listing (`agentctl costs`, `list` and `pending` met
 * "Unknown encoding: binary/encrypted" from one such run in the namespace). What a listing shows comes
 * from search attributes, which are never encoded; a memo field it cannot read is left out.
 */
export function listingClient(client: Client): Client {
  const loaded = client.options.loadedDataConverter;
  const { payloadConverter } = loaded;
  const forgiving: PayloadConverter = {
    toPayload: (value) => payloadConverter.toPayload(value),
    fromPayload: <T>(payload: Parameters<PayloadConverter['fromPayload']>[0]): T => {
      try {
        return payloadConverter.fromPayload<T>(payload);
      } catch {
        return undefined as T;
      }
    },
  };
  // A Client takes a loaded converter as it is (BaseClient checks isLoadedDataConverter); the type names only the unloaded form.
  const dataConverter = { ...loaded, payloadConverter: forgiving } as LoadedDataConverter as unknown as DataConverter;
  return new Client({ connection: client.connection, namespace: client.options.namespace, dataConverter });
}
