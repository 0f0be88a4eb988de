import { ApplicationFailure } from '@temporalio/common';
import { describeZodError } from '../../../contract/describe-zod-error';
import { FailureType } from '../../../contract/errors';
import { RunStateSchema, type RunState } from '../../../core/machine/run-state';
import { v1ToV2, type RunStateV1 } from './run-state-v1';
import { v2ToV3, type RunStateV2 } from './run-state-v2';
import { v3ToV4, type RunStateV3 } from './run-state-v3';
import { v4ToV5, type RunStateV4 } from './run-state-v4';
import { v5ToV6, type RunStateV5 } from './run-state-v5';
import { v6ToV7, type RunStateV6 } from './run-state-v6';
import { v7ToV8, type RunStateV7 } from './run-state-v7';
import { v8ToV9, type RunStateV8 } from './run-state-v8';

export const CURRENT_STATE_VERSION = 9;

/**
 * Upgrades any known checkpoint shape to the current `RunState`, one version at a time, then checks
 * it against the schema: a checkpoint that does not fit fails the run with what is wrong, instead of
 * misbehaving later. `now` is the workflow time, for fields older versions did not keep.
 */
export function migrateState(raw: unknown, now: string): RunState {
  let value = raw;
  let version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version === 1) {
    value = v1ToV2(value as RunStateV1, now);
    version = 2;
  }
  if (version === 2) {
    value = v2ToV3(value as RunStateV2);
    version = 3;
  }
  if (version === 3) {
    value = v3ToV4(value as RunStateV3);
    version = 4;
  }
  if (version === 4) {
    value = v4ToV5(value as RunStateV4);
    version = 5;
  }
  if (version === 5) {
    value = v5ToV6(value as RunStateV5);
    version = 6;
  }
  if (version === 6) {
    value = v6ToV7(value as RunStateV6);
    version = 7;
  }
  if (version === 7) {
    value = v7ToV8(value as RunStateV7);
    version = 8;
  }
  if (version === 8) {
    value = v8ToV9(value as RunStateV8);
    version = 9;
  }
  if (version !== CURRENT_STATE_VERSION) {
    throw ApplicationFailure.create({
      type: FailureType.UnsupportedStateVersion,
      nonRetryable: true,
      message: `Cannot continue from a checkpoint with schemaVersion ${String(version)}; this worker knows versions 1 to ${CURRENT_STATE_VERSION}.`,
    });
  }
  const parsed = RunStateSchema.safeParse(value);
  if (!parsed.success) {
    throw ApplicationFailure.create({
      type: FailureType.UnsupportedStateVersion,
      nonRetryable: true,
      message: `The run's checkpoint (schemaVersion ${CURRENT_STATE_VERSION}) is invalid:\n${describeZodError(parsed.error)}`,
    });
  }
  return parsed.data;
}
