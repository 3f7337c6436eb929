import * as t from 'io-ts';
import { MONITOR_DELETION_STEPS } from '../domain/deletion/monitor-deletion.js';
import { oneOf } from './fields.js';

const Ids = { monitor_id: t.string, project_id: t.string };

export const deletionEventCodecs = {
  MonitorDeletionStarted: t.type({ ...Ids, at: t.string }),
  MonitorDeletionStepCompleted: t.type({ ...Ids, step: oneOf(MONITOR_DELETION_STEPS, 'MonitorDeletionStep'), at: t.string }),
  MonitorDeletionFinished: t.type({ ...Ids, at: t.string }),
};
