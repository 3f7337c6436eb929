import type { Decider, DomainEvent } from '../decider.js';

/*
 * Whether Vigil could hear. While the Ping API runs it confirms, every few seconds, that it is
 * listening, and says by when it will confirm again; a confirmation that comes later than that (a
 * start after a stop or a crash, a paused process, a suspended machine, a wall clock stepped
 * forward) records the silence before it as an outage. The confirmations are instance-wide: any
 * api process's confirmation means pings were being heard.
 */

/** The last confirmation only: the stream is kept to its newest event, so it never grows. */
export const LISTENING_STREAM = 'listening';
/** The outages, newest kept (a window of OUTAGES_KEPT); deadline decisions read them. */
export const OUTAGES_STREAM = 'listening-outages';
export const OUTAGES_KEPT = 100;

/** A confirmation counts for this many intervals: one tick may come up to a whole interval late. */
export const INTERVALS_COVERED = 2;

/** A stretch of time Vigil could not hear pings in, ISO-8601 UTC bounds. */
export interface Outage {
  from: string;
  to: string;
}

export type ListeningEvent =
  /** The Ping API was listening at `at`, and will say so again by `confirm_again_by`. */
  | DomainEvent<'ListeningConfirmed', { at: string; confirm_again_by: string }>
  /**
   * No confirmation came between `from` (the last one) and `to` (the one after the silence):
   * Vigil could not hear pings then. `noticed`: at start, or by the loop while running.
   */
  | DomainEvent<'ListeningInterrupted', Outage & { noticed: 'START' | 'RUNNING'; silent_seconds: number }>;

/** `first`: this process's first confirmation since it started. */
export type ListeningCommand = { type: 'ConfirmListening'; now: string; interval_ms: number; first: boolean };

export interface ListeningState {
  confirmedAt: string | null;
  confirmAgainBy: string | null;
  /** The end of the newest outage recorded: a silence is never counted twice. */
  lastOutageTo: string | null;
}

const ms = (iso: string) => Date.parse(iso);
const later = (a: string | null, b: string | null) => (a === null ? b : b === null || ms(a) >= ms(b) ? a : b);

export const listeningDecider: Decider<ListeningCommand, ListeningState, ListeningEvent> = {
  initialState: () => ({ confirmedAt: null, confirmAgainBy: null, lastOutageTo: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'ListeningConfirmed':
        return { ...state, confirmedAt: event.data.at, confirmAgainBy: event.data.confirm_again_by };
      case 'ListeningInterrupted':
        return { ...state, lastOutageTo: later(state.lastOutageTo, event.data.to) };
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },
  decide(command, state) {
    const { now, interval_ms } = command;
    const confirmed: ListeningEvent = { type: 'ListeningConfirmed', data: { at: now, confirm_again_by: new Date(Date.parse(now) + INTERVALS_COVERED * interval_ms).toISOString() } };
    const outage = silenceBefore(state, now);
    if (outage === null) return [confirmed];
    const silent_seconds = (Date.parse(outage.to) - Date.parse(outage.from)) / 1000;
    return [{ type: 'ListeningInterrupted', data: { ...outage, noticed: command.first ? 'START' : 'RUNNING', silent_seconds } }, confirmed];
  },
};

/**
 * The silence before `now` if the last confirmation promised another before it: from that
 * confirmation, or from the end of an outage already recorded after it. A clock stepped back
 * finds the last confirmation in its future: no silence, and nothing is counted twice.
 */
function silenceBefore(state: ListeningState, now: string): Outage | null {
  if (state.confirmAgainBy === null || ms(now) <= ms(state.confirmAgainBy)) return null;
  const from = later(state.confirmedAt, state.lastOutageTo)!;
  return ms(from) < ms(now) ? { from, to: now } : null;
}

/** What a decision about deadlines knows of Vigil's listening, read from both streams. */
export interface ListeningRecord {
  /** The outages recorded, any order. */
  outages: readonly Outage[];
  /** The last confirmation's promise; null where none was ever recorded (a log from before them). */
  confirm_again_by: string | null;
  confirmed_at: string | null;
}

export const NOTHING_KNOWN: ListeningRecord = { outages: [], confirm_again_by: null, confirmed_at: null };

/**
 * The stretches Vigil could not hear as of `now`: the outages recorded and, while the last
 * confirmation is overdue, the silence since it (an outage under way, or one not recorded yet: the
 * Ping API stopped, or its process not yet back to say so).
 */
export function unheardStretches(listening: ListeningRecord, now: string): Outage[] {
  const { confirm_again_by, confirmed_at } = listening;
  const ongoing = confirm_again_by !== null && confirmed_at !== null && ms(now) > ms(confirm_again_by) ? [{ from: confirmed_at, to: now }] : [];
  return [...listening.outages, ...ongoing];
}

/** The first stretch that overlaps [from, to], if any. */
export function overlapping(stretches: readonly Outage[], from: string, to: string): Outage | null {
  return stretches.find((s) => ms(s.from) <= ms(to) && ms(s.to) >= ms(from)) ?? null;
}
