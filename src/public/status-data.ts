import type { CheckDayDocument } from '../../projections/check-days.js';
import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import type { StatusPageDocument } from '../../projections/status-pages.js';
import type { IncidentKind } from '../domain/monitors/incidents.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { type PublicState, worstState } from './monitor-state.js';
import { monitorState } from '../queries/monitor-state.js';
import { isUptimeType } from '../domain/monitors/schedule.js';
import { type MaintenanceWindow, activeWindowFor, covers, nextStartAfter, occurrenceAt } from '../domain/maintenance/window.js';
import { currentMaintenanceWindows } from '../queries/maintenance.js';

/** Days of daily bars a status page shows: today (UTC) and the 89 before it. */
export const STATUS_DAYS = 90;
const DAY_MS = 86_400_000;
/** Incidents of these kinds count as down-time for a job's daily bar; the others are listed but leave it up. */
const DOWN_KINDS: readonly IncidentKind[] = ['MISSED', 'FAILED'];

/** One UTC day of one monitor. `percentage` null: no data (before the monitor existed, or nothing heard that day). */
export interface DayFigure {
  day: string;
  percentage: number | null;
  incidents: number;
}

export type BarState = 'none' | 'up' | 'degraded' | 'down';

export interface PublicNote {
  kind: 'note' | 'postmortem';
  added_at: string;
  text: string;
}

/** An incident as the public reads it: which shown monitor, what kind, when, and its public notes. Never its id, cause or who acted. */
export interface PublicIncident {
  monitorName: string;
  kind: IncidentKind;
  open: boolean;
  startedAt: string;
  resolvedAt: string | null;
  notes: PublicNote[];
}

export interface PublicMonitor {
  name: string;
  kind: 'uptime' | 'job';
  state: PublicState;
  /** Oldest first, STATUS_DAYS of them. */
  days: DayFigure[];
  /** Over the days with data. */
  uptime: number | null;
}

export interface StatusView {
  title: string;
  description: string;
  slug: string;
  overall: PublicState | null;
  monitors: PublicMonitor[];
  openIncidents: PublicIncident[];
  pastIncidents: PublicIncident[];
  /** Whether any shown monitor is a job (the footnote says how their bars are worked out). */
  hasJobs: boolean;
  hasUptime: boolean;
  days: string[];
  /** Maintenance windows covering a shown monitor, under way or starting within MAINTENANCE_AHEAD_DAYS, soonest first. */
  upcomingMaintenance: readonly PublicMaintenance[];
}

/** A maintenance window as the public reads it: its name and times only (never which monitors, or why). */
export interface PublicMaintenance {
  name: string;
  startsAt: string;
  endsAt: string;
  active: boolean;
}

/** How far ahead a status page announces maintenance. */
export const MAINTENANCE_AHEAD_DAYS = 14;

/** The windows of `windows` covering any of `monitorIds`: the occurrence under way, else the next one within reach. */
export function publicMaintenance(windows: readonly MaintenanceWindow[], monitorIds: readonly string[], now: Date): PublicMaintenance[] {
  const at = now.toISOString();
  const horizon = now.getTime() + MAINTENANCE_AHEAD_DAYS * DAY_MS;
  const shown: PublicMaintenance[] = [];
  for (const window of windows) {
    if (!monitorIds.some((id) => covers(window, id))) continue;
    const current = occurrenceAt(window, at);
    if (current) {
      shown.push({ name: window.name, startsAt: current.starts_at, endsAt: current.ends_at, active: true });
      continue;
    }
    const next = nextStartAfter(window, at);
    if (next === null || Date.parse(next) > horizon) continue;
    const ends = window.rrule === null ? window.ends_at! : new Date(Date.parse(next) + (window.duration_seconds ?? 0) * 1000).toISOString();
    shown.push({ name: window.name, startsAt: next, endsAt: ends, active: false });
  }
  return shown.sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.name.localeCompare(b.name));
}

/** `YYYY-MM-DD` of the `STATUS_DAYS` UTC days ending today, oldest first. */
export function statusDays(now: Date): string[] {
  const today = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
  return Array.from({ length: STATUS_DAYS }, (_, i) => new Date(today - (STATUS_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** Floored to hundredths, so a day with any down-time never reads 100%. */
const percent = (part: number, whole: number) => Math.floor((part / whole) * 10_000) / 100;

export function barState(figure: DayFigure): BarState {
  if (figure.percentage === null) return 'none';
  if (figure.percentage < 95) return 'down';
  if (figure.percentage < 99.9 || figure.incidents > 0) return 'degraded';
  return 'up';
}

/** "2026-11-24: 99.2% up, 1 incident", "2026-11-24: no data". */
export function dayLabel(figure: DayFigure): string {
  if (figure.percentage === null) return `${figure.day}: no data${figure.incidents > 0 ? `, ${incidentCount(figure.incidents)}` : ''}`;
  return `${figure.day}: ${figure.percentage}% up, ${figure.incidents === 0 ? 'no incidents' : incidentCount(figure.incidents)}`;
}

const incidentCount = (n: number) => `${n} incident${n === 1 ? '' : 's'}`;

function interval(incident: IncidentDocument, now: number): [number, number] {
  return [Date.parse(incident.started_at), incident.resolved_at ? Date.parse(incident.resolved_at) : now];
}

function overlaps(incident: IncidentDocument, from: number, to: number, now: number): boolean {
  const [start, end] = interval(incident, now);
  return start < to && end > from;
}

/** Milliseconds of [from, to) covered by the intervals (which may overlap one another). */
function covered(intervals: readonly [number, number][], from: number, to: number): number {
  const clipped = intervals.map(([a, b]) => [Math.max(a, from), Math.min(b, to)] as const).filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let reach = from;
  for (const [a, b] of clipped) {
    if (b <= reach) continue;
    total += b - Math.max(a, reach);
    reach = b;
  }
  return total;
}

/**
 * A job's day: the share of it (from the monitor's creation, up to now) not covered by a MISSED
 * or FAILED incident. A job that has never pinged has no data.
 */
export function jobDays(monitor: MonitorDocument, incidents: readonly IncidentDocument[], days: readonly string[], now: Date): { days: DayFigure[]; uptime: number | null } {
  const nowMs = now.getTime();
  const created = Date.parse(monitor.created_at);
  const down = incidents.filter((i) => DOWN_KINDS.includes(i.event)).map((i) => interval(i, nowMs));
  let spanTotal = 0;
  let downTotal = 0;
  const figures = days.map((day) => {
    const from = dayStart(day);
    const to = from + DAY_MS;
    const count = incidents.filter((i) => overlaps(i, from, to, nowMs)).length;
    const start = Math.max(from, created);
    const end = Math.min(to, nowMs);
    if (monitor.total_pings_received === 0 || end <= start) return { day, percentage: null, incidents: count };
    const downMs = covered(down, start, end);
    spanTotal += end - start;
    downTotal += downMs;
    return { day, percentage: percent(end - start - downMs, end - start), incidents: count };
  });
  return { days: figures, uptime: spanTotal > 0 ? percent(spanTotal - downTotal, spanTotal) : null };
}

/** An uptime monitor's day: its checks that day (from check_days), the share that found it up. */
export function uptimeDays(checkDays: readonly CheckDayDocument[], incidents: readonly IncidentDocument[], days: readonly string[], now: Date): { days: DayFigure[]; uptime: number | null } {
  const byDay = new Map(checkDays.map((d) => [d.day, d]));
  let total = 0;
  let up = 0;
  const figures = days.map((day) => {
    const from = dayStart(day);
    const count = incidents.filter((i) => overlaps(i, from, from + DAY_MS, now.getTime())).length;
    const checks = byDay.get(day);
    if (!checks || checks.total === 0) return { day, percentage: null, incidents: count };
    total += checks.total;
    up += checks.up;
    return { day, percentage: percent(checks.up, checks.total), incidents: count };
  });
  return { days: figures, uptime: total > 0 ? percent(up, total) : null };
}

interface NoteDocument {
  incident_id: string;
  kind: 'note' | 'postmortem';
  visibility: 'public' | 'internal';
  text: string;
  added_at: string;
}

/**
 * Everything a status page shows, read in a fixed number of queries however many monitors and
 * days it has (six at most: monitors, daily check counts, incidents resolved in
 * the window, incidents still open, maintenance windows, public notes; the page itself is the seventh).
 */
export async function loadStatusView(readModels: ReadModelStore, page: StatusPageDocument, now: Date): Promise<StatusView> {
  const days = statusDays(now);
  const windowStart = new Date(dayStart(days[0]!)).toISOString();
  const chosenIds = page.monitors.map((m) => m.monitor_id);
  const found = chosenIds.length === 0 ? [] : await readModels.find<MonitorDocument>('monitors', { $id: { $in: chosenIds } });
  // The page's own project only, whatever its list says; a deleted monitor drops out.
  const byId = new Map(found.filter((s) => s.doc.project_id === page.project_id).map((s) => [s.doc.id, s.doc]));
  const shown = page.monitors.flatMap((m) => {
    const monitor = byId.get(m.monitor_id);
    return monitor ? [{ monitor, name: m.display_name ?? monitor.name }] : [];
  });
  const ids = shown.map((s) => s.monitor.id);
  const uptimeIds = shown.filter((s) => isUptimeType(s.monitor.type)).map((s) => s.monitor.id);

  const [checkDays, resolved, open, windows] = await Promise.all([
    uptimeIds.length === 0 ? [] : readModels.find<CheckDayDocument>('check_days', { monitor_id: { $in: uptimeIds }, day: { $gte: days[0]! } }),
    ids.length === 0 ? [] : readModels.find<IncidentDocument>('incidents', { monitor_id: { $in: ids }, resolved_at: { $gte: windowStart } }),
    ids.length === 0 ? [] : readModels.find<IncidentDocument>('incidents', { monitor_id: { $in: ids }, status: { $ne: 'RESOLVED' } }),
    ids.length === 0 ? [] : currentMaintenanceWindows(readModels, page.project_id, now.toISOString()),
  ]);
  const incidents = [...open, ...resolved].map((s) => s.doc);
  const notes = incidents.length === 0
    ? []
    : (await readModels.find<NoteDocument>('incident_notes', { incident_id: { $in: incidents.map((i) => i.id) }, visibility: 'public' }, { sort: [['added_at', 1]] })).map((s) => s.doc);

  const openCount = (id: string) => open.filter((s) => s.doc.monitor_id === id).length;
  const at = now.toISOString();
  // The state the badge and the console tell (src/queries/monitor-state.ts), from what is read here.
  const stateOf = (monitor: MonitorDocument) =>
    monitorState(monitor, { openIncidents: openCount(monitor.id), inMaintenance: activeWindowFor(windows, monitor.id, at) !== null }, now);
  const nameOf = new Map(shown.map((s) => [s.monitor.id, s.name]));
  const monitors: PublicMonitor[] = shown.map(({ monitor, name }) => {
    const own = incidents.filter((i) => i.monitor_id === monitor.id);
    const isUptime = isUptimeType(monitor.type);
    const figures = isUptime
      ? uptimeDays(checkDays.map((s) => s.doc).filter((d) => d.monitor_id === monitor.id), own, days, now)
      : jobDays(monitor, own, days, now);
    return { name, kind: isUptime ? 'uptime' : 'job', state: stateOf(monitor), days: figures.days, uptime: figures.uptime };
  });

  const toPublic = (i: IncidentDocument): PublicIncident => ({
    monitorName: nameOf.get(i.monitor_id) ?? '',
    kind: i.event,
    open: i.status !== 'RESOLVED',
    startedAt: i.started_at,
    resolvedAt: i.resolved_at,
    notes: notes.filter((n) => n.incident_id === i.id).map((n) => ({ kind: n.kind === 'postmortem' ? 'postmortem' : 'note', added_at: n.added_at, text: n.text })),
  });
  const newestFirst = (a: IncidentDocument, b: IncidentDocument) => b.started_at.localeCompare(a.started_at) || a.id.localeCompare(b.id);
  return {
    title: page.title,
    description: page.description,
    slug: page.slug,
    overall: worstState(monitors.map((m) => m.state)),
    monitors,
    openIncidents: open.map((s) => s.doc).sort(newestFirst).map(toPublic),
    pastIncidents: resolved.map((s) => s.doc).filter((i) => i.status === 'RESOLVED').sort(newestFirst).map(toPublic),
    hasJobs: monitors.some((m) => m.kind === 'job'),
    hasUptime: monitors.some((m) => m.kind === 'uptime'),
    days,
    upcomingMaintenance: publicMaintenance(windows, ids, now),
  };
}

/** The incidents of one day of the view (those open at any moment of it), newest first. */
export function incidentsOfDay(view: StatusView, day: string, now: Date): PublicIncident[] {
  const from = dayStart(day);
  const to = from + DAY_MS;
  return [...view.openIncidents, ...view.pastIncidents]
    .filter((i) => Date.parse(i.startedAt) < to && (i.resolvedAt === null ? now.getTime() : Date.parse(i.resolvedAt)) > from)
    .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}
