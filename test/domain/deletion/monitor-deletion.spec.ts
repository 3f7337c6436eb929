import { expect } from 'chai';
import {
  MONITOR_DELETION_STEPS, type MonitorDeletionEvent, type MonitorDeletionStep, monitorDeletionDecider, nextDeletionStep,
} from '../../../src/domain/deletion/monitor-deletion.js';
import { deciderSpec } from '../../support/decider.js';

const ids = { monitor_id: 'mon-1', project_id: 'p-1' };
const T0 = '2026-03-01T10:00:00.000Z';
const started: MonitorDeletionEvent = { type: 'MonitorDeletionStarted', data: { ...ids, at: T0 } };
const completed = (step: MonitorDeletionStep): MonitorDeletionEvent => ({ type: 'MonitorDeletionStepCompleted', data: { ...ids, step, at: T0 } });
const finished: MonitorDeletionEvent = { type: 'MonitorDeletionFinished', data: { ...ids, at: T0 } };
const complete = (step: MonitorDeletionStep) => ({ type: 'CompleteMonitorDeletionStep' as const, monitor_id: 'mon-1', step, now: T0 });
const stateAfter = (events: MonitorDeletionEvent[]) => events.reduce(monitorDeletionDecider.evolve, monitorDeletionDecider.initialState());

describe('Monitor deletion', () => {
  const spec = deciderSpec(monitorDeletionDecider);

  describe('when not started', () => {
    it('starts, naming the monitor and its project', () => {
      spec.given([]).when({ type: 'StartMonitorDeletion', ...ids, now: T0 }).then([started]);
    });
    it('refuses a step: there is no deletion to take it in', () => {
      spec.given([]).when(complete('hand_over_pages')).thenRefuses('invalid', /no deletion of monitor mon-1 has started/);
    });
    it('has no step to take', () => {
      expect(nextDeletionStep(stateAfter([]))).to.equal(null);
    });
  });

  describe('when started', () => {
    it('is started once: starting it again (a resumed run, a second process) is no decision', () => {
      spec.given([started]).when({ type: 'StartMonitorDeletion', ...ids, now: T0 }).then([]);
    });
    it('takes the steps in order: pages, removal, streams, the project told', () => {
      expect(MONITOR_DELETION_STEPS).to.deep.equal(['hand_over_pages', 'record_removal', 'delete_streams', 'record_streams_deletion']);
      const names: (MonitorDeletionStep | null)[] = [];
      let past: MonitorDeletionEvent[] = [started];
      for (let step = nextDeletionStep(stateAfter(past)); step !== null; step = nextDeletionStep(stateAfter(past))) {
        names.push(step);
        past = [...past, ...monitorDeletionDecider.decide(complete(step), stateAfter(past))];
      }
      expect(names).to.deep.equal([...MONITOR_DELETION_STEPS]);
    });
    it('records the step next due as done', () => {
      spec.given([started]).when(complete('hand_over_pages')).then([completed('hand_over_pages')]);
      spec.given([started, completed('hand_over_pages')]).when(complete('record_removal')).then([completed('record_removal')]);
    });
    it('records a step done once: the same step again, after a crash or from a second process, is no decision', () => {
      spec.given([started, completed('hand_over_pages')]).when(complete('hand_over_pages')).then([]);
    });
    it('records no step out of its turn: the streams are not gone before the removal is recorded', () => {
      spec.given([started, completed('hand_over_pages')]).when(complete('delete_streams')).then([]);
    });
    it('resumes where a crash left it: the next step is the first not recorded done', () => {
      expect(nextDeletionStep(stateAfter([started, completed('hand_over_pages'), completed('record_removal')]))).to.equal('delete_streams');
    });
    it('finishes with its last step', () => {
      spec.given([started, completed('hand_over_pages'), completed('record_removal'), completed('delete_streams')])
        .when(complete('record_streams_deletion'))
        .then([completed('record_streams_deletion'), finished]);
    });
  });

  describe('when finished', () => {
    const all = [started, ...MONITOR_DELETION_STEPS.map(completed), finished];
    it('has no step left', () => {
      expect(nextDeletionStep(stateAfter(all))).to.equal(null);
    });
    it('decides nothing more', () => {
      spec.given(all).when(complete('record_streams_deletion')).then([]);
      spec.given(all).when({ type: 'StartMonitorDeletion', ...ids, now: T0 }).then([]);
    });
  });
});
