import { expect } from 'chai';
import type { ListeningRecord } from '../../../src/domain/listening/listening.js';
import { type MonitorConfig, MONITOR_DEFAULTS, UPTIME_DEFAULTS } from '../../../src/domain/monitors/monitor-config.js';
import { type MonitorCommand, type MonitorEvent, type PingCounters, type PingReceivedData, monitorDecider } from '../../../src/domain/monitors/monitor.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(monitorDecider);
const ids = { monitor_id: 'm-1', project_id: 'p-1' };
const at = (seconds: number) => new Date(Date.parse('2026-11-21T10:00:00.000Z') + seconds * 1000).toISOString();

function config(overrides: Partial<MonitorConfig> = {}): MonitorConfig {
  return { ...MONITOR_DEFAULTS, alert_enabled: false, name: 'Job', slug: 'job', type: 'JOB_HEARTBEAT', schedule: '5s', grace_period_seconds: 2, uptime: null, ...overrides };
}
const created = (overrides: Partial<MonitorConfig> = {}): MonitorEvent => ({ type: 'MonitorCreated', data: { ...ids, config: config(overrides), created_at: at(-10), next_expected_at: at(-5) } });

/** A check-in at `seconds`, as the decider records it (the first: total 1). */
function pinged(seconds: number, overrides: Partial<PingReceivedData> = {}): MonitorEvent {
  return {
    type: 'PingReceived',
    data: {
      ...ids, ping_id: `ping-${seconds}`, event: 'SUCCESS', run_id: null, exit_code: null, duration_ms: null, message: null, payload: null, payload_truncated: false,
      payload_bytes: null, request_ip: null, request_ua: null, duration_assertion: null, started_at: null, received_at: at(seconds), evaluated: true,
      closed_start_ping_id: null, consecutive_failures: 0, consecutive_misses: 0, total_pings_received: 1, last_success_at: at(seconds), last_checkin_at: at(seconds),
      next_expected_at: at(seconds + 5), retention_count: 200, ...overrides,
    },
  };
}
const counters = (next: string | null, changed: Partial<PingCounters> = {}): PingCounters => ({
  consecutive_failures: 0, consecutive_misses: 0, next_expected_at: next, total_pings_received: 1, last_success_at: at(0), last_checkin_at: at(0), last_ping_at: at(0), retention_count: 200, ...changed,
});

const expire = (now: string, listening?: ListeningRecord): MonitorCommand => ({
  type: 'ExpireDeadlines', ...ids, incident_ids: { missed: 'inc-m', overdue: 'inc-o', failed: 'inc-f' }, repage_after_seconds: 3600, now, ...(listening ? { listening } : {}),
});
/** Vigil stopped just after 10:00:01 and confirmed listening again at 10:00:44. */
const OUTAGE = { from: at(1), to: at(44) };
const afterOutage = (now: number): ListeningRecord => ({ outages: [OUTAGE], confirmed_at: at(now), confirm_again_by: at(now + 4) });

describe('Monitor', () => {
  describe('when Vigil could not hear (its own outage)', () => {
    describe('given a heartbeat every 5 s with 2 s of grace, last heard at 10:00:00', () => {
      const history = [created(), pinged(0)];

      it('records the slots due in the outage as one unheard observation: no miss, no incident', () =>
        given(history).when(expire(at(44), afterOutage(44))).then([{
          type: 'CheckInUnheard',
          data: {
            ...ids, expected_at: at(5), last_expected_at: at(40), deadline_at: at(42), slots: 8, outage_from: at(1), outage_to: at(44),
            next_expected_at: at(45), counters: counters(at(45)),
          },
        }]));

      it('excuses one interval and its grace after Vigil came back: the job may have sent its ping just before', () =>
        given([...history, ...monitorDecider.decide(expire(at(44), afterOutage(44)), [created(), pinged(0)].reduce(monitorDecider.evolve, monitorDecider.initialState()))])
          .when(expire(at(47), afterOutage(46)))
          .thenEmits(['CheckInUnheard']));

      it('catches a job that stopped during the outage at its first slot after that', () => {
        const decided: MonitorEvent[] = [...history];
        for (const now of [44, 47]) decided.push(...monitorDecider.decide(expire(at(now), afterOutage(now)), decided.reduce(monitorDecider.evolve, monitorDecider.initialState())));
        given(decided).when(expire(at(52), afterOutage(52))).thenEmits(['CheckInMissed', 'MonitorWentDown', 'IncidentOpened']);
        // An outage that touches no slot excuses none.
        given(history).when(expire(at(7), { outages: [{ from: at(100), to: at(200) }], confirmed_at: at(6), confirm_again_by: at(10) })).thenEmits(['CheckInMissed', 'MonitorWentDown', 'IncidentOpened']);
      });

      it('takes a confirmation overdue for an outage under way (the Ping API stopped, or not yet back to record it)', () =>
        given(history).when(expire(at(30), { outages: [], confirmed_at: at(1), confirm_again_by: at(5) })).then([{
          type: 'CheckInUnheard',
          data: { ...ids, expected_at: at(5), last_expected_at: at(25), deadline_at: at(27), slots: 5, outage_from: at(1), outage_to: at(30), next_expected_at: at(30), counters: counters(at(30)) },
        }]));

      it('leaves the misses counted before the outage as they were, and counts on from them after it', () => {
        const missedBefore: MonitorEvent = {
          type: 'CheckInMissed',
          data: { ...ids, expected_at: at(5), deadline_at: at(7), consecutive_misses: 1, next_expected_at: at(10), counters: counters(at(10), { consecutive_misses: 1 }) },
        };
        const tolerant = [created({ schedule_tolerance: 2 }), pinged(0), missedBefore];
        const outage = { outages: [{ from: at(8), to: at(20) }], confirmed_at: at(20), confirm_again_by: at(24) };
        const unheard = monitorDecider.decide(expire(at(20), outage), tolerant.reduce(monitorDecider.evolve, monitorDecider.initialState()));
        expect(unheard.map((e) => e.type)).to.deep.equal(['CheckInUnheard']);
        expect(unheard[0]!.data).to.deep.include({ slots: 2, next_expected_at: at(20) });
        // 10:00:20 and :25 fall within an interval and its grace of Vigil coming back; :30 does not.
        given([...tolerant, ...unheard]).when(expire(at(32), { ...outage, confirmed_at: at(31), confirm_again_by: at(35) })).thenEmits(['CheckInUnheard', 'CheckInMissed', 'MonitorWentDown', 'IncidentOpened']);
      });
    });

    describe('given a daily cron job at 03:00 with 5 min of grace', () => {
      const day = (d: number, time: string) => `2026-11-${String(21 + d).padStart(2, '0')}T${time}.000Z`;
      const cron = (): MonitorEvent[] => [
        { type: 'MonitorCreated', data: { ...ids, config: config({ type: 'JOB_CRON', schedule: '0 3 * * *', grace_period_seconds: 300 }), created_at: day(0, '00:00:00'), next_expected_at: day(0, '03:00:00') } },
        pinged(0, { received_at: day(0, '03:00:10'), last_checkin_at: day(0, '03:00:10'), next_expected_at: day(1, '03:00:00') }),
      ];
      const outage = { outages: [{ from: day(1, '02:50:00'), to: day(1, '03:20:00') }], confirmed_at: day(1, '03:20:00'), confirm_again_by: day(1, '03:20:04') };

      it('records the run due while Vigil was down unheard, and expects the next one as usual', () => {
        const decided = monitorDecider.decide(expire(day(1, '03:20:00'), outage), cron().reduce(monitorDecider.evolve, monitorDecider.initialState()));
        expect(decided.map((e) => e.type)).to.deep.equal(['CheckInUnheard']);
        given([...cron(), ...decided]).when(expire(day(2, '03:05:00'), { ...outage, confirmed_at: day(2, '03:04:59'), confirm_again_by: day(2, '03:05:03') })).thenEmits(['CheckInMissed', 'MonitorWentDown', 'IncidentOpened']);
      });
    });

    describe('given a run started with a 60 s maximum (a JOB_BASIC watchdog)', () => {
      const basic = (): MonitorEvent[] => [
        { type: 'MonitorCreated', data: { ...ids, config: config({ type: 'JOB_BASIC', schedule: 'manual', max_duration_seconds: 60 }), created_at: at(-10), next_expected_at: null } },
        pinged(0, { event: 'START', last_success_at: null, next_expected_at: null }),
      ];

      it('forgets a run under way during the outage, unheard: not hung, not failed, no incident', () => {
        const outage = { outages: [{ from: at(30), to: at(50) }], confirmed_at: at(60), confirm_again_by: at(64) };
        given(basic()).when(expire(at(60), outage)).then([{
          type: 'RunUnheard',
          data: {
            ...ids, start_ping_id: 'ping-0', run_id: null, started_at: at(0), deadline_at: at(60), outage_from: at(30), outage_to: at(50),
            counters: counters(null, { last_success_at: null }),
          },
        }]);
        const afterwards = monitorDecider.decide(expire(at(60), outage), basic().reduce(monitorDecider.evolve, monitorDecider.initialState()));
        given([...basic(), ...afterwards]).when(expire(at(600), outage)).then([]);
        // A run heard throughout is still hung.
        given(basic()).when(expire(at(60), { outages: [{ from: at(-100), to: at(-50) }], confirmed_at: at(59), confirm_again_by: at(63) }))
          .thenEmits(['RunOverdue', 'IncidentOpened', 'MonitorWentDown', 'IncidentOpened']);
      });
    });

    describe('given an uptime check every minute with a 10 s timeout', () => {
      const uptime: MonitorEvent = {
        type: 'MonitorCreated',
        data: { ...ids, config: config({ type: 'UPTIME_HTTP', schedule: '60s', uptime: { ...UPTIME_DEFAULTS, uptime_url: 'http://127.0.0.1:9/' } }), created_at: at(0), next_expected_at: at(0) },
      };
      const failed = (response_time_ms: number): MonitorCommand => ({
        type: 'RecordCheck', ...ids, incident_ids: { failed: 'inc-f', ssl: 'inc-s' }, ssl_warning_days: 14, repage_after_seconds: 3600, now: at(60),
        check: { check_id: 'c-1', status_code: null, response_time_ms, is_up: false, error: 'timed out after 10 s', ssl_expires_at: null, ssl_issuer: null, check_region: 'local', check_status: 'ok', cycle_id: null, attempts: 1 },
      });

      it('counts for nothing a failure that took far beyond its timeout: Vigil was paused or suspended while it was under way', () => {
        given([uptime]).when(failed(43_000)).thenMatches((events) =>
          events.length === 1 && events[0]!.type === 'CheckCompleted' && events[0].data.check_status === 'probe_error' && events[0].data.consecutive_failures === 0
          && /the check took 43 s though it times out after 10 s: Vigil itself was held up/.test(events[0].data.error ?? ''));
        // Within the timeout's reach, the target is to blame.
        given([uptime]).when(failed(10_050)).thenEmits(['CheckCompleted', 'MonitorWentDown', 'IncidentOpened']);
      });
    });
  });
});
