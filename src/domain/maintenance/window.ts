import type { Decider, DomainEvent } from '../decider.js';
import { invalid, notFound } from '../errors.js';
import { isTimeZone, nextExpectedAfter, scheduleProblem } from '../monitors/schedule.js';

/**
 * When a maintenance window covers its monitors: once (`starts_at` to `ends_at`), or at every
 * occurrence of an RRULE in an IANA time zone for `duration_seconds`. The fields of the other
 * form are null. Occurrences are wall times in the zone (02:00 stays 02:00 across a DST change);
 * the duration is real time.
 */
export interface MaintenanceTiming {
  starts_at: string | null;
  ends_at: string | null;
  rrule: string | null;
  timezone: string | null;
  duration_seconds: number | null;
}

/** What a window's owner chooses; every Scheduled and Updated event carries all of it. */
export interface MaintenanceWindowSettings extends MaintenanceTiming {
  name: string;
  /** The monitors it covers; null: every monitor of the project. */
  monitor_ids: string[] | null;
}

type Ids = { project_id: string; window_id: string };

export type MaintenanceWindowEvent =
  | DomainEvent<'MaintenanceWindowScheduled', Ids & MaintenanceWindowSettings & { scheduled_at: string }>
  | DomainEvent<'MaintenanceWindowUpdated', Ids & MaintenanceWindowSettings & { updated_at: string }>
  /** `ENDED`: ended now, early (it covers nothing from `ended_at` on); `CANCELLED`: withdrawn, and no longer listed. */
  | DomainEvent<'MaintenanceWindowEnded', Ids & { name: string; ended_at: string; reason: 'ENDED' | 'CANCELLED' }>;

export type MaintenanceWindowCommand =
  | { type: 'ScheduleMaintenanceWindow'; project_id: string; window_id: string; settings: MaintenanceWindowSettings; now: string }
  | { type: 'UpdateMaintenanceWindow'; window_id: string; patch: Partial<MaintenanceWindowSettings>; now: string }
  | { type: 'EndMaintenanceWindow'; window_id: string; reason: 'ENDED' | 'CANCELLED'; now: string };

/** A window as the log has it: its settings, and when it was ended early or cancelled. */
export interface MaintenanceWindow extends MaintenanceWindowSettings {
  window_id: string;
  project_id: string;
  ended_at: string | null;
  cancelled: boolean;
}

/** Every window of one project: they live in one stream, so a decision reads them all at once. */
export interface MaintenanceState {
  projectId: string | null;
  windows: ReadonlyMap<string, MaintenanceWindow>;
}

/** What covers a monitor now: the window, by name, and when its current occurrence ends. */
export interface ActiveWindow {
  window_id: string;
  name: string;
  ends_at: string;
}

export const maintenanceStream = (projectId: string) => `maintenance-${projectId}`;

export const MAX_WINDOW_NAME = 100;
export const MAX_WINDOW_MONITORS = 100;
/** Longest a one-off window may last, and a recurring one's occurrence. */
export const MAX_ONE_OFF_SECONDS = 90 * 86_400;
export const MAX_OCCURRENCE_SECONDS = 7 * 86_400;
export const MIN_WINDOW_SECONDS = 60;
/** Windows not yet over that a project may have at once. */
export const MAX_OPEN_WINDOWS = 200;

const ms = (iso: string) => Date.parse(iso);
const plusSeconds = (iso: string, seconds: number) => new Date(ms(iso) + seconds * 1000).toISOString();

/** The occurrence of `window` that covers `now`, or null. */
export function occurrenceAt(window: MaintenanceWindow, now: string): { starts_at: string; ends_at: string } | null {
  if (window.cancelled || (window.ended_at !== null && ms(window.ended_at) <= ms(now))) return null;
  const cut = (ends: string) => (window.ended_at !== null && ms(window.ended_at) < ms(ends) ? window.ended_at : ends);
  if (window.rrule === null) {
    if (window.starts_at === null || window.ends_at === null) return null;
    return ms(window.starts_at) <= ms(now) && ms(now) < ms(window.ends_at) ? { starts_at: window.starts_at, ends_at: cut(window.ends_at) } : null;
  }
  if (window.timezone === null || window.duration_seconds === null) return null;
  // The first occurrence after (now - duration): the one under way now, if it has started.
  const start = occurrenceAfter(window.rrule, window.timezone, new Date(ms(now) - window.duration_seconds * 1000).toISOString());
  if (start === null || ms(start) > ms(now)) return null;
  return { starts_at: start, ends_at: cut(plusSeconds(start, window.duration_seconds)) };
}

/** When `window` next starts covering after `now`; null when it never will again. */
export function nextStartAfter(window: MaintenanceWindow, now: string): string | null {
  if (window.cancelled || window.ended_at !== null) return null;
  if (window.rrule === null) return window.starts_at !== null && ms(window.starts_at) > ms(now) ? window.starts_at : null;
  return window.timezone === null ? null : occurrenceAfter(window.rrule, window.timezone, now);
}

/**
 * The rule's first occurrence after `from`, in the zone, as a monitor's schedule has it: a wall
 * time the spring-forward gap skips (02:00 in Paris on the last Sunday of March) starts at the
 * first instant after the gap (03:00 CEST), as cron has it.
 */
function occurrenceAfter(rule: string, timezone: string, from: string): string | null {
  return nextExpectedAfter('JOB_CRON', rule, timezone, from);
}

export function covers(window: MaintenanceWindow, monitorId: string): boolean {
  return window.monitor_ids === null || window.monitor_ids.includes(monitorId);
}

/**
 * The window covering `monitorId` at `now`. Of several, the one ending last: what it holds back
 * then is looked at again when that one ends, and opens unless yet another covers it.
 */
export function activeWindowFor(windows: Iterable<MaintenanceWindow>, monitorId: string, now: string): ActiveWindow | null {
  let found: ActiveWindow | null = null;
  for (const window of windows) {
    if (!covers(window, monitorId)) continue;
    const occurrence = occurrenceAt(window, now);
    if (occurrence && (found === null || ms(occurrence.ends_at) > ms(found.ends_at))) found = { window_id: window.window_id, name: window.name, ends_at: occurrence.ends_at };
  }
  return found;
}

/** Whether a window can still cover anything after `now`. */
export function isOver(window: MaintenanceWindow, now: string): boolean {
  if (window.cancelled) return true;
  if (window.ended_at !== null && ms(window.ended_at) <= ms(now)) return true;
  if (window.rrule === null) return window.ends_at !== null && ms(window.ends_at) <= ms(now);
  return occurrenceAt(window, now) === null && nextStartAfter(window, now) === null;
}

function timingProblem(settings: MaintenanceTiming, now: string): string | null {
  const { starts_at, ends_at, rrule, timezone, duration_seconds } = settings;
  const oneOff = starts_at !== null || ends_at !== null;
  const recurring = rrule !== null || timezone !== null || duration_seconds !== null;
  if (oneOff && recurring) return 'starts_at: a window is either one-off (starts_at, ends_at) or recurring (rrule, timezone, duration_seconds), not both';
  if (!oneOff && !recurring) return 'starts_at: a window needs starts_at and ends_at, or rrule, timezone and duration_seconds';
  if (oneOff) {
    if (starts_at === null || Number.isNaN(ms(starts_at))) return 'starts_at: a one-off window needs starts_at, an ISO-8601 time';
    if (ends_at === null || Number.isNaN(ms(ends_at))) return 'ends_at: a one-off window needs ends_at, an ISO-8601 time';
    const seconds = (ms(ends_at) - ms(starts_at)) / 1000;
    if (seconds < MIN_WINDOW_SECONDS) return `ends_at: must be at least ${MIN_WINDOW_SECONDS} seconds after starts_at`;
    if (seconds > MAX_ONE_OFF_SECONDS) return `ends_at: a one-off window lasts at most ${MAX_ONE_OFF_SECONDS / 86_400} days`;
    if (ms(ends_at) <= ms(now)) return 'ends_at: the window would already be over';
    return null;
  }
  if (rrule === null || !/^RRULE:/i.test(rrule.trim())) return 'rrule: a recurring window needs rrule, an RFC 5545 RRULE such as RRULE:FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=0';
  if (timezone === null || !isTimeZone(timezone)) return 'timezone: a recurring window needs timezone, an IANA time zone such as Europe/Paris';
  if (duration_seconds === null || !Number.isInteger(duration_seconds) || duration_seconds < MIN_WINDOW_SECONDS || duration_seconds > MAX_OCCURRENCE_SECONDS) {
    return `duration_seconds: a whole number of seconds from ${MIN_WINDOW_SECONDS} to ${MAX_OCCURRENCE_SECONDS}`;
  }
  const problem = scheduleProblem('JOB_CRON', rrule, timezone, now);
  return problem === null ? null : problem.replace(/^schedule:/, 'rrule:');
}

function checked(settings: MaintenanceWindowSettings, now: string): MaintenanceWindowSettings {
  const name = settings.name.trim();
  if (name.length === 0 || name.length > MAX_WINDOW_NAME) throw invalid(`name: 1 to ${MAX_WINDOW_NAME} characters`);
  if (settings.monitor_ids !== null) {
    if (settings.monitor_ids.length === 0) throw invalid('monitor_ids: name at least one monitor, or leave it out to cover the whole project');
    if (settings.monitor_ids.length > MAX_WINDOW_MONITORS) throw invalid(`monitor_ids: at most ${MAX_WINDOW_MONITORS} monitors`);
    if (new Set(settings.monitor_ids).size !== settings.monitor_ids.length) throw invalid('monitor_ids: a monitor is listed twice');
  }
  const problem = timingProblem(settings, now);
  if (problem) throw invalid(problem);
  const { starts_at, ends_at, rrule, timezone, duration_seconds } = settings;
  return {
    name,
    monitor_ids: settings.monitor_ids,
    // Times as the log keeps every time: ISO-8601 UTC.
    starts_at: starts_at === null ? null : new Date(starts_at).toISOString(),
    ends_at: ends_at === null ? null : new Date(ends_at).toISOString(),
    rrule: rrule === null ? null : rrule.trim(),
    timezone,
    duration_seconds,
  };
}

const settingsOf = (w: MaintenanceWindow): MaintenanceWindowSettings => ({
  name: w.name, monitor_ids: w.monitor_ids, starts_at: w.starts_at, ends_at: w.ends_at, rrule: w.rrule, timezone: w.timezone, duration_seconds: w.duration_seconds,
});

/** A patch that switches form (one-off ↔ recurring) leaves the other form's fields behind. */
function patched(current: MaintenanceWindowSettings, patch: Partial<MaintenanceWindowSettings>): MaintenanceWindowSettings {
  const next = { ...current, ...patch };
  const toOneOff = patch.starts_at !== undefined || patch.ends_at !== undefined;
  const toRecurring = patch.rrule !== undefined || patch.timezone !== undefined || patch.duration_seconds !== undefined;
  if (toOneOff && !toRecurring && current.rrule !== null) return { ...next, rrule: null, timezone: null, duration_seconds: null };
  if (toRecurring && !toOneOff && current.starts_at !== null) return { ...next, starts_at: null, ends_at: null };
  return next;
}

export const maintenanceDecider: Decider<MaintenanceWindowCommand, MaintenanceState, MaintenanceWindowEvent> = {
  initialState: () => ({ projectId: null, windows: new Map() }),

  evolve(state, event) {
    switch (event.type) {
      case 'MaintenanceWindowScheduled':
      case 'MaintenanceWindowUpdated': {
        const { project_id, window_id, name, monitor_ids, starts_at, ends_at, rrule, timezone, duration_seconds } = event.data;
        const before = state.windows.get(window_id);
        const window: MaintenanceWindow = {
          window_id, project_id, name, monitor_ids, starts_at, ends_at, rrule, timezone, duration_seconds,
          ended_at: before?.ended_at ?? null, cancelled: before?.cancelled ?? false,
        };
        return { projectId: project_id, windows: new Map(state.windows).set(window_id, window) };
      }
      case 'MaintenanceWindowEnded': {
        const before = state.windows.get(event.data.window_id);
        if (!before) return state;
        const ended = { ...before, ended_at: before.ended_at ?? event.data.ended_at, cancelled: before.cancelled || event.data.reason === 'CANCELLED' };
        return { ...state, windows: new Map(state.windows).set(event.data.window_id, ended) };
      }
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ScheduleMaintenanceWindow': {
        if (state.windows.has(command.window_id)) return [];
        const open = [...state.windows.values()].filter((w) => !isOver(w, command.now)).length;
        if (open >= MAX_OPEN_WINDOWS) throw invalid(`a project has at most ${MAX_OPEN_WINDOWS} maintenance windows not yet over; end or cancel some first`);
        const { project_id, window_id, now } = command;
        return [{ type: 'MaintenanceWindowScheduled', data: { project_id, window_id, ...checked(command.settings, now), scheduled_at: now } }];
      }
      case 'UpdateMaintenanceWindow': {
        const window = state.windows.get(command.window_id);
        if (!window || window.cancelled) throw notFound('maintenance window not found');
        if (isOver(window, command.now)) throw invalid('the maintenance window is over; schedule a new one');
        const current = settingsOf(window);
        const next = checked(patched(current, command.patch), command.now);
        if (JSON.stringify(next) === JSON.stringify(current)) return [];
        return [{ type: 'MaintenanceWindowUpdated', data: { project_id: window.project_id, window_id: window.window_id, ...next, updated_at: command.now } }];
      }
      case 'EndMaintenanceWindow': {
        const window = state.windows.get(command.window_id);
        if (!window || window.cancelled) {
          if (window && command.reason === 'CANCELLED') return [];
          throw notFound('maintenance window not found');
        }
        // Ending what is already over changes nothing; cancelling it still takes it off the list.
        if (command.reason === 'ENDED' && isOver(window, command.now)) return [];
        return [{ type: 'MaintenanceWindowEnded', data: { project_id: window.project_id, window_id: window.window_id, name: window.name, ended_at: command.now, reason: command.reason } }];
      }
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
  },
};
