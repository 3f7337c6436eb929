import type { IncidentDocument } from '../../projections/incidents.js';
import type { MonitorDocument } from '../../projections/monitors.js';
import { isUptimeType } from '../domain/monitors/schedule.js';
import type { ReadModelStore } from '../readstore/read-model-store.js';
import { maintenanceOf } from './maintenance.js';

/**
 * A monitor's state as every screen tells it: the dashboard, the monitor page, its badge and the
 * status pages (docs/concepts.md, "One state, told the same everywhere"). One function decides it,
 * from the monitor's read model, what is known around it and `now`; each screen only words it.
 *
 * - `paused`: monitoring is paused.
 * - `maintenance`: a maintenance window covers it now: whatever it reports is held back.
 * - `down`: its failures or missed check-ins reached their tolerance.
 * - `new`: nothing heard yet (a job's first check-in, an uptime monitor's first check).
 * - `late`: a job whose expected check-in has passed and whose grace period is running.
 * - `degraded`: it works (its last run or check succeeded), but an incident is still open: a run
 *   that took too long or too little, a TLS certificate about to expire.
 * - `up`: none of these.
 */
export type MonitorState = 'up' | 'degraded' | 'late' | 'down' | 'maintenance' | 'paused' | 'new';

/** What a monitor's state is decided on beyond its own read model. */
export interface StateFacts {
  openIncidents: number;
  inMaintenance: boolean;
}

export const NO_FACTS: StateFacts = { openIncidents: 0, inMaintenance: false };

export function monitorState(monitor: MonitorDocument, facts: StateFacts, now: Date): MonitorState {
  if (monitor.paused) return 'paused';
  if (facts.inMaintenance) return 'maintenance';
  if (monitor.status === 'DOWN') return 'down';
  if (monitor.is_new) return 'new';
  if (!isUptimeType(monitor.type) && monitor.next_expected_at !== null && Date.parse(monitor.next_expected_at) < now.getTime()) return 'late';
  if (facts.openIncidents > 0) return 'degraded';
  return 'up';
}

/** Worst first: what a project badge or a status page's banner reports when its monitors differ. */
const SEVERITY: Record<MonitorState, number> = { down: 6, late: 5, degraded: 4, maintenance: 3, up: 2, new: 1, paused: 0 };

/** The worst of several states; null for none. */
export function worstState(states: readonly MonitorState[]): MonitorState | null {
  return states.reduce<MonitorState | null>((worst, s) => (worst === null || SEVERITY[s] > SEVERITY[worst] ? s : worst), null);
}

/**
 * The facts of each of `monitors` (of any projects), by monitor id: one query for their open
 * incidents, and one for each project's maintenance windows.
 */
export async function stateFacts(readModels: ReadModelStore, monitors: readonly MonitorDocument[], now: Date): Promise<Map<string, StateFacts>> {
  const facts = new Map<string, StateFacts>();
  if (monitors.length === 0) return facts;
  const ids = monitors.map((m) => m.id);
  const projects = [...new Set(monitors.map((m) => m.project_id))];
  const [open, windows] = await Promise.all([
    readModels.find<IncidentDocument>('incidents', { monitor_id: { $in: ids }, status: { $in: ['OPEN', 'ACKNOWLEDGED'] } }),
    Promise.all(projects.map(async (projectId) => [projectId, await maintenanceOf(readModels, projectId, now.toISOString())] as const)),
  ]);
  const counts = new Map<string, number>();
  for (const { doc } of open) counts.set(doc.monitor_id, (counts.get(doc.monitor_id) ?? 0) + 1);
  const windowsOf = new Map(windows);
  for (const m of monitors) facts.set(m.id, { openIncidents: counts.get(m.id) ?? 0, inMaintenance: windowsOf.get(m.project_id)?.(m.id) != null });
  return facts;
}

/** Each monitor's state, in the order given. */
export async function statesOf(readModels: ReadModelStore, monitors: readonly MonitorDocument[], now: Date): Promise<MonitorState[]> {
  const facts = await stateFacts(readModels, monitors, now);
  return monitors.map((m) => monitorState(m, facts.get(m.id) ?? NO_FACTS, now));
}
