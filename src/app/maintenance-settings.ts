import type { MaintenanceWindowDocument } from '../../projections/maintenance-windows.js';
import type { MaintenanceWindowSettings } from '../domain/maintenance/window.js';
import { badInput } from './refusal.js';

/** What a request asks of a maintenance window (`POST` and `PATCH /v1/maintenance-windows`, the console's form). */
export type MaintenanceWindowRequest = { name?: string; monitor_ids?: string[] | null; starts_at?: string; ends_at?: string; duration_seconds?: number; rrule?: string; timezone?: string };

/**
 * The settings a new window's body asks for. With `rrule`, a recurring window: each occurrence
 * lasts `duration_seconds`, in `timezone` (UTC unless given). Without, a one-off: from
 * `starts_at` (now unless given) to `ends_at`, or for `duration_seconds` ("start now for 30m").
 */
export function settingsOf(body: MaintenanceWindowRequest & { name: string }, now: string): MaintenanceWindowSettings {
  const base = { name: body.name, monitor_ids: body.monitor_ids ?? null };
  if (body.rrule !== undefined) {
    if (body.starts_at !== undefined || body.ends_at !== undefined) throw badInput('starts_at: a recurring window (rrule) takes no starts_at or ends_at');
    if (body.duration_seconds === undefined) throw badInput('duration_seconds: a recurring window needs how long each occurrence lasts');
    return { ...base, starts_at: null, ends_at: null, rrule: body.rrule, timezone: body.timezone ?? 'UTC', duration_seconds: body.duration_seconds };
  }
  if (body.timezone !== undefined) throw badInput('timezone: only a recurring window (rrule) takes a timezone');
  const startsAt = body.starts_at ?? now;
  if (body.ends_at !== undefined && body.duration_seconds !== undefined) throw badInput('ends_at: give ends_at or duration_seconds, not both');
  if (body.ends_at === undefined && body.duration_seconds === undefined) throw badInput('ends_at: a one-off window needs ends_at or duration_seconds');
  const endsAt = body.ends_at ?? new Date(Date.parse(startsAt) + body.duration_seconds! * 1000).toISOString();
  return { ...base, starts_at: startsAt, ends_at: endsAt, rrule: null, timezone: null, duration_seconds: null };
}

/** A patch: the fields sent. `duration_seconds` on a one-off window moves its end to that long after its start. */
export function patchOf(body: MaintenanceWindowRequest, current: MaintenanceWindowDocument): Partial<MaintenanceWindowSettings> {
  const patch: Partial<MaintenanceWindowSettings> = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.monitor_ids !== undefined) patch.monitor_ids = body.monitor_ids;
  if (body.starts_at !== undefined) patch.starts_at = body.starts_at;
  if (body.ends_at !== undefined) patch.ends_at = body.ends_at;
  if (body.rrule !== undefined) patch.rrule = body.rrule;
  if (body.timezone !== undefined) patch.timezone = body.timezone;
  if (body.duration_seconds !== undefined) {
    const oneOff = body.rrule === undefined && current.rrule === null;
    if (oneOff && body.ends_at !== undefined) throw badInput('ends_at: give ends_at or duration_seconds, not both');
    if (oneOff) patch.ends_at = new Date(Date.parse(body.starts_at ?? current.starts_at!) + body.duration_seconds * 1000).toISOString();
    else patch.duration_seconds = body.duration_seconds;
  }
  return patch;
}
