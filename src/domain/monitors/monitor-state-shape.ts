import type { UnsummarizedHour } from './check-hours.js';
import type { IncidentKind, IncidentStatus } from './incidents.js';
import type { MonitorConfig } from './monitor-config.js';
import type { OpenRun } from './pings.js';

/** A problem a maintenance window held back (see maintenance-suppression.ts). */
export interface SuppressedProblem {
  incident_id: string;
  cause: string;
  ping_id: string | null;
  window_id: string;
  window_ends_at: string;
}

export interface MonitorState {
  lifecycle: 'absent' | 'active' | 'deleted';
  monitorId: string;
  projectId: string;
  config: MonitorConfig | null;
  health: 'UP' | 'DOWN';
  paused: boolean;
  consecutiveFailures: number;
  consecutiveMisses: number;
  /** The next slot a check-in is expected for; null for JOB_BASIC. Kept while paused, recomputed on resume. */
  nextExpectedAt: string | null;
  totalPings: number;
  lastSuccessAt: string | null;
  lastCheckinAt: string | null;
  /** When the newest ping arrived, whatever it was. */
  lastPingAt: string | null;
  openRuns: readonly OpenRun[];
  incidents: ReadonlyMap<string, IncidentState>;
  consecutiveAlerts: number;
  alertsPausedUntil: string | null;
  /** Problems a maintenance window held back, by kind: opened when it ends if still there. */
  suppressed: ReadonlyMap<IncidentKind, SuppressedProblem>;
  /** Checks recorded (the newest check's check_number). */
  totalChecks: number;
  /** The hours whose counted checks no ChecksSummarized covers yet, oldest first (check-hours.ts). */
  unsummarizedHours: readonly UnsummarizedHour[];
  /** The hour of the newest summary, and how many its stream keeps (null: none yet in that stream). */
  lastSummary: { hour: string; kept: number | null } | null;
}

export interface IncidentState {
  kind: IncidentKind;
  status: IncidentStatus;
  /** Whether anyone was paged about it (so acknowledgement and recovery are told to the same people). */
  paged: boolean;
  /** When to page again while it stays OPEN; null when acknowledged, resolved or never paged. */
  repageAt: string | null;
}
