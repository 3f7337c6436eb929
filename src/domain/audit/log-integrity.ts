import type { Decider, DomainEvent } from '../decider.js';

/**
 * What one check of the log's hash chain found (`vigil verify`, or the console's Verify now).
 * The log is the whole instance's, but a check run from a project's audit page is that project's
 * to see: who ran it is one of its members, and no other project's page shows it.
 */
export interface LogIntegrityCheck {
  checked_at: string;
  ok: boolean;
  events_checked: number;
  /** The last position checked: the log's head then, when it was whole. */
  head_position: number;
  /** The running hash after the last event checked; null when the log was empty or broken. */
  head_chain: string | null;
  first_break_position: number | null;
  first_break_reason: string | null;
  /** Null when the read models were not compared (the console checks the chain only). */
  read_models_ok: boolean | null;
  checked_by: 'cli' | 'console';
  /** Who asked, from the console; null from the CLI. */
  user_id: string | null;
  /** The project whose audit page it was run from; null from the CLI (and in version 1, from either). */
  project_id: string | null;
}

export type LogIntegrityEvent = DomainEvent<'LogIntegrityChecked', LogIntegrityCheck>;
export type LogIntegrityCommand = { type: 'RecordIntegrityCheck'; check: LogIntegrityCheck };

/** One stream for the instance, `log-integrity`: the checks, in order. */
export const LOG_INTEGRITY_STREAM = 'log-integrity';

export const logIntegrityDecider: Decider<LogIntegrityCommand, { checks: number }, LogIntegrityEvent> = {
  initialState: () => ({ checks: 0 }),
  evolve(state, event) {
    switch (event.type) {
      case 'LogIntegrityChecked':
        return { checks: state.checks + 1 };
      default: {
        const exhaustive: never = event.type;
        return exhaustive;
      }
    }
  },
  decide(command) {
    switch (command.type) {
      case 'RecordIntegrityCheck':
        return [{ type: 'LogIntegrityChecked', data: command.check }];
      default: {
        const exhaustive: never = command.type;
        return exhaustive;
      }
    }
  },
};
