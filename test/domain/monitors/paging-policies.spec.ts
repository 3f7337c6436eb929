import { expect } from 'chai';
import { MONITOR_DEFAULTS } from '../../../src/domain/monitors/monitor-config.js';
import type { PagingCircumstances } from '../../../src/domain/monitors/circumstances.js';
import { type IncomingPing, type MonitorCommand, type MonitorEvent, monitorDecider } from '../../../src/domain/monitors/monitor.js';
import { pagingPolicies } from '../../../src/domain/monitors/paging-policies.js';

const ids = { monitor_id: 'm-1', project_id: 'p-1' };
const T0 = '2026-11-21T10:00:00.000Z';
const T1 = '2026-11-21T10:05:00.000Z';
const created: MonitorEvent = {
  type: 'MonitorCreated',
  data: { ...ids, config: { ...MONITOR_DEFAULTS, name: 'Backup', slug: 'backup', type: 'JOB_BASIC', schedule: '', uptime: null, failure_tolerance: 1, alert_enabled: true }, created_at: T0, next_expected_at: null },
};
const failure: IncomingPing = {
  ping_id: 'p-1', event: 'FAILURE', run_id: null, exit_code: 1, duration_ms: null, message: null, payload: null, payload_truncated: false, payload_bytes: null, request_ip: null, request_ua: null,
};
const fails = (circumstances: PagingCircumstances): MonitorCommand => ({ type: 'ReceivePing', monitor_id: 'm-1', ping: failure, incident_id: 'inc-1', repage_after_seconds: 3600, now: T1, circumstances });
const decide = (command: MonitorCommand) => monitorDecider.decide(command, [created].reduce(monitorDecider.evolve, monitorDecider.initialState())).map((e) => e.type);
const window = { window_id: 'w-1', name: 'Deploy', ends_at: '2026-11-21T10:30:00.000Z' };
const upstream = { monitor_id: 'db', name: 'Database' };

describe('Paging policies', () => {
  it('are one chain, in the order the monitor decider applies them', () => {
    expect(pagingPolicies.map((policy) => policy.name)).to.deep.equal(['suppressedInMaintenance', 'upstreamCaused', 'repagesHeldInMaintenance', 'paged']);
  });

  it('suppress in maintenance before they look upstream: an incident held back is not marked caused upstream', () => {
    expect(decide(fails({ maintenance: window, upstreamDown: null }))).to.deep.equal(['PingReceived', 'MonitorWentDown', 'IncidentSuppressed']);
    expect(decide(fails({ maintenance: window, upstreamDown: upstream }))).to.deep.equal(['PingReceived', 'MonitorWentDown', 'IncidentSuppressed']);
  });

  it('mark an incident caused upstream before they page: it pages nobody', () => {
    expect(decide(fails({ maintenance: null, upstreamDown: null }))).to.deep.equal(['PingReceived', 'MonitorWentDown', 'IncidentOpened', 'PageScheduled']);
    expect(decide(fails({ maintenance: null, upstreamDown: upstream }))).to.deep.equal(['PingReceived', 'MonitorWentDown', 'IncidentOpened', 'IncidentCausedUpstream']);
  });
});
