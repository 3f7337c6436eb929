import { type LogIntegrityCheck, LOG_INTEGRITY_STREAM, logIntegrityDecider } from '../domain/audit/log-integrity.js';
import { type Actor, handleCommand } from './command-handler.js';
import type { CommandContext } from './context.js';

/** Records what a check of the log found, so every audit page can show the last one. */
export async function recordIntegrityCheck(context: CommandContext, check: LogIntegrityCheck, actor: Actor) {
  return handleCommand(context, LOG_INTEGRITY_STREAM, logIntegrityDecider, { type: 'RecordIntegrityCheck', check }, actor);
}
