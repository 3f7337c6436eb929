import type { ListeningRecord } from '../listening/listening.js';
import type { PagingCircumstances } from './circumstances.js';
import type { DependencyGraph } from './dependencies.js';
import type { UserActor } from './incidents.js';
import type { DnsCheckConfig, MonitorConfig, TcpCheckConfig, UptimeConfig } from './monitor-config.js';
import type { CheckObservation, DeadlineObservation, IncomingPing } from './monitor-events.js';

export type UptimePatch = Partial<UptimeConfig>;
export type MonitorPatch = Partial<Omit<MonitorConfig, 'uptime' | 'tcp' | 'dns' | 'type'>> & { uptime?: UptimePatch; tcp?: Partial<TcpCheckConfig>; dns?: Partial<DnsCheckConfig> };

export type MonitorCommand =
  /** `dependencies`: the monitors reachable from the `depends_on` set, as read for this decision. */
  | { type: 'CreateMonitor'; monitor_id: string; project_id: string; config: MonitorConfig; now: string; dependencies?: DependencyGraph }
  | { type: 'UpdateMonitor'; monitor_id: string; patch: MonitorPatch; last_ping_seq: number | null; now: string; dependencies?: DependencyGraph }
  | { type: 'PauseMonitor'; monitor_id: string; now: string }
  | { type: 'ResumeMonitor'; monitor_id: string; now: string }
  | { type: 'ForceMonitorUp'; monitor_id: string; by: UserActor; now: string }
  /**
   * A PATCH: new settings and, with `status`, a pause, or a resume that also forces the monitor UP
   * (by `by`), decided together and recorded in one append, so no crash leaves half of it.
   */
  | { type: 'ChangeMonitor'; monitor_id: string; patch: MonitorPatch; status: 'PAUSED' | 'UP' | null; by: UserActor | null; last_ping_seq: number | null; now: string; dependencies?: DependencyGraph }
  /** `incident_id` is used if the ping opens an incident. */
  | {
      type: 'ReceivePing';
      monitor_id: string;
      ping: IncomingPing;
      incident_id: string;
      repage_after_seconds: number;
      now: string;
      circumstances?: PagingCircumstances;
      /**
       * The slug the sender named the monitor by, where it did (a Sentry check-in's monitor_slug):
       * the id came from a lookup, and a monitor renamed since is not the one the sender meant.
       */
      addressed_as_slug?: string;
    }
  | { type: 'AcknowledgeIncident'; monitor_id: string; incident_id: string; by: UserActor; now: string }
  | { type: 'ResolveIncident'; monitor_id: string; incident_id: string; by: UserActor; now: string }
  | { type: 'DeleteMonitor'; monitor_id: string; now: string }
  /** From the checker: the outcome of one check, after its retries. */
  | {
      type: 'RecordCheck';
      monitor_id: string;
      check: CheckObservation;
      incident_ids: { failed: string; ssl: string };
      ssl_warning_days: number;
      repage_after_seconds: number;
      now: string;
      circumstances?: PagingCircumstances;
    }
  /**
   * What follows from deadlines a timer fire recorded with the pings (`observed`) when its append
   * to the monitor stream lost a race (a store without multi-stream append): decided again on the
   * newer state.
   */
  | {
      type: 'FollowUpDeadlines';
      monitor_id: string;
      observed: DeadlineObservation[];
      incident_ids: { missed: string; overdue: string; failed: string };
      repage_after_seconds: number;
      now: string;
      circumstances?: PagingCircumstances;
    }
  /** From the timer: account for every slot and every run whose deadline has passed by `now`. */
  | {
      type: 'ExpireDeadlines';
      monitor_id: string;
      incident_ids: { missed: string; overdue: string; failed: string };
      repage_after_seconds: number;
      now: string;
      circumstances?: PagingCircumstances;
      /** A maintenance window that held back one of its problems changed or ended: look at them all again. */
      review_suppressed?: boolean;
      /**
       * Vigil's own outages, as read for this decision: a deadline it could not have heard met is
       * recorded unheard, not missed. Absent: read only when the fire finds a deadline passed.
       */
      listening?: ListeningRecord;
    };

/** The command of type `T`, as the decision that handles it receives it. */
export type MonitorCommandOf<T extends MonitorCommand['type']> = Extract<MonitorCommand, { type: T }>;
