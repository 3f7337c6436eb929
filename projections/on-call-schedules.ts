import type { OnCallScheduleSettings } from '../src/domain/on-call/schedule.js';
import type { Projection, Target } from '../src/projector/projection.js';

/** An on-call schedule as the API, the console and escalation steps read it. */
export interface OnCallScheduleDocument extends OnCallScheduleSettings {
  id: string;
  project_id: string;
  created_at: string;
  updated_at: string;
}

export const onCallSchedulesProjection: Projection<OnCallScheduleDocument> = {
  name: 'on_call_schedules',
  version: 1,
  collection: { name: 'on_call_schedules', indexes: [{ fields: ['project_id', 'created_at'] }] },
  handles: ['OnCallScheduleCreated', 'OnCallScheduleUpdated', 'OnCallScheduleDeleted', 'ProjectDeleted'],
  targets(event): Target {
    switch (event.type) {
      case 'ProjectDeleted':
        return { where: { project_id: event.data.project_id } };
      case 'OnCallScheduleCreated':
      case 'OnCallScheduleUpdated':
      case 'OnCallScheduleDeleted':
        return { ids: [event.data.schedule_id] };
      default:
        return { ids: [] };
    }
  },
  apply(doc, event) {
    switch (event.type) {
      case 'OnCallScheduleCreated':
      case 'OnCallScheduleUpdated': {
        const { schedule_id, project_id, name, time_zone, handoff_time, rotation_days, participants, starts_on, overrides, at } = event.data;
        return {
          id: schedule_id, project_id, name, time_zone, handoff_time, rotation_days, participants, starts_on, overrides,
          created_at: doc?.created_at ?? at, updated_at: at,
        };
      }
      case 'OnCallScheduleDeleted':
      case 'ProjectDeleted':
        return null;
      default:
        return doc;
    }
  },
};
