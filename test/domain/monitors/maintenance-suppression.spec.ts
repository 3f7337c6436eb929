import { expect } from 'chai';
import { MONITOR_DEFAULTS } from '../../../src/domain/monitors/monitor-config.js';
import type { PagingCircumstances } from '../../../src/domain/monitors/circumstances.js';
import { type IncomingPing, type MonitorCommand, type MonitorEvent, monitorDecider } from '../../../src/domain/monitors/monitor.js';

const monitor_id = 'm-1';
const project_id = 'p-1';
const ids = { monitor_id, project_id };
const T0 = '2026-11-21T10:00:00.000Z';
const IN_WINDOW = '2026-11-21T10:05:00.000Z';
const WINDOW_END = '2026-11-21T10:30:00.000Z';
const deploy: PagingCircumstances = { maintenance: { window_id: 'w-1', name: 'Deploy', ends_at: WINDOW_END }, upstreamDown: null };

const created: MonitorEvent = {
  type: 'MonitorCreated',
  data: { ...ids, config: { ...MONITOR_DEFAULTS, name: 'Backup', slug: 'backup', type: 'JOB_BASIC', schedule: '', uptime: null, failure_tolerance: 1, alert_enabled: true }, created_at: T0, next_expected_at: null },
};
const ping = (event: IncomingPing['event'], ping_id: string): IncomingPing => ({
  ping_id, event, run_id: null, exit_code: event === 'FAILURE' ? 1 : null, duration_ms: null, message: null, payload: null, payload_truncated: false, payload_bytes: null, request_ip: null, request_ua: null,
});
const receive = (event: IncomingPing['event'], ping_id: string, now: string, incident_id: string, circumstances?: PagingCircumstances): MonitorCommand => ({
  type: 'ReceivePing', monitor_id, ping: ping(event, ping_id), incident_id, repage_after_seconds: 3600, now, ...(circumstances ? { circumstances } : {}),
});
const expire = (now: string, circumstances?: PagingCircumstances, review = false): MonitorCommand => ({
  type: 'ExpireDeadlines', monitor_id, incident_ids: { missed: 'x-1', overdue: 'x-2', failed: 'x-3' }, repage_after_seconds: 3600, now,
  ...(circumstances ? { circumstances } : {}), ...(review ? { review_suppressed: true } : {}),
});

/** Decides the commands one after the other, each on the events before it; returns every event. */
function run(events: MonitorEvent[], ...commands: MonitorCommand[]): MonitorEvent[][] {
  let state = events.reduce(monitorDecider.evolve, monitorDecider.initialState());
  return commands.map((command) => {
    const decided = monitorDecider.decide(command, state);
    state = decided.reduce(monitorDecider.evolve, state);
    return decided;
  });
}
const types = (events: MonitorEvent[]) => events.map((e) => e.type);

describe('Monitor in a maintenance window', () => {
  it('records the incident it would open as suppressed, naming the window, and pages nobody', () => {
    const [decided] = run([created], receive('FAILURE', 'p-1', IN_WINDOW, 'inc-1', deploy));
    expect(types(decided!)).to.deep.equal(['PingReceived', 'MonitorWentDown', 'IncidentSuppressed']);
    expect(decided![2]!.data).to.deep.include({ incident_id: 'inc-1', event: 'FAILED', window_id: 'w-1', window_name: 'Deploy', window_ends_at: WINDOW_END, at: IN_WINDOW, ping_id: 'p-1' });
  });

  it('records the suppression once per window: further failures in it add only their pings', () => {
    const [, second] = run([created], receive('FAILURE', 'p-1', IN_WINDOW, 'inc-1', deploy), receive('FAILURE', 'p-2', '2026-11-21T10:06:00.000Z', 'inc-2', deploy));
    expect(types(second!)).to.deep.equal(['PingReceived']);
  });

  it('forgets what it held back when the monitor recovers inside the window, recording that', () => {
    const [, recovered, atEnd] = run([created], receive('FAILURE', 'p-1', IN_WINDOW, 'inc-1', deploy), receive('SUCCESS', 'p-2', '2026-11-21T10:10:00.000Z', 'inc-2'), expire(WINDOW_END, undefined, true));
    expect(types(recovered!)).to.deep.equal(['PingReceived', 'MonitorWentUp', 'SuppressedIncidentCleared']);
    expect(recovered![2]!.data).to.deep.include({ incident_id: 'inc-1', event: 'FAILED', window_id: 'w-1', reason: 'SUCCESS_PING' });
    expect(atEnd).to.deep.equal([]);
  });

  it('opens what is still failing when the window ends, under the id it was held back with, and pages then', () => {
    const [, atEnd] = run([created], receive('FAILURE', 'p-1', IN_WINDOW, 'inc-1', deploy), expire(WINDOW_END));
    expect(types(atEnd!)).to.deep.equal(['IncidentOpened', 'PageScheduled']);
    expect(atEnd![0]!.data).to.deep.include({ incident_id: 'inc-1', event: 'FAILED', started_at: WINDOW_END, ping_id: 'p-1' });
  });

  it('holds it back again, naming the other window, when another covers the monitor as the first ends', () => {
    const next: PagingCircumstances = { maintenance: { window_id: 'w-2', name: 'Migration', ends_at: '2026-11-21T12:00:00.000Z' }, upstreamDown: null };
    const [, atEnd] = run([created], receive('FAILURE', 'p-1', IN_WINDOW, 'inc-1', deploy), expire(WINDOW_END, next));
    expect(types(atEnd!)).to.deep.equal(['IncidentSuppressed']);
    expect(atEnd![0]!.data).to.deep.include({ incident_id: 'inc-1', window_id: 'w-2', window_name: 'Migration' });
  });

  it('looks again before the window was due to end when told a window changed, recording the suppression anew if still covered', () => {
    const [, reviewed] = run([created], receive('FAILURE', 'p-1', IN_WINDOW, 'inc-1', deploy), expire('2026-11-21T10:10:00.000Z', deploy, true));
    expect(types(reviewed!)).to.deep.equal(['IncidentSuppressed']);
    const [, opened] = run([created], receive('FAILURE', 'p-1', IN_WINDOW, 'inc-1', deploy), expire('2026-11-21T10:10:00.000Z', undefined, true));
    expect(types(opened!)).to.deep.equal(['IncidentOpened', 'PageScheduled']);
  });

  it('holds the repage of an incident opened before the window until the window ends', () => {
    const [opened, inWindow, atEnd] = run([created], receive('FAILURE', 'p-1', T0, 'inc-1'), expire('2026-11-21T11:00:00.000Z', { ...deploy, maintenance: { ...deploy.maintenance!, ends_at: '2026-11-21T11:30:00.000Z' } }), expire('2026-11-21T11:30:00.000Z'));
    expect(types(opened!)).to.include('PageScheduled');
    expect(types(inWindow!)).to.deep.equal(['RepageHeld']);
    expect(inWindow![0]!.data).to.deep.include({ incident_id: 'inc-1', until: '2026-11-21T11:30:00.000Z', window_name: 'Deploy' });
    expect(types(atEnd!)).to.deep.equal(['PageScheduled']);
    expect(atEnd![0]!.data).to.deep.include({ reason: 'repage' });
  });
});
