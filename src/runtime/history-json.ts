// Exported histories in Temporal's JSON form, read and written with @temporalio/common's proto-utils,
// and, where npm left two copies of protobufjs 8 in a project (one under @temporalio/common, one under
// @temporalio/proto: it hoists the 7.x that gRPC's loader brings), with the copy @temporalio/proto's
// types were built with. proto-utils then fails with "type must be a Type": its protobufjs is not the
// one the types belong to. Seen in a fresh install of the package where Temporal is a peer dependency.
import { createRequire } from 'node:module';
import { historyFromJSON, historyToJSON, type History } from '@temporalio/common/lib/proto-utils';

export type { History };

interface ProtoJson {
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
  toJson(type: unknown, message: unknown): unknown;
}

let sameCopy: { protojson: ProtoJson; historyType: { fromObject(value: unknown): unknown } } | undefined;

/** protojson and the History type from the one protobufjs @temporalio/proto loads. */
function protoCopy(): NonNullable<typeof sameCopy> {
  if (sameCopy) return sameCopy;
  const fromProto = createRequire(require.resolve('@temporalio/proto'));
  const protojson = fromProto('protobufjs/ext/protojson') as ProtoJson;
  const { patchProtobufRoot } = fromProto('@temporalio/proto/lib/patch-protobuf-root') as { patchProtobufRoot(root: unknown): { lookupType(name: string): { fromObject(value: unknown): unknown } } };
  const historyType = patchProtobufRoot(fromProto('@temporalio/proto')).lookupType('temporal.api.history.v1.History');
  sameCopy = { protojson, historyType };
  return sameCopy;
}

const twoCopies = (error: unknown) => error instanceof TypeError && error.message.includes('type must be a Type');

/** A history from its JSON form (as `temporal workflow show --output json` writes it). */
export function readHistoryJson(json: unknown): History {
  try {
    return historyFromJSON(json);
  } catch (error) {
    if (!twoCopies(error)) throw error;
    const { protojson, historyType } = protoCopy();
    const loaded = protojson.fromJson(historyType, json, { ignoreUnknownFields: true });
    if (loaded === null || loaded === undefined) throw new TypeError('Invalid history');
    return loaded as History;
  }
}

/** A history's JSON form, as a string. */
export function writeHistoryJson(history: History): string {
  try {
    return historyToJSON(history);
  } catch (error) {
    if (!twoCopies(error)) throw error;
    const { protojson, historyType } = protoCopy();
    return JSON.stringify(protojson.toJson(historyType, historyType.fromObject(history)), null, 2);
  }
}
