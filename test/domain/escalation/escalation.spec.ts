import { type EscalationEvent, type PolicySnapshot, escalationDecider } from '../../../src/domain/escalation/escalation.js';
import { type EscalationPolicyEvent, escalationPolicyDecider } from '../../../src/domain/escalation/policy.js';
import { stepDueAt } from '../../../src/domain/escalation/steps.js';
import type { MonitorEvent } from '../../../src/domain/monitors/monitor-events.js';
import { expect } from 'chai';
import { deciderSpec } from '../../support/decider.js';

const ids = { incident_id: 'inc-1', monitor_id: 'mon-1', project_id: 'p-1' };
const step = (delay_seconds: number, channel: string, urgent = false) => ({ delay_seconds, notification_group_ids: [], notification_channel_ids: [channel], on_call_schedule_ids: [], urgent });
const policy: PolicySnapshot = { policy_id: 'pol-1', policy_name: 'Database', steps: [step(0, 'a'), step(300, 'b', true), step(600, 'c')], repeat: 0 };
const T0 = '2026-03-01T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const started: EscalationEvent = { type: 'EscalationStarted', data: { ...ids, ...policy, page_id: 'inc-1.opened', started_at: T0, at: T0 } };
const reached = (round: number, stepIndex: number, channels: string[], seconds: number, urgent = false): EscalationEvent => ({
  type: 'EscalationStepReached',
  data: { ...ids, step: stepIndex, round, page_id: `inc-1.escalation.${round}.${stepIndex}`, channel_ids: channels, urgent, due_at: at(seconds), at: at(seconds) },
});
const acknowledged: MonitorEvent = { type: 'IncidentAcknowledged', data: { monitor_id: 'mon-1', project_id: 'p-1', incident_id: 'inc-1', acknowledged_at: at(60), user_id: 'u', email: 'u@example.com', api_key_id: null } };

describe('Escalation', () => {
  const spec = deciderSpec(escalationDecider);

  describe('when started', () => {
    it('pages the first step at once, to the channels the application resolved', () => {
      spec.given([started]).when({ type: 'ReachEscalationStep', incident_id: 'inc-1', round: 0, step: 0, channel_ids: ['a', 'a'], now: T0 }).then([reached(0, 0, ['a'], 0)]);
    });
    it('pages nothing before a step is due', () => {
      spec.given([started, reached(0, 0, ['a'], 0)]).when({ type: 'ReachEscalationStep', incident_id: 'inc-1', round: 0, step: 1, channel_ids: ['b'], now: at(299) }).then([]);
    });
    it('pages a step once: the same step again (a second timer fire, a restart) is no decision', () => {
      spec.given([started, reached(0, 0, ['a'], 0)]).when({ type: 'ReachEscalationStep', incident_id: 'inc-1', round: 0, step: 0, channel_ids: ['a'], now: at(400) }).then([]);
    });
    it('marks the pages of an urgent step', () => {
      spec.given([started, reached(0, 0, ['a'], 0)]).when({ type: 'ReachEscalationStep', incident_id: 'inc-1', round: 0, step: 1, channel_ids: ['b'], now: at(300) }).then([reached(0, 1, ['b'], 300, true)]);
    });
    it('stops after the last step when there is no repeat', () => {
      spec.given([started, reached(0, 0, ['a'], 0), reached(0, 1, ['b'], 300, true)])
        .when({ type: 'ReachEscalationStep', incident_id: 'inc-1', round: 0, step: 2, channel_ids: ['c'], now: at(600) })
        .then([reached(0, 2, ['c'], 600), { type: 'EscalationStopped', data: { ...ids, reason: 'exhausted', at: at(600) } }]);
    });
  });

  describe('when the incident is acknowledged', () => {
    it('stops the climb instead of paging the next step', () => {
      spec.given([started, reached(0, 0, ['a'], 0), acknowledged])
        .when({ type: 'ReachEscalationStep', incident_id: 'inc-1', round: 0, step: 1, channel_ids: ['b'], now: at(300) })
        .then([{ type: 'EscalationStopped', data: { ...ids, reason: 'acknowledged', at: at(300) } }]);
    });
    it('is stopped once, naming the acknowledgement', () => {
      spec.given([started, reached(0, 0, ['a'], 0), acknowledged]).when({ type: 'StopEscalation', incident_id: 'inc-1', now: at(61) })
        .then([{ type: 'EscalationStopped', data: { ...ids, reason: 'acknowledged', at: at(61) } }]);
      spec.given([started, acknowledged, { type: 'EscalationStopped', data: { ...ids, reason: 'acknowledged', at: at(61) } }])
        .when({ type: 'StopEscalation', incident_id: 'inc-1', now: at(62) }).then([]);
    });
    it('does not start at all', () => {
      spec.given([acknowledged]).when({ type: 'StartEscalation', ...ids, page_id: 'inc-1.opened', policy, started_at: T0, now: at(70) }).then([]);
    });
  });

  describe('inside a maintenance window over the monitor', () => {
    const window = {
      type: 'MaintenanceWindowScheduled', data: { window_id: 'w-1', project_id: 'p-1', name: 'Failover', monitor_ids: null, starts_at: at(60), ends_at: at(480), duration_seconds: null, rrule: null, timezone: 'UTC', scheduled_at: at(30) },
    } as const;
    const held: EscalationEvent = { type: 'EscalationStepHeld', data: { ...ids, step: 1, round: 0, window_id: 'w-1', window_name: 'Failover', until: at(480), at: at(300) } };
    it('holds the step due, once', () => {
      spec.given([started, reached(0, 0, ['a'], 0), window]).when({ type: 'ReachEscalationStep', incident_id: 'inc-1', round: 0, step: 1, channel_ids: ['b'], now: at(300) }).then([held]);
      spec.given([started, reached(0, 0, ['a'], 0), window, held]).when({ type: 'ReachEscalationStep', incident_id: 'inc-1', round: 0, step: 1, channel_ids: ['b'], now: at(360) }).then([]);
    });
    it('pages it once the window has ended', () => {
      spec.given([started, reached(0, 0, ['a'], 0), window, held]).when({ type: 'ReachEscalationStep', incident_id: 'inc-1', round: 0, step: 1, channel_ids: ['b'], now: at(480) })
        .then([{ ...reached(0, 1, ['b'], 300, true), data: { ...reached(0, 1, ['b'], 300, true).data, at: at(480) } } as EscalationEvent]);
    });
  });

  describe('while surge protection pauses the monitor\'s pages', () => {
    const paused: MonitorEvent = { type: 'AlertsPaused', data: { monitor_id: 'mon-1', project_id: 'p-1', until: at(3600), consecutive_alerts: 10, at: at(10) } };
    it('waits with the step due until the pause ends', () => {
      spec.given([started, reached(0, 0, ['a'], 0), paused]).when({ type: 'ReachEscalationStep', incident_id: 'inc-1', round: 0, step: 1, channel_ids: ['b'], now: at(300) }).then([]);
      spec.given([started, reached(0, 0, ['a'], 0), paused]).when({ type: 'ReachEscalationStep', incident_id: 'inc-1', round: 0, step: 1, channel_ids: ['b'], now: at(3600) })
        .thenEmits(['EscalationStepReached']);
    });
  });

  describe('rounds', () => {
    it('starts each repeat one last-step delay after the round before (at least a minute)', () => {
      expect(stepDueAt(T0, policy.steps, 1, 0)).to.equal(at(600));
      expect(stepDueAt(T0, policy.steps, 1, 2)).to.equal(at(1200));
      expect(stepDueAt(T0, [step(0, 'a')], 2, 0)).to.equal(at(120));
    });
  });
});

describe('EscalationPolicy', () => {
  const spec = deciderSpec(escalationPolicyDecider);
  const settings = { name: 'Database', steps: [step(0, 'a'), step(300, 'b')], repeat: 0 };
  const created: EscalationPolicyEvent = { type: 'EscalationPolicyCreated', data: { policy_id: 'pol-1', project_id: 'p-1', ...settings, at: T0 } };

  it('is created with its steps', () => {
    spec.given([]).when({ type: 'CreateEscalationPolicy', policy_id: 'pol-1', project_id: 'p-1', settings, now: T0 }).then([created]);
  });
  it('refuses a step without a target, naming it', () => {
    spec.given([]).when({ type: 'CreateEscalationPolicy', policy_id: 'pol-1', project_id: 'p-1', settings: { ...settings, steps: [step(0, 'a'), { ...step(60, 'b'), notification_channel_ids: [] }] }, now: T0 })
      .thenRefuses('invalid', /^steps\[1\]: names no target/);
  });
  it('refuses a delay beyond a day or below zero, naming the step', () => {
    spec.given([created]).when({ type: 'UpdateEscalationPolicy', policy_id: 'pol-1', changes: { steps: [step(86_401, 'a')] }, now: T0 }).thenRefuses('invalid', /^steps\[0\]\.delay_seconds/);
    spec.given([created]).when({ type: 'UpdateEscalationPolicy', policy_id: 'pol-1', changes: { steps: [step(-1, 'a')] }, now: T0 }).thenRefuses('invalid', /^steps\[0\]\.delay_seconds/);
  });
  it('records an edit as the full new state, and nothing for no change', () => {
    spec.given([created]).when({ type: 'UpdateEscalationPolicy', policy_id: 'pol-1', changes: { repeat: 2 }, now: at(5) })
      .then([{ type: 'EscalationPolicyUpdated', data: { policy_id: 'pol-1', project_id: 'p-1', ...settings, repeat: 2, at: at(5) } }]);
    spec.given([created]).when({ type: 'UpdateEscalationPolicy', policy_id: 'pol-1', changes: { name: 'Database' }, now: at(5) }).then([]);
  });
  it('is deleted, and then not found', () => {
    const deleted: EscalationPolicyEvent = { type: 'EscalationPolicyDeleted', data: { policy_id: 'pol-1', project_id: 'p-1', at: at(9) } };
    spec.given([created]).when({ type: 'DeleteEscalationPolicy', policy_id: 'pol-1', now: at(9) }).then([deleted]);
    spec.given([created, deleted]).when({ type: 'UpdateEscalationPolicy', policy_id: 'pol-1', changes: { repeat: 1 }, now: at(10) }).thenRefuses('not_found', /not found/);
  });
});
