import { expect } from 'chai';
import { type MonitorConfig, MONITOR_DEFAULTS, UPTIME_DEFAULTS } from '../../../src/domain/monitors/monitor-config.js';
import { type CheckObservation, type IncomingPing, type MonitorCommand, type MonitorEvent, type MonitorPatch, type PingReceivedData, monitorDecider } from '../../../src/domain/monitors/monitor.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(monitorDecider);
const monitor_id = 'm-1';
const project_id = 'p-1';
const ids = { monitor_id, project_id };
const T0 = '2026-11-21T10:00:00.000Z';
const T1 = '2026-11-21T10:05:00.000Z';
const by = { user_id: 'u-1', email: 'ops@example.com', api_key_id: 'k-1' };

function config(overrides: Partial<MonitorConfig> = {}): MonitorConfig {
  // Paging has its own specs; here incidents are recorded without paging.
  return { ...MONITOR_DEFAULTS, alert_enabled: false, name: 'Backup', slug: 'backup', type: 'JOB_HEARTBEAT', schedule: '1h', uptime: null, ...overrides };
}
const HOUR_AFTER_T0 = '2026-11-21T11:00:00.000Z';
const HOUR_AFTER_T1 = '2026-11-21T11:05:00.000Z';
const created = (overrides: Partial<MonitorConfig> = {}): MonitorEvent => ({
  type: 'MonitorCreated',
  data: { ...ids, config: config(overrides), created_at: T0, next_expected_at: overrides.type === 'JOB_BASIC' ? null : HOUR_AFTER_T0 },
});

function ping(overrides: Partial<IncomingPing> = {}): IncomingPing {
  return {
    ping_id: 'ping-1', event: 'SUCCESS', run_id: null, exit_code: null, duration_ms: null, message: null,
    payload: null, payload_truncated: false, payload_bytes: null, request_ip: '127.0.0.1', request_ua: 'curl', ...overrides,
  };
}
const receive = (p: Partial<IncomingPing> = {}, now = T1): MonitorCommand => ({ type: 'ReceivePing', monitor_id, ping: ping(p), incident_id: 'inc-1', repage_after_seconds: 3600, now });
const receiveBySlug = (slug: string): MonitorCommand => ({ type: 'ReceivePing', monitor_id, ping: ping(), incident_id: 'inc-1', repage_after_seconds: 3600, now: T1, addressed_as_slug: slug });

function received(overrides: Partial<PingReceivedData> = {}): MonitorEvent {
  return {
    type: 'PingReceived',
    data: {
      ...ids, ...ping(), duration_assertion: null, started_at: null, received_at: T1, evaluated: true, closed_start_ping_id: null,
      consecutive_failures: 0, consecutive_misses: 0, total_pings_received: 1, last_success_at: T1, last_checkin_at: T1,
      next_expected_at: HOUR_AFTER_T1, retention_count: 200, ...overrides,
    },
  };
}

/** The PingReceived events of a run of failures, as the decider would have recorded them. */
function failures(n: number): MonitorEvent[] {
  return Array.from({ length: n }, (_, i) =>
    received({ ping_id: `f${i}`, event: 'FAILURE', exit_code: 1, consecutive_failures: i + 1, total_pings_received: i + 1, last_success_at: null }),
  );
}
const incidentOpened = (event: 'FAILED' | 'DURATION_HIGH' | 'DURATION_LOW' | 'MISSED', cause: string, incident_id = 'inc-1', ping_id = 'ping-1'): MonitorEvent => ({
  type: 'IncidentOpened',
  data: { ...ids, incident_id, event, cause, started_at: T1, monitor_name: 'Backup', monitor_slug: 'backup', ping_id },
});
const resolvedBySuccess = (incident_id: string): MonitorEvent => ({
  type: 'IncidentResolved',
  data: { ...ids, incident_id, resolved_at: T1, by_kind: 'system', user_id: null, email: null, api_key_id: null, reason: 'SUCCESS_PING' },
});

describe('Monitor', () => {
  describe('creation', () => {
    it('records the monitor with its configuration', () =>
      given([]).when({ type: 'CreateMonitor', monitor_id, project_id, config: config(), now: T0 }).then([created()]));

    it('refuses min_duration_seconds not below max_duration_seconds', () =>
      given([])
        .when({ type: 'CreateMonitor', monitor_id, project_id, config: config({ min_duration_seconds: 60, max_duration_seconds: 60 }), now: T0 })
        .thenRefuses('invalid', /min_duration_seconds must be less than max_duration_seconds/));

    it('refuses a schedule that does not suit the type, and an unknown time zone', () => {
      given([]).when({ type: 'CreateMonitor', monitor_id, project_id, config: config({ type: 'JOB_CRON', schedule: '5m' }), now: T0 }).thenRefuses('invalid', /five-field cron/);
      given([]).when({ type: 'CreateMonitor', monitor_id, project_id, config: config({ schedule: '0 * * * *' }), now: T0 }).thenRefuses('invalid', /interval such as 30s/);
      given([]).when({ type: 'CreateMonitor', monitor_id, project_id, config: config({ timezone: 'Mars/Olympus' }), now: T0 }).thenRefuses('invalid', /IANA time zone/);
    });

    it('refuses a JOB_CRON schedule that never fires after `now`, saying why', () => {
      const create = (schedule: string, now = T0): MonitorCommand => ({ type: 'CreateMonitor', monitor_id, project_id, config: config({ type: 'JOB_CRON', schedule }), now });
      given([]).when(create('0 0 31 2 *')).thenRefuses('invalid', /^schedule: "0 0 31 2 \*" never fires \(February has no 31st\)$/);
      given([]).when(create('RRULE:FREQ=DAILY;INTERVAL=0')).thenRefuses('invalid', /^schedule: RRULE INTERVAL must be at least 1, got 0$/);
      given([]).when(create('RRULE:FREQ=DAILY;BYHOUR=99')).thenRefuses('invalid', /^schedule: RRULE BYHOUR values must be 0 to 23, got 99$/);
      given([]).when(create('RRULE:FREQ=DAILY;COUNT=3')).thenRefuses('invalid', new RegExp(`COUNT=3 is used up .*: it has no occurrence after ${T0}$`));
      given([]).when(create('RRULE:FREQ=DAILY;COUNT=3', '2020-01-01T12:00:00.000Z')).thenEmits(['MonitorCreated']);
    });
  });

  describe('when UP', () => {
    it('records a SUCCESS ping, resetting failures and stamping last_success_at', () =>
      given([created()]).when(receive()).then([received()]));

    it('records a ping addressed by the slug the monitor has', () =>
      given([created()]).when(receiveBySlug('backup')).then([received()]));

    it('refuses as not found a ping addressed by a slug the monitor no longer has, for the sender to look it up again', () =>
      given([created(), { type: 'MonitorUpdated', data: { ...ids, config: config({ slug: 'nightly-backup' }), updated_at: T0, last_ping_seq: null, next_expected_at: HOUR_AFTER_T0 } }])
        .when(receiveBySlug('backup'))
        .thenRefuses('not_found', /no longer has the slug backup/));

    it('treats SUCCESS with a non-zero exit code as a FAILURE', () =>
      given([created({ failure_tolerance: 2 })])
        .when(receive({ exit_code: 3 }))
        .then([received({ event: 'FAILURE', exit_code: 3, consecutive_failures: 1, last_success_at: null })]));

    it('goes DOWN and opens a FAILED incident when failures reach failure_tolerance', () =>
      given([created({ failure_tolerance: 3 }), ...failures(2)])
        .when(receive({ event: 'FAILURE', exit_code: 2 }))
        .then([
          received({ event: 'FAILURE', exit_code: 2, consecutive_failures: 3, total_pings_received: 3, last_success_at: null }),
          { type: 'MonitorWentDown', data: { ...ids, reason: 'FAILURES', at: T1 } },
          incidentOpened('FAILED', '3 consecutive failures; last exit code 2'),
        ]));

    it('stays UP below failure_tolerance', () =>
      given([created({ failure_tolerance: 3 }), ...failures(1)])
        .when(receive({ event: 'FAILURE' }))
        .thenEmits(['PingReceived']));

    it('does not change status or open anything for LOG and START pings', () => {
      given([created()]).when(receive({ event: 'LOG' })).thenEmits(['PingReceived']);
      given([created()]).when(receive({ event: 'START' })).thenEmits(['PingReceived']);
    });
  });

  describe('when DOWN with a FAILED incident open', () => {
    const down: MonitorEvent[] = [
      created(),
      ...failures(1),
      { type: 'MonitorWentDown', data: { ...ids, reason: 'FAILURES', at: T0 } },
      incidentOpened('FAILED', '1 failure; last exit code 1', 'inc-0', 'f0'),
    ];

    it('opens no second FAILED incident on another failure', () => given(down).when(receive({ event: 'FAILURE' })).thenEmits(['PingReceived']));

    it('goes UP on a SUCCESS ping and resolves the incident as the system', () =>
      given(down)
        .when(receive())
        .then([received({ total_pings_received: 2 }), { type: 'MonitorWentUp', data: { ...ids, reason: 'SUCCESS_PING', at: T1 } }, resolvedBySuccess('inc-0')]));

    it('is forced UP by a user: counters reset, incident resolved by that user', () =>
      given(down)
        .when({ type: 'ForceMonitorUp', monitor_id, by, now: T1 })
        .then([
          { type: 'MonitorCountersReset', data: { ...ids, reset_at: T1 } },
          { type: 'MonitorWentUp', data: { ...ids, reason: 'FORCED', at: T1 } },
          { type: 'IncidentResolved', data: { ...ids, incident_id: 'inc-0', resolved_at: T1, by_kind: 'user', ...by, reason: 'FORCED_UP' } },
        ]));

    it('re-opens a lost FAILED incident on the next failure (decisions are level-triggered)', () =>
      given([created(), ...failures(1), { type: 'MonitorWentDown', data: { ...ids, reason: 'FAILURES', at: T0 } }])
        .when(receive({ event: 'FAILURE', exit_code: 9 }))
        .thenEmits(['PingReceived', 'IncidentOpened']));
  });

  describe('runs and durations', () => {
    const started = (ping_id: string, run_id: string | null, at = T0): MonitorEvent =>
      received({ ping_id, run_id, event: 'START', received_at: at, last_success_at: null, last_checkin_at: at });

    it('pairs a completion with its START by run_id and measures the run', () =>
      given([created(), started('s-a', 'a'), started('s-b', 'b', '2026-11-21T10:04:00.000Z')])
        .when(receive({ run_id: 'a' }))
        .then([received({ run_id: 'a', duration_ms: 300_000, started_at: T0, closed_start_ping_id: 's-a', total_pings_received: 2 })]));

    it('pairs a completion without run_id with the latest open START', () =>
      given([created(), started('s-a', 'a'), started('s-b', null, '2026-11-21T10:04:00.000Z')])
        .when(receive())
        .then([received({ duration_ms: 60_000, started_at: '2026-11-21T10:04:00.000Z', closed_start_ping_id: 's-b', total_pings_received: 2 })]));

    it('replaces the open START of the same run with a repeated START (a retry), so that only one run is open', () => {
      given([created({ max_duration_seconds: 600 }), started('s-1', 'job-1'), started('s-x', 'other')])
        .when(receive({ ping_id: 's-2', event: 'START', run_id: 'job-1' }))
        .then([received({ ping_id: 's-2', event: 'START', run_id: 'job-1', closed_start_ping_id: 's-1', total_pings_received: 2, last_success_at: null })]);
      // Without a run_id, the open START without one.
      given([created(), started('s-1', null), started('s-x', 'other')])
        .when(receive({ ping_id: 's-2', event: 'START' }))
        .then([received({ ping_id: 's-2', event: 'START', closed_start_ping_id: 's-1', total_pings_received: 2, last_success_at: null })]);
    });

    it('never reports the replaced START as hung', () => {
      const retried = received({ ping_id: 's-2', event: 'START', run_id: 'job-1', received_at: '2026-11-21T10:00:03.000Z', closed_start_ping_id: 's-1', last_success_at: null });
      const expire = (now: string): MonitorCommand => ({ type: 'ExpireDeadlines', monitor_id, incident_ids: { missed: 'm', overdue: 'o', failed: 'f' }, repage_after_seconds: 3600, now });
      // Past the first START's deadline (10:10:00), before the retry's (10:10:03).
      given([created({ type: 'JOB_BASIC', schedule: 'x', max_duration_seconds: 600 }), started('s-1', 'job-1'), retried]).when(expire('2026-11-21T10:10:01.000Z')).then([]);
    });

    describe('a JOB_BASIC run the watchdog closed as failed', () => {
      // Started at 10:00 with max_duration_seconds 120: at 10:02 the watchdog failed it.
      const watched = (overrides: Partial<MonitorConfig> = {}) => created({ type: 'JOB_BASIC', schedule: 'x', max_duration_seconds: 120, ...overrides });
      const closedAsFailure: MonitorEvent = {
        type: 'RunOverdue',
        data: { ...ids, start_ping_id: 's-slow', run_id: 'slow', started_at: T0, deadline_at: '2026-11-21T10:02:00.000Z', closed_as_failure: true, consecutive_failures: 1, counters: null },
      };
      const reportedHung = incidentOpened('DURATION_HIGH', 'Run started 2026-11-21T10:00:00.000Z is still running after 2 min', 'inc-o', 's-slow');
      const basicReceived = (overrides: Partial<PingReceivedData>) => received({ next_expected_at: null, total_pings_received: 2, ...overrides });

      it('still measures the SUCCESS that finally arrives from its START, and asserts it TOO_SLOW', () =>
        given([watched(), started('s-slow', 'slow'), closedAsFailure, reportedHung])
          .when(receive({ run_id: 'slow' }))
          .then([basicReceived({ run_id: 'slow', duration_ms: 300_000, duration_assertion: 'TOO_SLOW', started_at: T0, closed_start_ping_id: 's-slow' })]));

      it('does not count the run as failed twice when its FAILURE arrives after all', () =>
        given([watched({ failure_tolerance: 2 }), started('s-slow', 'slow'), closedAsFailure, reportedHung])
          .when(receive({ run_id: 'slow', event: 'FAILURE', exit_code: 1 }))
          .then([
            basicReceived({
              run_id: 'slow', event: 'FAILURE', exit_code: 1, duration_ms: 300_000, duration_assertion: 'TOO_SLOW', started_at: T0,
              closed_start_ping_id: 's-slow', consecutive_failures: 1, last_success_at: null,
            }),
          ]));

      it('does not report the run overdue again', () => {
        const expire = (now: string): MonitorCommand => ({ type: 'ExpireDeadlines', monitor_id, incident_ids: { missed: 'm', overdue: 'o', failed: 'f' }, repage_after_seconds: 3600, now });
        given([watched(), started('s-slow', 'slow'), closedAsFailure, reportedHung]).when(expire('2026-11-21T10:30:00.000Z')).then([]);
      });
    });

    it('prefers the duration the client sent', () =>
      given([created(), started('s-a', 'a')])
        .when(receive({ run_id: 'a', duration_ms: 1234 }))
        .then([received({ run_id: 'a', duration_ms: 1234, started_at: T0, closed_start_ping_id: 's-a', total_pings_received: 2 })]));

    it('opens DURATION_HIGH on a run over max_duration_seconds, without going DOWN', () =>
      given([created({ max_duration_seconds: 120 }), started('s-a', null)])
        .when(receive())
        .then([
          received({ duration_ms: 300_000, duration_assertion: 'TOO_SLOW', started_at: T0, closed_start_ping_id: 's-a', total_pings_received: 2 }),
          incidentOpened('DURATION_HIGH', 'Run took 5 min, longer than the 2 min maximum'),
        ]));

    it('opens DURATION_LOW on a run under min_duration_seconds', () =>
      given([created({ min_duration_seconds: 600 })])
        .when(receive({ duration_ms: 3000 }))
        .then([received({ duration_ms: 3000, duration_assertion: 'TOO_FAST' }), incidentOpened('DURATION_LOW', 'Run took 3 s, shorter than the 10 min minimum')]));

    it('resolves an open duration incident on the next in-range run', () =>
      given([created({ max_duration_seconds: 120 }), incidentOpened('DURATION_HIGH', 'slow', 'inc-0')])
        .when(receive({ duration_ms: 1000 }))
        .then([
          received({ duration_ms: 1000, duration_assertion: 'PASS' }),
          { type: 'IncidentResolved', data: { ...ids, incident_id: 'inc-0', resolved_at: T1, by_kind: 'system', user_id: null, email: null, api_key_id: null, reason: 'DURATION_IN_RANGE' } },
        ]));

    it('resolves an open duration incident on a SUCCESS without a duration, as a SUCCESS resolves any incident of the monitor', () =>
      given([created({ max_duration_seconds: 120, min_duration_seconds: 60 }), incidentOpened('DURATION_HIGH', 'slow', 'inc-0'), incidentOpened('DURATION_LOW', 'fast', 'inc-9')])
        .when(receive())
        .then([received(), resolvedBySuccess('inc-0'), resolvedBySuccess('inc-9')]));

    it('keeps a duration incident open on a SUCCESS out of range the same way again, and resolves the other kind', () =>
      given([created({ max_duration_seconds: 120, min_duration_seconds: 60 }), incidentOpened('DURATION_HIGH', 'slow', 'inc-0'), incidentOpened('DURATION_LOW', 'fast', 'inc-9')])
        .when(receive({ duration_ms: 300_000 }))
        .then([received({ duration_ms: 300_000, duration_assertion: 'TOO_SLOW' }), resolvedBySuccess('inc-9')]));
    describe('a run too long while a run too short is still an open incident', () => {
      // The last run finished in 3 s (under the 60 s minimum); the next, started at 10:00, passes its 2 min maximum.
      const bounded = created({ min_duration_seconds: 60, max_duration_seconds: 120 });
      const tooFast = incidentOpened('DURATION_LOW', 'Run took 3 s, shorter than the 1 min minimum', 'inc-fast');
      const expire = (now: string): MonitorCommand => ({ type: 'ExpireDeadlines', monitor_id, incident_ids: { missed: 'm', overdue: 'o', failed: 'f' }, repage_after_seconds: 3600, now });
      const overdue: MonitorEvent = {
        type: 'RunOverdue',
        data: {
          ...ids, start_ping_id: 's-a', run_id: 'a', started_at: T0, deadline_at: '2026-11-21T10:02:00.000Z', closed_as_failure: false, consecutive_failures: 0,
          counters: {
            consecutive_failures: 0, consecutive_misses: 0, last_checkin_at: T0, last_ping_at: T0, last_success_at: null, next_expected_at: HOUR_AFTER_T1,
            retention_count: 200, total_pings_received: 1,
          },
        },
      };

      it('resolves "finished sooner than expected" when it opens "ran longer than expected": both cannot be ongoing', () =>
        given([bounded, tooFast, started('s-a', 'a')])
          .when(expire('2026-11-21T10:03:00.000Z'))
          .then([
            overdue,
            {
              type: 'IncidentResolved',
              data: { ...ids, incident_id: 'inc-fast', resolved_at: '2026-11-21T10:02:00.000Z', by_kind: 'system', user_id: null, email: null, api_key_id: null, reason: 'RUN_TOO_SLOW' },
            },
            {
              type: 'IncidentOpened',
              data: { ...ids, incident_id: 'o', event: 'DURATION_HIGH', cause: 'A run started at 2026-11-21T10:00:00.000Z has not finished within the 2 min maximum', started_at: '2026-11-21T10:02:00.000Z', monitor_name: 'Backup', monitor_slug: 'backup', ping_id: 's-a' },
            },
          ]));

      it('and a run too short afterwards resolves "ran longer than expected" in turn', () =>
        given([bounded, incidentOpened('DURATION_HIGH', 'hung', 'inc-slow')])
          .when(receive({ duration_ms: 3000 }))
          .then([
            received({ duration_ms: 3000, duration_assertion: 'TOO_FAST' }),
            resolvedBySuccess('inc-slow'),
            incidentOpened('DURATION_LOW', 'Run took 3 s, shorter than the 60 s minimum'),
          ]));
    });
  });

  describe('when paused', () => {
    const paused: MonitorEvent[] = [created(), { type: 'MonitorPaused', data: { ...ids, paused_at: T0 } }];

    it('records a ping without evaluating it: no counters move, nothing opens', () =>
      given(paused)
        .when(receive({ event: 'FAILURE', exit_code: 1 }))
        .then([
          received({ event: 'FAILURE', exit_code: 1, evaluated: false, consecutive_failures: 0, last_success_at: null, last_checkin_at: null, next_expected_at: HOUR_AFTER_T0 }),
        ]));

    it('forgets the runs under way, which are then never reported hung with a deadline inside the pause', () => {
      const expire = (now: string): MonitorCommand => ({ type: 'ExpireDeadlines', monitor_id, incident_ids: { missed: 'm', overdue: 'o', failed: 'f' }, repage_after_seconds: 3600, now });
      given([
        created({ type: 'JOB_BASIC', schedule: 'x', max_duration_seconds: 60 }),
        received({ ping_id: 's-1', event: 'START', received_at: T0, last_success_at: null, last_checkin_at: T0, next_expected_at: null }),
        { type: 'MonitorPaused', data: { ...ids, paused_at: '2026-11-21T10:00:10.000Z' } },
        { type: 'MonitorResumed', data: { ...ids, resumed_at: '2026-11-21T10:30:00.000Z', next_expected_at: null } },
      ])
        .when(expire('2026-11-21T10:31:00.000Z'))
        .then([]);
    });

    it('pauses once and resumes once', () => {
      given(paused).when({ type: 'PauseMonitor', monitor_id, now: T1 }).then([]);
      given(paused).when({ type: 'ResumeMonitor', monitor_id, now: T1 }).then([{ type: 'MonitorResumed', data: { ...ids, resumed_at: T1, next_expected_at: HOUR_AFTER_T1 } }]);
      given([created()]).when({ type: 'ResumeMonitor', monitor_id, now: T1 }).then([]);
    });
  });

  describe('incidents', () => {
    const open = [created(), incidentOpened('FAILED', 'x', 'inc-0')];
    const acknowledged: MonitorEvent[] = [...open, { type: 'IncidentAcknowledged', data: { ...ids, incident_id: 'inc-0', acknowledged_at: T1, ...by } }];

    it('acknowledges an OPEN incident, recording who', () =>
      given(open)
        .when({ type: 'AcknowledgeIncident', monitor_id, incident_id: 'inc-0', by, now: T1 })
        .then([{ type: 'IncidentAcknowledged', data: { ...ids, incident_id: 'inc-0', acknowledged_at: T1, ...by } }]));

    it('refuses to acknowledge an incident that is not OPEN', () =>
      given(acknowledged).when({ type: 'AcknowledgeIncident', monitor_id, incident_id: 'inc-0', by, now: T1 }).thenRefuses('invalid', /only an OPEN incident/));

    it('resolves an acknowledged incident and refuses to resolve it twice', () => {
      given(acknowledged)
        .when({ type: 'ResolveIncident', monitor_id, incident_id: 'inc-0', by, now: T1 })
        .then([{ type: 'IncidentResolved', data: { ...ids, incident_id: 'inc-0', resolved_at: T1, by_kind: 'user', ...by, reason: null } }]);
      given([...acknowledged, resolvedBySuccess('inc-0')])
        .when({ type: 'ResolveIncident', monitor_id, incident_id: 'inc-0', by, now: T1 })
        .thenRefuses('invalid', /already RESOLVED/);
    });

    it('does not know incidents of other monitors', () =>
      given(open).when({ type: 'ResolveIncident', monitor_id, incident_id: 'other', by, now: T1 }).thenRefuses('not_found', /incident not found/));
  });

  describe('updates and deletion', () => {
    it('records the whole new configuration, checked as a whole', () => {
      given([created({ max_duration_seconds: 100 })])
        .when({ type: 'UpdateMonitor', monitor_id, patch: { min_duration_seconds: 100 }, last_ping_seq: null, now: T1 })
        .thenRefuses('invalid', /min_duration_seconds must be less/);
      given([created()])
        .when({ type: 'UpdateMonitor', monitor_id, patch: { name: 'Nightly backup' }, last_ping_seq: 4, now: T1 })
        .then([{ type: 'MonitorUpdated', data: { ...ids, config: config({ name: 'Nightly backup' }), updated_at: T1, last_ping_seq: 4, next_expected_at: HOUR_AFTER_T0 } }]);
      given([created()]).when({ type: 'UpdateMonitor', monitor_id, patch: { name: 'Backup' }, last_ping_seq: null, now: T1 }).then([]);
    });

    describe('of a JOB_CRON schedule', () => {
      const cron = (schedule: string, timezone = 'UTC'): MonitorEvent => ({
        type: 'MonitorCreated',
        data: { ...ids, config: config({ type: 'JOB_CRON', schedule, timezone }), created_at: T0, next_expected_at: '2026-11-22T03:00:00.000Z' },
      });
      const update = (patch: MonitorPatch, now = T1): MonitorCommand => ({ type: 'UpdateMonitor', monitor_id, patch, last_ping_seq: null, now });

      it('refuses a new schedule, or a new timezone for a kept one, that never fires after `now`', () => {
        given([cron('0 3 * * *')]).when(update({ schedule: '0 0 30 2 *' })).thenRefuses('invalid', /^schedule: "0 0 30 2 \*" never fires \(February has no 30th\)$/);
        given([cron('0 3 * * *')]).when(update({ schedule: 'RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30' })).thenRefuses('invalid', /never fires \(February has no 30th\)$/);
        // UNTIL is a UTC time; 23:00 on 2026-11-21 in UTC is still to come at T1, but long gone in Kiritimati (UTC+14).
        const until = 'RRULE:FREQ=DAILY;BYHOUR=23;UNTIL=20261121T235959Z';
        given([cron(until)]).when(update({ name: 'Renamed' })).thenEmits(['MonitorUpdated']);
        given([cron(until)]).when(update({ timezone: 'Pacific/Kiritimati' })).thenRefuses('invalid', /UNTIL=20261121T235959Z is used up/);
      });

      it('leaves a kept schedule be when something else changes, though its COUNT has been used up since', () =>
        given([cron('RRULE:FREQ=DAILY;COUNT=3')])
          .when(update({ name: 'Renamed' }))
          .then([{ type: 'MonitorUpdated', data: { ...ids, config: config({ type: 'JOB_CRON', schedule: 'RRULE:FREQ=DAILY;COUNT=3', name: 'Renamed' }), updated_at: T1, last_ping_seq: null, next_expected_at: '2026-11-22T03:00:00.000Z' } }]));

      it('still reads a monitor whose schedule is refused today: its pings are recorded and nothing is expected of it', () =>
        given([cron('RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30')])
          .when(receive())
          .thenMatches(([event]) => event?.type === 'PingReceived' && event.data.next_expected_at === null));
    });

    it('refuses uptime fields on a job monitor', () =>
      given([created()])
        .when({ type: 'UpdateMonitor', monitor_id, patch: { uptime: { uptime_timeout_ms: 5000 } }, last_ping_seq: null, now: T1 })
        .thenRefuses('invalid', /only accepted on UPTIME_HTTP/));

    it('resolves the incidents still open when deleted', () =>
      given([created(), incidentOpened('FAILED', 'x', 'inc-0'), incidentOpened('DURATION_HIGH', 'y', 'inc-9')])
        .when({ type: 'DeleteMonitor', monitor_id, now: T1 })
        .then([
          { type: 'IncidentResolved', data: { ...ids, incident_id: 'inc-0', resolved_at: T1, by_kind: 'system', user_id: null, email: null, api_key_id: null, reason: 'MONITOR_DELETED' } },
          { type: 'IncidentResolved', data: { ...ids, incident_id: 'inc-9', resolved_at: T1, by_kind: 'system', user_id: null, email: null, api_key_id: null, reason: 'MONITOR_DELETED' } },
          { type: 'MonitorDeleted', data: { ...ids, deleted_at: T1 } },
        ]));

    it('refuses pings once deleted', () =>
      given([created(), { type: 'MonitorDeleted', data: { ...ids, deleted_at: T1 } }]).when(receive()).thenRefuses('not_found', /monitor not found/));
  });
});

describe('Monitor deadlines (the timer)', () => {
  const expire = (now: string): MonitorCommand => ({ type: 'ExpireDeadlines', monitor_id, incident_ids: { missed: 'inc-m', overdue: 'inc-o', failed: 'inc-f' }, repage_after_seconds: 3600, now });
  const missed = (expected_at: string, deadline_at: string, consecutive_misses: number, next_expected_at: string): MonitorEvent => ({
    type: 'CheckInMissed',
    data: {
      ...ids, expected_at, deadline_at, consecutive_misses, next_expected_at,
      // The ping-derived counters after it, carried with the pings (those after firstPing).
      counters: { consecutive_failures: 0, consecutive_misses, next_expected_at, total_pings_received: 1, last_success_at: T0, last_checkin_at: T0, last_ping_at: T0, retention_count: 200 },
    },
  });
  // Heartbeat every hour, grace 300 s: created and first pinged at 10:00, next check-in expected at 11:00, deadline 11:05.
  const deadline1 = '2026-11-21T11:05:00.000Z';
  const firstPing = received({ ping_id: 'first', received_at: T0, last_success_at: T0, last_checkin_at: T0, next_expected_at: HOUR_AFTER_T0 });
  /** Deadlines count only once the monitor has had its first ping. */
  const pinged = (overrides: Partial<MonitorConfig> = {}): MonitorEvent[] => [created(overrides), firstPing];

  describe('while waiting for the first ping', () => {
    it('counts no missed deadline, however long the job stays silent', () =>
      given([created()]).when(expire('2026-11-28T10:00:00.000Z')).then([]));

    it('still counts none after a LOG ping, which only records output', () =>
      given([created(), received({ event: 'LOG', last_success_at: null, last_checkin_at: null, next_expected_at: HOUR_AFTER_T0 })])
        .when(expire('2026-11-28T10:00:00.000Z'))
        .then([]));

    it('still counts none after a ping received while paused, and resumed', () =>
      given([
        created(),
        { type: 'MonitorPaused', data: { ...ids, paused_at: T0 } },
        received({ evaluated: false, last_success_at: null, last_checkin_at: null, next_expected_at: HOUR_AFTER_T0 }),
        { type: 'MonitorResumed', data: { ...ids, resumed_at: T1, next_expected_at: HOUR_AFTER_T1 } },
      ])
        .when(expire('2026-11-28T10:00:00.000Z'))
        .then([]));

    it('expects the next check-in one interval after the first ping, and counts misses from there', () => {
      given([created()])
        .when(receive({}, '2026-11-25T08:00:00.000Z'))
        .thenMatches((events) => events[0]?.type === 'PingReceived' && events[0].data.next_expected_at === '2026-11-25T09:00:00.000Z');
      given([created(), received({ received_at: '2026-11-25T08:00:00.000Z', last_checkin_at: '2026-11-25T08:00:00.000Z', next_expected_at: '2026-11-25T09:00:00.000Z' })])
        .when(expire('2026-11-25T09:05:00.000Z'))
        .thenMatches((events) => events[0]?.type === 'CheckInMissed' && events[0].data.expected_at === '2026-11-25T09:00:00.000Z' && events.some((e) => e.type === 'IncidentOpened'));
    });

    it('counts no miss for a JOB_CRON monitor either', () =>
      given([created({ type: 'JOB_CRON', schedule: '*/5 * * * *' })]).when(expire('2026-11-22T10:00:00.000Z')).then([]));
  });

  it('does nothing before the deadline', () => given([created()]).when(expire('2026-11-21T11:04:59.999Z')).then([]));

  it('at the deadline counts a miss and, at schedule_tolerance 1, goes DOWN with a MISSED incident stamped at the deadline', () =>
    given(pinged())
      .when(expire('2026-11-21T11:05:03.000Z'))
      .then([
        missed(HOUR_AFTER_T0, deadline1, 1, '2026-11-21T12:00:00.000Z'),
        { type: 'MonitorWentDown', data: { ...ids, reason: 'MISSES', at: deadline1 } },
        {
          type: 'IncidentOpened',
          data: {
            ...ids, incident_id: 'inc-m', event: 'MISSED', started_at: deadline1, monitor_name: 'Backup', monitor_slug: 'backup', ping_id: null,
            cause: 'No check-in for the run expected at 2026-11-21 11:00 (UTC) within the 5 min grace period; 1 missed check-in',
          },
        },
      ]));

  it("names the missed run's expected time in the monitor's own time zone, whichever zone came before", () => {
    const causeIn = (timezone: string) => {
      const events = monitorDecider.decide(expire('2026-11-21T11:05:00.000Z'), pinged({ timezone }).reduce(monitorDecider.evolve, monitorDecider.initialState()));
      const opened = events.find((e) => e.type === 'IncidentOpened');
      return opened?.type === 'IncidentOpened' ? opened.data.cause : null;
    };
    expect(causeIn('UTC')).to.match(/expected at 2026-11-21 11:00 \(UTC\)/);
    expect(causeIn('Asia/Kolkata')).to.match(/expected at 2026-11-21 16:30 \(Asia\/Kolkata\)/);
    expect(causeIn('America/New_York')).to.match(/expected at 2026-11-21 06:00 \(America\/New_York\)/);
    expect(causeIn('UTC')).to.match(/expected at 2026-11-21 11:00 \(UTC\)/);
  });

  it('only counts misses below schedule_tolerance', () =>
    given(pinged({ schedule_tolerance: 3 })).when(expire('2026-11-21T11:05:00.000Z')).then([missed(HOUR_AFTER_T0, deadline1, 1, '2026-11-21T12:00:00.000Z')]));

  it('after downtime, accounts for every missed slot once, each stamped at its own deadline, with one incident (the misses with the pings, what follows after them)', () =>
    given(pinged({ schedule_tolerance: 2 }))
      .when(expire('2026-11-21T14:30:00.000Z'))
      .then([
        missed(HOUR_AFTER_T0, deadline1, 1, '2026-11-21T12:00:00.000Z'),
        missed('2026-11-21T12:00:00.000Z', '2026-11-21T12:05:00.000Z', 2, '2026-11-21T13:00:00.000Z'),
        missed('2026-11-21T13:00:00.000Z', '2026-11-21T13:05:00.000Z', 3, '2026-11-21T14:00:00.000Z'),
        missed('2026-11-21T14:00:00.000Z', '2026-11-21T14:05:00.000Z', 4, '2026-11-21T15:00:00.000Z'),
        { type: 'MonitorWentDown', data: { ...ids, reason: 'MISSES', at: '2026-11-21T12:05:00.000Z' } },
        {
          type: 'IncidentOpened',
          data: {
            ...ids, incident_id: 'inc-m', event: 'MISSED', started_at: '2026-11-21T12:05:00.000Z', monitor_name: 'Backup', monitor_slug: 'backup', ping_id: null,
            cause: 'No check-in for the run expected at 2026-11-21 12:00 (UTC) within the 5 min grace period; 2 consecutive missed check-ins',
          },
        },
      ]));

  it('carries the ping-derived counters with each miss: with the pings truncated to it, the next slot still counts', () =>
    given([created(), missed(HOUR_AFTER_T0, deadline1, 1, '2026-11-21T12:00:00.000Z')])
      .when(expire('2026-11-21T12:05:00.000Z'))
      .thenMatches((events) => events[0]?.type === 'CheckInMissed' && events[0].data.consecutive_misses === 2 && events[0].data.counters?.total_pings_received === 1));

  describe('what follows from deadlines already recorded, decided again after a lost race (FollowUpDeadlines)', () => {
    const recordedMiss = missed(HOUR_AFTER_T0, deadline1, 1, '2026-11-21T12:00:00.000Z');
    const followUp: MonitorCommand = {
      type: 'FollowUpDeadlines', monitor_id, observed: [recordedMiss as Extract<MonitorEvent, { type: 'CheckInMissed' }>],
      incident_ids: { missed: 'inc-m', overdue: 'inc-o', failed: 'inc-f' }, repage_after_seconds: 3600, now: '2026-11-21T11:05:03.000Z',
    };
    const wentDown: MonitorEvent = { type: 'MonitorWentDown', data: { ...ids, reason: 'MISSES', at: deadline1 } };

    it('makes the monitor DOWN with its MISSED incident, stamped at the deadline', () =>
      given([...pinged(), recordedMiss]).when(followUp).thenEmits(['MonitorWentDown', 'IncidentOpened']));

    it('opens nothing twice when another process made the transition first', () =>
      given([...pinged(), recordedMiss, wentDown, incidentOpened('MISSED', 'x', 'inc-0')]).when(followUp).then([]));
  });

  it('is harmless when fired twice: the second fire finds nothing due', () =>
    given([...pinged({ schedule_tolerance: 5 }), missed(HOUR_AFTER_T0, deadline1, 1, '2026-11-21T12:00:00.000Z')]).when(expire('2026-11-21T11:05:01.000Z')).then([]));

  it('skips paused and JOB_BASIC monitors', () => {
    given([...pinged(), { type: 'MonitorPaused', data: { ...ids, paused_at: T0 } }]).when(expire('2026-11-22T00:00:00.000Z')).then([]);
    given([created({ type: 'JOB_BASIC', schedule: 'x' })]).when(expire('2026-11-22T00:00:00.000Z')).then([]);
  });

  it('a check-in resets the misses and moves the deadline', () =>
    given([...pinged({ schedule_tolerance: 5 }), missed(HOUR_AFTER_T0, deadline1, 1, '2026-11-21T12:00:00.000Z')])
      .when(receive({}, '2026-11-21T11:30:00.000Z'))
      .then([
        received({ total_pings_received: 2, received_at: '2026-11-21T11:30:00.000Z', last_success_at: '2026-11-21T11:30:00.000Z', last_checkin_at: '2026-11-21T11:30:00.000Z', next_expected_at: '2026-11-21T12:30:00.000Z' }),
      ]));

  it('does not count the end of a run that started for an earlier slot as an early check-in for the next one', () => {
    const cron = created({ type: 'JOB_CRON', schedule: '*/5 * * * *', grace_period_seconds: 60 });
    const started = received({ ping_id: 's-1', event: 'START', received_at: '2026-11-21T10:25:00.000Z', last_success_at: null, last_checkin_at: '2026-11-21T10:25:00.000Z', next_expected_at: '2026-11-21T10:30:00.000Z' });
    given([cron, started])
      .when(receive({}, '2026-11-21T10:29:20.000Z'))
      .thenMatches((events) => events[0]?.type === 'PingReceived' && events[0].data.next_expected_at === '2026-11-21T10:30:00.000Z');
    // Without a START it is one, as before.
    given([cron])
      .when(receive({}, '2026-11-21T10:29:20.000Z'))
      .thenMatches((events) => events[0]?.type === 'PingReceived' && events[0].data.next_expected_at === '2026-11-21T10:35:00.000Z');
  });

  it('counts a cron check-in that arrives just before its slot for that slot (clock skew)', () =>
    given([created({ type: 'JOB_CRON', schedule: '0 3 * * *' })])
      .when(receive({}, '2026-11-22T02:59:30.000Z'))
      .thenMatches((events) => events[0]?.type === 'PingReceived' && events[0].data.next_expected_at === '2026-11-23T03:00:00.000Z'));
});

describe('Monitor checks (UPTIME_HTTP)', () => {
  const uptimeConfig = { type: 'UPTIME_HTTP' as const, schedule: '1m', uptime: { ...UPTIME_DEFAULTS, uptime_url: 'https://shop.example.com/health' } };
  const createdUptime = (overrides: Partial<MonitorConfig> = {}): MonitorEvent => ({
    type: 'MonitorCreated',
    data: { ...ids, config: config({ ...uptimeConfig, ...overrides }), created_at: T0, next_expected_at: T0 },
  });
  const check = (overrides: Partial<CheckObservation> = {}): CheckObservation => ({
    check_id: 'c-1', status_code: 200, response_time_ms: 42, is_up: true, error: null, ssl_expires_at: '2027-06-01T00:00:00.000Z',
    ssl_issuer: 'Test CA', check_region: 'local', check_status: 'ok', cycle_id: null, attempts: 1, ...overrides,
  });
  const record = (c: CheckObservation): MonitorCommand => ({ type: 'RecordCheck', monitor_id, check: c, incident_ids: { failed: 'inc-f', ssl: 'inc-s' }, ssl_warning_days: 14, repage_after_seconds: 3600, now: T1 });
  const completed = (c: CheckObservation, consecutive_failures: number, last_success_at: string | null, check_number = 1): MonitorEvent => ({
    type: 'CheckCompleted',
    data: { ...ids, ...c, checked_at: T1, check_number, consecutive_failures, last_success_at, next_expected_at: '2026-11-21T10:06:00.000Z', retention_count: 200 },
  });
  const failing = check({ status_code: 503, is_up: false, error: 'HTTP 503, expected 2xx' });

  it('refuses pings: its state is what its checks find', () =>
    given([createdUptime()]).when(receive()).thenRefuses('invalid', /is UPTIME_HTTP: Vigil checks it itself, so it takes no pings/));

  it('records a passing check and schedules the next one an interval later', () =>
    given([createdUptime()]).when(record(check())).then([completed(check(), 0, T1)]));

  it('goes DOWN with a FAILED incident saying what failed at failure_tolerance', () =>
    given([createdUptime({ failure_tolerance: 2 }), completed(failing, 1, null)])
      .when(record(failing))
      .then([
        completed(failing, 2, null, 2),
        { type: 'MonitorWentDown', data: { ...ids, reason: 'FAILURES', at: T1 } },
        {
          type: 'IncidentOpened',
          data: { ...ids, incident_id: 'inc-f', event: 'FAILED', cause: '2 consecutive failed checks; last: HTTP 503, expected 2xx', started_at: T1, monitor_name: 'Backup', monitor_slug: 'backup', ping_id: null },
        },
      ]));

  it('counts nothing for a probe error (the checker could not check)', () =>
    given([createdUptime()]).when(record(check({ is_up: false, check_status: 'probe_error', error: 'probe failed' }))).thenMatches((events) => events.length === 1 && events[0]?.type === 'CheckCompleted' && events[0].data.consecutive_failures === 0));

  it('opens SSL_EXPIRING once when fewer than the warning days remain, and resolves it when renewed', () => {
    const expiring = check({ ssl_expires_at: '2026-11-24T10:05:00.000Z' });
    given([createdUptime()])
      .when(record(expiring))
      .then([
        completed(expiring, 0, T1),
        {
          type: 'IncidentOpened',
          data: {
            ...ids, incident_id: 'inc-s', event: 'SSL_EXPIRING', cause: 'The TLS certificate of shop.example.com expires on 2026-11-24 (in 3 days); issuer Test CA',
            started_at: T1, monitor_name: 'Backup', monitor_slug: 'backup', ping_id: null,
          },
        },
      ]);
    const open: MonitorEvent = { type: 'IncidentOpened', data: { ...ids, incident_id: 'inc-0', event: 'SSL_EXPIRING', cause: 'x', started_at: T0, monitor_name: 'Backup', monitor_slug: 'backup', ping_id: null } };
    given([createdUptime(), open]).when(record(expiring)).thenEmits(['CheckCompleted']);
    given([createdUptime(), open])
      .when(record(check()))
      .then([
        completed(check(), 0, T1),
        { type: 'IncidentResolved', data: { ...ids, incident_id: 'inc-0', resolved_at: T1, by_kind: 'system', user_id: null, email: null, api_key_id: null, reason: 'CERTIFICATE_RENEWED' } },
      ]);
  });

  it('is never expired by the timer (the checker keeps its own schedule)', () =>
    given([createdUptime()]).when({ type: 'ExpireDeadlines', monitor_id, incident_ids: { missed: 'a', overdue: 'b', failed: 'c' }, repage_after_seconds: 3600, now: '2026-11-22T00:00:00.000Z' }).then([]));

  it('refuses checks for job monitors', () => given([created()]).when(record(check())).thenRefuses('invalid', /only uptime monitors are checked/));

  describe('hourly summaries (checks share the pings stream and its retention)', () => {
    const at = (minute: number) => new Date(Date.parse(T0) + minute * 60_000).toISOString();
    /** The check_number-th check, recorded at `minute` past T0. */
    const numbered = (check_number: number, minute: number, c = check()): MonitorEvent => ({
      type: 'CheckCompleted',
      data: { ...ids, ...c, checked_at: at(minute), check_number, consecutive_failures: 0, last_success_at: at(minute), next_expected_at: at(minute + 1), retention_count: 10 },
    });
    const recordAt = (minute: number, c = check()): MonitorCommand => ({ ...record(c), now: at(minute) });
    // Checks every minute, kept 10 at a time: 93 days of hours, each with up to 6 summaries and the one closing it.
    const summary = (hour: string, times: number[], up = times.length, summarized_at = T0, previous_hour: string | null = null): MonitorEvent => ({
      type: 'ChecksSummarized',
      data: { ...ids, hour, total: times.length, up, down: times.length - up, times, summarized_at, previous_hour, summaries_kept: 93 * 24 * 7 },
    });
    const H10 = '2026-11-21T10:00:00.000Z';

    it('numbers each check and summarizes nothing while its hour lasts and its checks are within retention', () =>
      given([createdUptime({ retention_count: 10 }), numbered(1, 0), numbered(2, 1)])
        .when(recordAt(2))
        .thenMatches((events) => events.length === 1 && events[0]?.type === 'CheckCompleted' && events[0].data.check_number === 3));

    it('summarizes an hour with the first check of a later hour', () =>
      given([createdUptime({ retention_count: 10 }), numbered(1, 58), numbered(2, 59, check({ is_up: false, response_time_ms: 7 }))])
        .when(recordAt(60))
        .thenMatches((events) =>
          events.length === 2 && events[0]?.type === 'CheckCompleted' &&
          JSON.stringify(events[1]) === JSON.stringify(summary(H10, [42, 7], 1, at(60)))));

    it('summarizes its hour, this check included, once the oldest check not yet summarized is retention_count checks back', () => {
      const nine = Array.from({ length: 9 }, (_, i) => numbered(i + 1, i));
      given([createdUptime({ retention_count: 10 }), ...nine])
        .when(recordAt(9))
        .thenMatches((events) => JSON.stringify(events[1]) === JSON.stringify(summary(H10, Array(10).fill(42), 10, at(9))));
      given([createdUptime({ retention_count: 10 }), ...nine, summary(H10, Array(9).fill(42))]).when(recordAt(9)).thenEmits(['CheckCompleted']);
    });

    it('counts a probe error toward retention but not in the figures', () => {
      const probeError = check({ check_status: 'probe_error', is_up: false });
      given([createdUptime({ retention_count: 10 }), numbered(1, 0), ...Array.from({ length: 8 }, (_, i) => numbered(i + 2, i + 1, probeError))])
        .when(recordAt(9, probeError))
        .thenMatches((events) => JSON.stringify(events[1]) === JSON.stringify(summary(H10, [42], 1, at(9))));
    });

    it('summarizes before a lowered retention would take checks no summary covers', () =>
      given([createdUptime({ retention_count: 10 }), ...Array.from({ length: 6 }, (_, i) => numbered(i + 1, i))])
        .when({ type: 'UpdateMonitor', monitor_id, patch: { retention_count: 5 }, last_ping_seq: 5, now: at(6) })
        .thenEmits(['ChecksSummarized', 'MonitorUpdated']));

    it('names in each summary the hour of the one before it, among those it is decided with too', () => {
      const H11 = '2026-11-21T11:00:00.000Z';
      const earlier = summary('2026-11-21T09:00:00.000Z', [40]);
      given([createdUptime({ retention_count: 10 }), earlier, numbered(1, 59), numbered(2, 60)])
        .when(recordAt(120))
        .thenMatches((events) =>
          JSON.stringify(events.slice(1)) === JSON.stringify([summary(H10, [42], 1, at(120), '2026-11-21T09:00:00.000Z'), summary(H11, [42], 1, at(120), H10)]));
    });

    it('keeps summaries for 93 days of the hours its checks fill, one per retention_count checks of an hour and one closing it', () => {
      const window = (schedule: string, retention_count: number) => given([createdUptime({ schedule, retention_count }), numbered(1, 59)])
        .when(recordAt(60))
        .thenMatches((events) => events[1]?.type === 'ChecksSummarized' && events[1].data.summaries_kept === ({ '30s-200': 2232, '1m-10': 2232 * 7, '1s-10': 2232 * 361, '1h-10': 2232 } as Record<string, number>)[`${schedule}-${retention_count}`]);
      window('30s', 200);
      window('1m', 10);
      window('1s', 10);
      window('1h', 10);
    });

    it('never narrows the summaries\' window: one kept at a faster pace of checks stays', () =>
      given([createdUptime({ schedule: '1h', retention_count: 10 }), { ...summary('2026-11-21T09:00:00.000Z', [40]), data: { ...summary('2026-11-21T09:00:00.000Z', [40]).data, summaries_kept: 2232 * 7 } } as MonitorEvent, numbered(1, 59)])
        .when(recordAt(60))
        .thenMatches((events) => events[1]?.type === 'ChecksSummarized' && events[1].data.summaries_kept === 2232 * 7));

    it('folds checks recorded in the monitor stream before they were numbered, with nothing to summarize', () =>
      given([createdUptime({ retention_count: 10 }), { ...numbered(1, 59), data: { ...numbered(1, 59).data, check_number: null } } as MonitorEvent])
        .when(recordAt(60))
        .thenMatches((events) => events.length === 1 && events[0]?.type === 'CheckCompleted' && events[0].data.check_number === 1));
  });
});

describe('Monitor paging', () => {
  const paging = (overrides: Partial<MonitorConfig> = {}) => created({ alert_enabled: true, ...overrides });
  const fail = (now = T1): MonitorCommand => ({ ...receive({ event: 'FAILURE', exit_code: 1 }, now) });
  const pageOf = (incident_id: string, reason: string, at: string, repage_at: string | null): MonitorEvent => ({
    type: 'PageScheduled',
    data: { ...ids, page_id: `${incident_id}.${reason}.${at}`, incident_id, reason: reason as 'opened', at, repage_at },
  });
  const T2 = '2026-11-21T11:05:00.000Z';
  const expire = (now: string): MonitorCommand => ({ type: 'ExpireDeadlines', monitor_id, incident_ids: { missed: 'm', overdue: 'o', failed: 'f' }, repage_after_seconds: 3600, now });

  it('pages an opened incident, with a re-page due an interval later', () =>
    given([paging()]).when(fail()).thenMatches((events) => JSON.stringify(events.at(-1)) === JSON.stringify(pageOf('inc-1', 'opened', T1, T2))));

  it('records incidents without paging when alert_enabled is false', () =>
    given([created({ alert_enabled: false })]).when(fail()).thenEmits(['PingReceived', 'MonitorWentDown', 'IncidentOpened']));

  describe('with an OPEN incident paged at T1', () => {
    const history = (overrides: Partial<MonitorConfig> = {}): MonitorEvent[] => [
      paging(overrides),
      ...failures(1),
      { type: 'MonitorWentDown', data: { ...ids, reason: 'FAILURES', at: T1 } },
      { type: 'IncidentOpened', data: { ...ids, incident_id: 'inc-1', event: 'FAILED', cause: 'x', started_at: T1, monitor_name: 'Backup', monitor_slug: 'backup', ping_id: 'f0' } },
      pageOf('inc-1', 'opened', T1, T2),
    ];

    it('pages it again once the re-page interval has passed, and not before', () => {
      given(history()).when(expire('2026-11-21T11:04:59.000Z')).then([]);
      given(history())
        .when(expire(T2))
        .thenMatches((events) => events.some((e) => e.type === 'PageScheduled' && e.data.reason === 'repage' && e.data.repage_at === '2026-11-21T12:05:00.000Z'));
    });

    it('stops re-paging once acknowledged, and tells the same channels about the acknowledgement', () => {
      const acknowledged: MonitorEvent = { type: 'IncidentAcknowledged', data: { ...ids, incident_id: 'inc-1', acknowledged_at: T1, ...by } };
      given(history())
        .when({ type: 'AcknowledgeIncident', monitor_id, incident_id: 'inc-1', by, now: T1 })
        .then([acknowledged, pageOf('inc-1', 'acknowledged', T1, null)]);
      given([...history(), acknowledged, pageOf('inc-1', 'acknowledged', T1, null)])
        .when(expire('2026-11-21T13:00:00.000Z'))
        .thenMatches((events) => !events.some((e) => e.type === 'PageScheduled' && e.data.incident_id === 'inc-1'));
    });

    it('sends a recovery page when a SUCCESS resolves it', () =>
      given(history())
        .when(receive({}, T2))
        .thenMatches((events) => events.at(-1)?.type === 'PageScheduled' && JSON.stringify(events.at(-1)) === JSON.stringify(pageOf('inc-1', 'resolved', T2, null))));

    it('pauses problem pages for an hour at alert_surge_threshold, and resets on recovery', () => {
      given(history({ alert_surge_threshold: 2 }))
        .when(expire(T2))
        .thenMatches((events) => events.some((e) => e.type === 'AlertsPaused' && e.data.until === '2026-11-21T12:05:00.000Z' && e.data.consecutive_alerts === 2));
      const paused: MonitorEvent = { type: 'AlertsPaused', data: { ...ids, until: '2026-11-21T12:05:00.000Z', consecutive_alerts: 2, at: T2 } };
      const surge = [...history({ alert_surge_threshold: 2 }), pageOf('inc-1', 'repage', T2, '2026-11-21T12:05:00.000Z'), paused];
      given(surge).when(expire('2026-11-21T12:00:00.000Z')).thenMatches((events) => !events.some((e) => e.type === 'PageScheduled'));
      // Recovery resets the count: the next incident pages again at once.
      const recovered = [...surge, { type: 'MonitorWentUp' as const, data: { ...ids, reason: 'SUCCESS_PING' as const, at: T2 } }, resolvedBySuccess('inc-1')];
      given(recovered)
        .when({ type: 'ReceivePing', monitor_id, ping: ping({ event: 'FAILURE', exit_code: 1 }), incident_id: 'inc-2', repage_after_seconds: 3600, now: '2026-11-21T11:30:00.000Z' })
        .thenMatches((events) => events.some((e) => e.type === 'PageScheduled' && e.data.incident_id === 'inc-2' && e.data.reason === 'opened'));
    });
  });
});
