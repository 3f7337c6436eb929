import { expect } from 'chai';
import { type OnCallRotation, onCallAt, onCallShifts, rotationProblem } from '../../../src/domain/on-call/rotation.js';

const weekly: OnCallRotation = { time_zone: 'Europe/Berlin', handoff_time: '09:00', rotation_days: 7, participants: ['ann', 'bob', 'cat'], starts_on: '2026-03-23', overrides: [] };
const who = (rotation: OnCallRotation, at: string) => onCallAt(rotation, at);

describe('On-call rotation', () => {
  it('has nobody on call before it starts, then the first participant from the first hand-off', () => {
    expect(who(weekly, '2026-03-23T07:59:00.000Z')).to.equal(null);
    expect(who(weekly, '2026-03-23T08:00:00.000Z')).to.deep.equal({ user_id: 'ann', from: '2026-03-23T08:00:00.000Z', until: '2026-03-30T07:00:00.000Z', override: false });
  });

  it('hands off at 09:00 local on both sides of the spring clock change in Berlin (a week one hour shorter)', () => {
    expect(who(weekly, '2026-03-30T06:59:00.000Z')?.user_id).to.equal('ann');
    expect(who(weekly, '2026-03-30T07:00:00.000Z')).to.deep.equal({ user_id: 'bob', from: '2026-03-30T07:00:00.000Z', until: '2026-04-06T07:00:00.000Z', override: false });
    expect(who(weekly, '2026-04-06T07:00:00.000Z')?.user_id).to.equal('cat');
    expect(who(weekly, '2026-04-13T07:00:00.000Z')?.user_id).to.equal('ann');
  });

  it('hands off at 09:00 local on both sides of the autumn clock change in Berlin (a day one hour longer)', () => {
    const daily: OnCallRotation = { ...weekly, rotation_days: 1, participants: ['ann', 'bob'], starts_on: '2026-10-24' };
    expect(who(daily, '2026-10-24T07:00:00.000Z')).to.deep.equal({ user_id: 'ann', from: '2026-10-24T07:00:00.000Z', until: '2026-10-25T08:00:00.000Z', override: false });
    expect(who(daily, '2026-10-25T07:30:00.000Z')?.user_id).to.equal('ann');
    expect(who(daily, '2026-10-25T08:00:00.000Z')).to.deep.equal({ user_id: 'bob', from: '2026-10-25T08:00:00.000Z', until: '2026-10-26T08:00:00.000Z', override: false });
  });

  it('hands off at 09:00 local across the spring clock change in New York', () => {
    const daily: OnCallRotation = { ...weekly, time_zone: 'America/New_York', rotation_days: 1, participants: ['ann', 'bob'], starts_on: '2026-03-07' };
    expect(who(daily, '2026-03-07T14:00:00.000Z')).to.deep.equal({ user_id: 'ann', from: '2026-03-07T14:00:00.000Z', until: '2026-03-08T13:00:00.000Z', override: false });
    expect(who(daily, '2026-03-08T13:00:00.000Z')?.user_id).to.equal('bob');
    expect(who(daily, '2026-03-09T12:59:00.000Z')?.user_id).to.equal('bob');
    expect(who(daily, '2026-03-09T13:00:00.000Z')?.user_id).to.equal('ann');
  });

  it('puts an override in for its range, cutting the rotation shift around it', () => {
    const covered: OnCallRotation = { ...weekly, overrides: [{ user_id: 'dan', from: '2026-03-25T12:00:00.000Z', until: '2026-03-26T12:00:00.000Z' }] };
    expect(who(covered, '2026-03-25T11:00:00.000Z')).to.deep.equal({ user_id: 'ann', from: '2026-03-23T08:00:00.000Z', until: '2026-03-25T12:00:00.000Z', override: false });
    expect(who(covered, '2026-03-25T12:00:00.000Z')).to.deep.equal({ user_id: 'dan', from: '2026-03-25T12:00:00.000Z', until: '2026-03-26T12:00:00.000Z', override: true });
    expect(who(covered, '2026-03-26T12:00:00.000Z')).to.deep.equal({ user_id: 'ann', from: '2026-03-26T12:00:00.000Z', until: '2026-03-30T07:00:00.000Z', override: false });
    // An override before the rotation starts still puts someone on call.
    const early: OnCallRotation = { ...weekly, overrides: [{ user_id: 'dan', from: '2026-03-20T00:00:00.000Z', until: '2026-03-21T00:00:00.000Z' }] };
    expect(who(early, '2026-03-20T10:00:00.000Z')?.user_id).to.equal('dan');
  });

  it('tells who is on call now and next', () => {
    expect(onCallShifts(weekly, '2026-03-24T00:00:00.000Z', 3).map((s) => [s.user_id, s.from])).to.deep.equal([
      ['ann', '2026-03-23T08:00:00.000Z'],
      ['bob', '2026-03-30T07:00:00.000Z'],
      ['cat', '2026-04-06T07:00:00.000Z'],
    ]);
    expect(onCallShifts({ ...weekly, participants: [] }, '2026-03-24T00:00:00.000Z', 2)).to.deep.equal([]);
  });

  it('names the setting that is wrong', () => {
    expect(rotationProblem(weekly)).to.equal(null);
    expect(rotationProblem({ ...weekly, time_zone: 'Nowhere/Land' })).to.match(/^time_zone: /);
    expect(rotationProblem({ ...weekly, handoff_time: '9:00' })).to.match(/^handoff_time: /);
    expect(rotationProblem({ ...weekly, rotation_days: 0 })).to.match(/^rotation: /);
    expect(rotationProblem({ ...weekly, starts_on: '2026-02-30' })).to.match(/^starts_on: /);
    expect(rotationProblem({ ...weekly, participants: ['ann', 'bob', 'ann'] })).to.match(/^participants\[2\]: listed twice/);
    expect(rotationProblem({ ...weekly, overrides: [{ user_id: 'x', from: '2026-03-25T12:00:00.000Z', until: '2026-03-25T11:00:00.000Z' }] })).to.match(/^overrides\[0\]\.until: /);
  });
});
