import type { Command } from '../cli-context';
import { runCommand } from './run';

/** Every agentctl verb. Each lives in its own file; add new ones here. */
export const commands: Command[] = [runCommand];
