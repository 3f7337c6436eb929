import { type OnCallScheduleSettings, onCallScheduleDecider } from '../../../src/domain/on-call/schedule.js';
import { deciderSpec } from '../../support/decider.js';

const project_id = 'p-1';
const schedule_id = 's-1';
const now = '2026-03-25T12:00:00.000Z';
const settings: OnCallScheduleSettings = { name: 'Primary', time_zone: 'Europe/Berlin', handoff_time: '09:00', rotation_days: 7, participants: ['ann', 'bob'], starts_on: '2026-03-23', overrides: [] };
const member = (user_id: string) => ({ type: 'ProjectMemberAdded' as const, data: { project_id, member_id: `m-${user_id}`, user_id, role: 'MEMBER' as const, joined_at: now } });
const created = { type: 'OnCallScheduleCreated' as const, data: { schedule_id, project_id, ...settings, at: now } };

describe('OnCallSchedule', () => {
  const { given } = deciderSpec(onCallScheduleDecider);

  it('is created once with its rotation, its people members of the project', () => {
    given([member('ann'), member('bob')]).when({ type: 'CreateOnCallSchedule', schedule_id, project_id, settings, now }).then([created]);
    given([member('ann'), member('bob'), created]).when({ type: 'CreateOnCallSchedule', schedule_id, project_id, settings, now }).then([]);
  });

  it('refuses someone who is not (or no longer) a member, naming the field', () => {
    given([member('ann')]).when({ type: 'CreateOnCallSchedule', schedule_id, project_id, settings, now }).thenRefuses('invalid', /^participants\[1\]: not a member/);
    const removed = { type: 'ProjectMemberRemoved' as const, data: { project_id, user_id: 'bob', removed_at: now } };
    given([member('ann'), member('bob'), created, removed]).when({ type: 'UpdateOnCallSchedule', schedule_id, changes: { name: 'Renamed' }, now }).thenRefuses('invalid', /^participants\[1\]: /);
    given([member('ann'), member('bob'), created]).when({ type: 'UpdateOnCallSchedule', schedule_id, changes: { overrides: [{ user_id: 'cat', from: now, until: '2026-03-26T12:00:00.000Z' }] }, now })
      .thenRefuses('invalid', /^overrides\[0\]\.user_id: /);
  });

  it('records a change as the whole new schedule, nothing for no change, and is deleted once', () => {
    given([member('ann'), member('bob'), created]).when({ type: 'UpdateOnCallSchedule', schedule_id, changes: { participants: ['bob', 'ann'] }, now })
      .then([{ type: 'OnCallScheduleUpdated', data: { schedule_id, project_id, ...settings, participants: ['bob', 'ann'], at: now } }]);
    given([member('ann'), member('bob'), created]).when({ type: 'UpdateOnCallSchedule', schedule_id, changes: { name: 'Primary' }, now }).then([]);
    const deleted = { type: 'OnCallScheduleDeleted' as const, data: { schedule_id, project_id, at: now } };
    given([created]).when({ type: 'DeleteOnCallSchedule', schedule_id, now }).then([deleted]);
    given([created, deleted]).when({ type: 'DeleteOnCallSchedule', schedule_id, now }).then([]);
    given([]).when({ type: 'UpdateOnCallSchedule', schedule_id, changes: {}, now }).thenRefuses('not_found', /on-call schedule not found/);
  });
});
