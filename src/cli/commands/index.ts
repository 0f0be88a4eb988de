import type { Command } from '../../client/cli-context';
import { runCommand } from './run';
import { approveCommand } from './approve';
import { rejectCommand } from './reject';
import { replyCommand } from './reply';
import { pendingCommand } from './pending';
import { preferencesCommand } from './preferences';
import { statusCommand } from './status';
import { watchCommand } from './watch';
import { listCommand } from './list';
import { costsCommand } from './costs';
import { resultCommand } from './result';
import { cancelCommand } from './cancel';
import { resumeCommand } from './resume';
import { forkCommand } from './fork';
import { replayCommand } from './replay';
import { keysCommand } from './keys';
import { auditCommand } from './audit';
import { consoleCommand } from './console';
import { codecServerCommand } from './codec-server';
import { agentsCommand } from './agents';
import { sendCommand } from './send';
import { closeCommand } from './close';
import { modeCommand } from './mode';
import { budgetCommand } from './budget';
import { scheduleCommand } from './schedule';
import { deployCommand } from './deploy';

/** Every agentctl verb. Each lives in its own file; add new ones here. */
export const commands: Command[] = [
  runCommand,
  agentsCommand,
  approveCommand,
  rejectCommand,
  replyCommand,
  pendingCommand,
  preferencesCommand,
  resumeCommand,
  forkCommand,
  replayCommand,
  statusCommand,
  watchCommand,
  listCommand,
  costsCommand,
  resultCommand,
  cancelCommand,
  keysCommand,
  auditCommand,
  consoleCommand,
  sendCommand,
  closeCommand,
  modeCommand,
  budgetCommand,
  scheduleCommand,
  deployCommand,
  codecServerCommand,
];
