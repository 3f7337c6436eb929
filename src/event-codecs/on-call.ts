import * as t from 'io-ts';

const Ids = { schedule_id: t.string, project_id: t.string };
const Settings = {
  name: t.string,
  time_zone: t.string,
  handoff_time: t.string,
  rotation_days: t.number,
  participants: t.array(t.string),
  starts_on: t.string,
  overrides: t.array(t.type({ user_id: t.string, from: t.string, until: t.string })),
};

export const onCallEventCodecs = {
  OnCallScheduleCreated: t.type({ ...Ids, ...Settings, at: t.string }),
  OnCallScheduleUpdated: t.type({ ...Ids, ...Settings, at: t.string }),
  OnCallScheduleDeleted: t.type({ ...Ids, at: t.string }),
};
