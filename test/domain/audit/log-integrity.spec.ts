import { expect } from 'chai';
import { LOG_INTEGRITY_STREAM, type LogIntegrityCheck, type LogIntegrityEvent, logIntegrityDecider } from '../../../src/domain/audit/log-integrity.js';
import { deciderSpec } from '../../support/decider.js';

const { given } = deciderSpec(logIntegrityDecider);
const whole: LogIntegrityCheck = {
  checked_at: '2026-11-21T10:00:00.000Z', ok: true, events_checked: 120, head_position: 120, head_chain: 'c0ffee',
  first_break_position: null, first_break_reason: null, read_models_ok: true, checked_by: 'cli', user_id: null, project_id: null,
};
const broken: LogIntegrityCheck = {
  ...whole, checked_at: '2026-11-21T11:00:00.000Z', ok: false, events_checked: 57, head_position: 57, head_chain: null,
  first_break_position: 57, first_break_reason: 'hash mismatch', read_models_ok: null, checked_by: 'console', user_id: 'u-1', project_id: 'p-1',
};
const checked = (check: LogIntegrityCheck): LogIntegrityEvent => ({ type: 'LogIntegrityChecked', data: check });

describe('Log integrity', () => {
  it('keeps every check of the instance in one stream', () => {
    expect(LOG_INTEGRITY_STREAM).to.equal('log-integrity');
  });

  it('records a check of a whole log as it was found', () => {
    given([]).when({ type: 'RecordIntegrityCheck', check: whole }).then([checked(whole)]);
  });

  it('records a check that found a break, with who ran it from which project\'s page', () => {
    given([checked(whole)]).when({ type: 'RecordIntegrityCheck', check: broken }).then([checked(broken)]);
  });

  it('records every check, even one that finds the same as the last: each is a moment someone looked', () => {
    given([checked(whole), checked(whole)]).when({ type: 'RecordIntegrityCheck', check: whole }).then([checked(whole)]);
  });

  it('counts the checks recorded', () => {
    const state = [checked(whole), checked(broken)].reduce(logIntegrityDecider.evolve, logIntegrityDecider.initialState());
    expect(state).to.deep.equal({ checks: 2 });
  });
});
