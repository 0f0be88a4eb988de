// One seed, start to finish: generate its schedule, run it, check the invariants.
import { executeSchedule } from './executor';
import { checkInvariants } from './invariants';
import type { ScheduleResult } from './report';
import { generateSchedule } from './schedule';
import type { FuzzWorld } from './world';

export async function fuzzSeed(world: FuzzWorld, seed: number): Promise<ScheduleResult> {
  const { trace, evidence } = await executeSchedule(world, generateSchedule(seed));
  return { trace, evidence, violations: checkInvariants(trace, evidence) };
}
