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

/** `WorkflowExecutionStarted` → `WORKFLOW_EXECUTION_STARTED`, behind its prefix unless it has it. */
function constantEnum(value: unknown, prefix: string): unknown {
  if (typeof value !== 'string' || value.startsWith(prefix)) return value;
  return `${prefix}_${value.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;
}

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function withEnum(object: JsonObject, key: string, prefix: string): JsonObject {
  return object[key] === undefined ? object : { ...object, [key]: constantEnum(object[key], prefix) };
}

/**
 * Older tools (and tctl) wrote enum values in PascalCase. proto-utils' own reader rewrites the ones a
 * replay needs; the fallback below must do the same, or such a history loads with its event types unset.
 * Exported for its test.
 */
export function withConstantEnums(json: unknown): unknown {
  if (!isObject(json) || !Array.isArray(json.events)) return json;
  const events = json.events.map((event: unknown) => {
    if (!isObject(event)) return event;
    let fixed = withEnum(event, 'eventType', 'EVENT_TYPE');
    const attributesKey = Object.keys(fixed).find((key) => key.endsWith('EventAttributes'));
    if (attributesKey && isObject(fixed[attributesKey])) {
      let attributes = fixed[attributesKey] as JsonObject;
      if (isObject(attributes.taskQueue)) attributes = { ...attributes, taskQueue: withEnum(attributes.taskQueue, 'kind', 'TASK_QUEUE_KIND') };
      attributes = withEnum(attributes, 'parentClosePolicy', 'PARENT_CLOSE_POLICY');
      attributes = withEnum(attributes, 'workflowIdReusePolicy', 'WORKFLOW_ID_REUSE_POLICY');
      attributes = withEnum(attributes, 'initiator', 'CONTINUE_AS_NEW_INITIATOR');
      attributes = withEnum(attributes, 'retryState', 'RETRY_STATE');
      if (isObject(attributes.childWorkflowExecutionFailureInfo)) {
        attributes = { ...attributes, childWorkflowExecutionFailureInfo: withEnum(attributes.childWorkflowExecutionFailureInfo, 'retryState', 'RETRY_STATE') };
      }
      fixed = { ...fixed, [attributesKey]: attributes };
    }
    return fixed;
  });
  return { ...json, events };
}

const twoCopies = (error: unknown) => error instanceof TypeError && error.message.includes('type must be a Type');

/** A history from its JSON form (as `temporal workflow show --output json` writes it). */
export function readHistoryJson(json: unknown): History {
  try {
    return historyFromJSON(json);
  } catch (error) {
    if (!twoCopies(error)) throw error;
    const { protojson, historyType } = protoCopy();
    const loaded = protojson.fromJson(historyType, withConstantEnums(json), { ignoreUnknownFields: true });
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
