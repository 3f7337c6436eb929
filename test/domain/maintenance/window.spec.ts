import { expect } from 'chai';
import {
  type MaintenanceWindow,
  type MaintenanceWindowEvent,
  type MaintenanceWindowSettings,
  activeWindowFor,
  maintenanceDecider,
  nextStartAfter,
} from '../../../src/domain/maintenance/window.js';
import { deciderSpec } from '../../support/decider.js';

const project_id = 'p-1';
const window_id = 'w-1';
const now = '2026-11-21T10:00:00.000Z';
const oneOff: MaintenanceWindowSettings = {
  name: 'Deploy', monitor_ids: ['m-1'], starts_at: '2026-11-21T10:00:00.000Z', ends_at: '2026-11-21T10:30:00.000Z', rrule: null, timezone: null, duration_seconds: null,
};
const scheduled: MaintenanceWindowEvent = { type: 'MaintenanceWindowScheduled', data: { project_id, window_id, ...oneOff, scheduled_at: now } };

const window = (overrides: Partial<MaintenanceWindow> = {}): MaintenanceWindow => ({ window_id, project_id, ...oneOff, ended_at: null, cancelled: false, ...overrides });
const weekly = (overrides: Partial<MaintenanceWindow> = {}) =>
  window({ starts_at: null, ends_at: null, rrule: 'RRULE:FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=0', timezone: 'Europe/Paris', duration_seconds: 7200, monitor_ids: null, ...overrides });

describe('MaintenanceWindow', () => {
  const { given } = deciderSpec(maintenanceDecider);

  it('is scheduled with its settings, once however often a retried request asks', () => {
    given([]).when({ type: 'ScheduleMaintenanceWindow', project_id, window_id, settings: oneOff, now }).then([scheduled]);
    given([scheduled]).when({ type: 'ScheduleMaintenanceWindow', project_id, window_id, settings: oneOff, now }).then([]);
  });

  it('refuses an end before its start, a window already over, both forms at once, and a listed monitor twice', () => {
    const schedule = (settings: Partial<MaintenanceWindowSettings>) => given([]).when({ type: 'ScheduleMaintenanceWindow', project_id, window_id, settings: { ...oneOff, ...settings }, now });
    schedule({ ends_at: '2026-11-21T09:00:00.000Z' }).thenRefuses('invalid', /^ends_at: must be at least 60 seconds after starts_at/);
    schedule({ starts_at: '2026-11-21T08:00:00.000Z', ends_at: '2026-11-21T09:00:00.000Z' }).thenRefuses('invalid', /^ends_at: the window would already be over/);
    schedule({ rrule: 'RRULE:FREQ=DAILY' }).thenRefuses('invalid', /not both/);
    schedule({ monitor_ids: ['m-1', 'm-1'] }).thenRefuses('invalid', /^monitor_ids: a monitor is listed twice/);
    schedule({ ends_at: '2027-11-21T10:00:00.000Z' }).thenRefuses('invalid', /at most 90 days/);
  });

  it('refuses a recurring window whose RRULE, time zone or duration is not one it can keep', () => {
    const recurring = { ...oneOff, starts_at: null, ends_at: null, rrule: 'RRULE:FREQ=WEEKLY;BYDAY=SU;BYHOUR=2', timezone: 'Europe/Paris', duration_seconds: 3600 };
    const schedule = (settings: Partial<MaintenanceWindowSettings>) => given([]).when({ type: 'ScheduleMaintenanceWindow', project_id, window_id, settings: { ...recurring, ...settings }, now });
    schedule({}).thenEmits(['MaintenanceWindowScheduled']);
    schedule({ rrule: 'RRULE:FREQ=WEEKLY;BYHOUR=99' }).thenRefuses('invalid', /^rrule: /);
    schedule({ rrule: '0 2 * * 0' }).thenRefuses('invalid', /^rrule: a recurring window needs rrule/);
    schedule({ timezone: 'Mars/Olympus' }).thenRefuses('invalid', /^timezone: /);
    schedule({ duration_seconds: 0 }).thenRefuses('invalid', /^duration_seconds: /);
    schedule({ duration_seconds: 8 * 86_400 }).thenRefuses('invalid', /^duration_seconds: /);
  });

  it('is ended early once, cancelled after that, and refuses updates once over', () => {
    const ended: MaintenanceWindowEvent = { type: 'MaintenanceWindowEnded', data: { project_id, window_id, name: 'Deploy', ended_at: '2026-11-21T10:10:00.000Z', reason: 'ENDED' } };
    given([scheduled]).when({ type: 'EndMaintenanceWindow', window_id, reason: 'ENDED', now: '2026-11-21T10:10:00.000Z' }).then([ended]);
    given([scheduled, ended]).when({ type: 'EndMaintenanceWindow', window_id, reason: 'ENDED', now: '2026-11-21T10:11:00.000Z' }).then([]);
    given([scheduled, ended]).when({ type: 'EndMaintenanceWindow', window_id, reason: 'CANCELLED', now: '2026-11-21T10:11:00.000Z' }).thenEmits(['MaintenanceWindowEnded']);
    given([scheduled, ended]).when({ type: 'UpdateMaintenanceWindow', window_id, patch: { name: 'Later' }, now: '2026-11-21T10:11:00.000Z' }).thenRefuses('invalid', /is over/);
    given([]).when({ type: 'EndMaintenanceWindow', window_id, reason: 'ENDED', now }).thenRefuses('not_found', /maintenance window not found/);
  });

  it('records an update with every setting as it then stands; switching to recurring leaves the one-off times behind', () => {
    given([scheduled])
      .when({ type: 'UpdateMaintenanceWindow', window_id, patch: { rrule: 'RRULE:FREQ=DAILY;BYHOUR=3', timezone: 'UTC', duration_seconds: 600 }, now })
      .then([{ type: 'MaintenanceWindowUpdated', data: { project_id, window_id, ...oneOff, starts_at: null, ends_at: null, rrule: 'RRULE:FREQ=DAILY;BYHOUR=3', timezone: 'UTC', duration_seconds: 600, updated_at: now } }]);
    given([scheduled]).when({ type: 'UpdateMaintenanceWindow', window_id, patch: { name: 'Deploy' }, now }).then([]);
  });
});

describe('activeWindowFor', () => {
  it('covers the monitors it names from its start until (not at) its end', () => {
    expect(activeWindowFor([window()], 'm-1', '2026-11-21T09:59:59.000Z')).to.equal(null);
    expect(activeWindowFor([window()], 'm-1', '2026-11-21T10:00:00.000Z')).to.deep.equal({ window_id, name: 'Deploy', ends_at: '2026-11-21T10:30:00.000Z' });
    expect(activeWindowFor([window()], 'm-2', '2026-11-21T10:10:00.000Z')).to.equal(null);
    expect(activeWindowFor([window()], 'm-1', '2026-11-21T10:30:00.000Z')).to.equal(null);
  });

  it('covers every monitor of the project when it names none, and nothing once ended early or cancelled', () => {
    expect(activeWindowFor([window({ monitor_ids: null })], 'm-9', '2026-11-21T10:10:00.000Z')?.window_id).to.equal(window_id);
    expect(activeWindowFor([window({ ended_at: '2026-11-21T10:05:00.000Z' })], 'm-1', '2026-11-21T10:04:00.000Z')?.ends_at).to.equal('2026-11-21T10:05:00.000Z');
    expect(activeWindowFor([window({ ended_at: '2026-11-21T10:05:00.000Z' })], 'm-1', '2026-11-21T10:05:00.000Z')).to.equal(null);
    expect(activeWindowFor([window({ cancelled: true, ended_at: now })], 'm-1', '2026-11-21T10:00:00.000Z')).to.equal(null);
  });

  it('of two covering windows, names the one ending last', () => {
    const longer = window({ window_id: 'w-2', name: 'Migration', ends_at: '2026-11-21T12:00:00.000Z' });
    expect(activeWindowFor([window(), longer], 'm-1', '2026-11-21T10:10:00.000Z')?.name).to.equal('Migration');
  });

  it('covers a weekly RRULE occurrence at 02:00 Paris time, in winter (01:00 UTC) and summer (00:00 UTC), for its duration', () => {
    // Sunday 2026-11-22: CET, UTC+1.
    expect(activeWindowFor([weekly()], 'm-1', '2026-11-22T00:59:00.000Z')).to.equal(null);
    expect(activeWindowFor([weekly()], 'm-1', '2026-11-22T01:00:00.000Z')).to.deep.equal({ window_id, name: 'Deploy', ends_at: '2026-11-22T03:00:00.000Z' });
    expect(activeWindowFor([weekly()], 'm-1', '2026-11-22T02:59:59.000Z')?.ends_at).to.equal('2026-11-22T03:00:00.000Z');
    expect(activeWindowFor([weekly()], 'm-1', '2026-11-22T03:00:00.000Z')).to.equal(null);
    // Sunday 2027-06-06: CEST, UTC+2.
    expect(activeWindowFor([weekly()], 'm-1', '2027-06-06T00:00:00.000Z')?.ends_at).to.equal('2027-06-06T02:00:00.000Z');
    expect(activeWindowFor([weekly()], 'm-1', '2027-06-05T23:59:00.000Z')).to.equal(null);
    // A Monday: no occurrence.
    expect(activeWindowFor([weekly()], 'm-1', '2026-11-23T01:30:00.000Z')).to.equal(null);
  });

  it('on the night clocks spring forward, starts its 02:00 occurrence at 03:00 CEST and lasts its duration in real time', () => {
    // Sunday 2027-03-28: 02:00 CET does not exist; clocks go from 02:00 to 03:00 (01:00 UTC).
    const found = activeWindowFor([weekly()], 'm-1', '2027-03-28T01:30:00.000Z');
    expect(found?.ends_at).to.equal('2027-03-28T03:00:00.000Z');
  });

  it('tells when a window next starts', () => {
    expect(nextStartAfter(weekly(), '2026-11-22T03:00:00.000Z')).to.equal('2026-11-29T01:00:00.000Z');
    expect(nextStartAfter(window(), '2026-11-21T09:00:00.000Z')).to.equal('2026-11-21T10:00:00.000Z');
    expect(nextStartAfter(window(), '2026-11-21T10:05:00.000Z')).to.equal(null);
  });
});

describe('activeWindowFor across the spring-forward gap', () => {
  it('still covers the moved occurrence late in it, and not before 03:00 CEST', () => {
    const w = window({ starts_at: null, ends_at: null, rrule: 'RRULE:FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=0', timezone: 'Europe/Paris', duration_seconds: 7200, monitor_ids: null });
    expect(activeWindowFor([w], 'm-1', '2027-03-28T02:45:00.000Z')?.ends_at).to.equal('2027-03-28T03:00:00.000Z');
    expect(activeWindowFor([w], 'm-1', '2027-03-28T00:30:00.000Z')).to.equal(null);
  });
});
