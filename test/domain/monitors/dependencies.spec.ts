import { expect } from 'chai';
import { type DependencyGraph, assertDependencies } from '../../../src/domain/monitors/dependencies.js';
import { type MonitorConfig, MONITOR_DEFAULTS } from '../../../src/domain/monitors/monitor-config.js';
import { type MonitorCommand, type MonitorEvent, monitorDecider } from '../../../src/domain/monitors/monitor.js';
import { DomainError } from '../../../src/domain/errors.js';

const ids = { monitor_id: 'm-1', project_id: 'p-1' };
const T0 = '2026-11-21T10:00:00.000Z';
const T1 = '2026-11-21T10:05:00.000Z';
const config: MonitorConfig = { ...MONITOR_DEFAULTS, name: 'Report', slug: 'report', type: 'JOB_BASIC', schedule: 'x', uptime: null, depends_on: ['db'] };
const created: MonitorEvent = { type: 'MonitorCreated', data: { ...ids, config, created_at: T0, next_expected_at: null } };
const upstreamDown = { maintenance: null, upstreamDown: { monitor_id: 'db', name: 'Database' } };
const ping = (event: 'SUCCESS' | 'FAILURE', now: string, incident_id = 'inc-1'): MonitorCommand => ({
  type: 'ReceivePing', monitor_id: 'm-1', incident_id, repage_after_seconds: 1800, now,
  ping: { ping_id: `p-${now}`, event, run_id: null, exit_code: null, duration_ms: null, message: null, payload: null, payload_truncated: false, payload_bytes: null, request_ip: null, request_ua: null },
});
const fold = (events: MonitorEvent[]) => events.reduce(monitorDecider.evolve, monitorDecider.initialState());

describe('Monitor dependencies', () => {
  describe('with a dependency DOWN', () => {
    it('marks the incident it opens caused upstream, right after it, and pages nobody', () => {
      const decided = monitorDecider.decide({ ...ping('FAILURE', T1), circumstances: upstreamDown } as MonitorCommand, fold([created]));
      expect(decided.map((e) => e.type)).to.deep.equal(['PingReceived', 'MonitorWentDown', 'IncidentOpened', 'IncidentCausedUpstream']);
      expect(decided[3]!.data).to.deep.equal({ ...ids, incident_id: 'inc-1', upstream_monitor_id: 'db', upstream_monitor_name: 'Database', at: T1 });
    });

    it('neither pages it again nor tells anyone of its resolution', () => {
      const opened = monitorDecider.decide({ ...ping('FAILURE', T1), circumstances: upstreamDown } as MonitorCommand, fold([created]));
      const state = fold([created, ...opened]);
      const later = '2026-11-21T12:00:00.000Z';
      expect(monitorDecider.decide({ type: 'ExpireDeadlines', monitor_id: 'm-1', incident_ids: { missed: 'x', overdue: 'y', failed: 'z' }, repage_after_seconds: 1800, now: later }, state)).to.deep.equal([]);
      const recovered = monitorDecider.decide(ping('SUCCESS', later), state);
      expect(recovered.map((e) => e.type)).to.deep.equal(['PingReceived', 'MonitorWentUp', 'IncidentResolved']);
    });
  });

  describe('without circumstances', () => {
    it('pages the incident as usual', () => {
      expect(monitorDecider.decide(ping('FAILURE', T1), fold([created])).map((e) => e.type)).to.deep.equal(['PingReceived', 'MonitorWentDown', 'IncidentOpened', 'PageScheduled']);
    });
  });

  describe('assertDependencies', () => {
    const node = (name: string, depends_on: string[] = [], project_id = 'p-1'): DependencyGraph[string] => ({ project_id, name, lifecycle: 'active', depends_on });
    const self = { id: 'a', project_id: 'p-1', name: 'A' };
    const refusal = (run: () => void) => {
      try {
        run();
      } catch (error) {
        expect(error).to.be.instanceOf(DomainError);
        return (error as DomainError).message;
      }
      return null;
    };

    it('refuses an edge to a deleted monitor being added, but keeps one set before its monitor was deleted', () => {
      const graph = { b: { ...node('B'), lifecycle: 'deleted' as const } };
      expect(refusal(() => assertDependencies(self, ['b'], [], graph))).to.equal('depends_on: monitor b does not exist in this project');
      expect(refusal(() => assertDependencies(self, ['b'], ['b'], undefined))).to.equal(null);
    });

    it('works out the depth of a wide graph once per monitor', () => {
      // Twenty monitors on each of ten levels, each depending on all of the next: 20^10 paths.
      const graph: Record<string, DependencyGraph[string]> = {};
      for (let level = 0; level < 10; level += 1) {
        for (let i = 0; i < 20; i += 1) graph[`l${level}-${i}`] = node(`L${level}.${i}`, level === 9 ? [] : Array.from({ length: 20 }, (_, j) => `l${level + 1}-${j}`));
      }
      expect(refusal(() => assertDependencies(self, Array.from({ length: 20 }, (_, j) => `l0-${j}`), [], graph))).to.equal(null);
    });

    it('refuses more than 20 dependencies', () => {
      const many = Array.from({ length: 21 }, (_, i) => `m${i}`);
      expect(refusal(() => assertDependencies(self, many, [], {}))).to.equal('depends_on: at most 20 monitors');
    });
  });
});
