import type { PageReason } from '../notifications/page.js';
import type { MonitorConfig } from './monitor-config.js';
import type { MonitorEvent } from './monitor-events.js';
import { type MonitorState, evolveMonitor } from './monitor-state.js';
import { addSeconds } from './schedule.js';
import { causedUpstream } from './dependencies.js';

/** How long paging pauses once alert_surge_threshold pages went out in a row. */
export const SURGE_PAUSE_SECONDS = 3600;

/**
 * Who hears about the incident events just decided. With alert_enabled, an opened incident is
 * paged, and paged again every `repageAfterSeconds` while it stays OPEN (acknowledging stops
 * that); its acknowledgement and resolution are told to the same channels. Each problem page
 * counts toward consecutive_alerts; at alert_surge_threshold, problem pages pause for an hour
 * (incidents are still recorded). Recovery (the monitor going UP) resets the count. An incident
 * caused upstream (a dependency DOWN) is paged to nobody, so neither are its acknowledgement and
 * resolution, nor is it paged again. A monitor with an escalation policy is not repaged: the
 * policy's steps and repeats (src/domain/escalation) replace that.
 */
export function withPages(
  state: MonitorState,
  config: MonitorConfig,
  decided: readonly MonitorEvent[],
  options: { now: string; repageAfterSeconds: number; repageDue: boolean },
): MonitorEvent[] {
  if (!config.alert_enabled) return [...decided];
  const { now } = options;
  const ids = { monitor_id: state.monitorId, project_id: state.projectId };
  const out: MonitorEvent[] = [];
  let current = state;
  const emit = (event: MonitorEvent) => {
    out.push(event);
    current = evolveMonitor(current, event);
  };
  const page = (incidentId: string, reason: PageReason) => {
    const problem = reason === 'opened' || reason === 'repage';
    if (problem && current.alertsPausedUntil !== null && Date.parse(current.alertsPausedUntil) > Date.parse(now)) return;
    emit({
      type: 'PageScheduled',
      data: { ...ids, page_id: `${incidentId}.${reason}.${now}`, incident_id: incidentId, reason, at: now, repage_at: problem && !config.escalation_policy_id ? addSeconds(now, options.repageAfterSeconds) : null },
    });
    const alerts = current.consecutiveAlerts;
    if (problem && alerts >= config.alert_surge_threshold) {
      emit({ type: 'AlertsPaused', data: { ...ids, until: addSeconds(now, SURGE_PAUSE_SECONDS), consecutive_alerts: alerts, at: now } });
    }
  };
  for (const event of decided) {
    emit(event);
    if (event.type === 'IncidentOpened' && !causedUpstream(decided, event.data.incident_id)) page(event.data.incident_id, 'opened');
    if ((event.type === 'IncidentAcknowledged' || event.type === 'IncidentResolved') && current.incidents.get(event.data.incident_id)?.paged) {
      page(event.data.incident_id, event.type === 'IncidentAcknowledged' ? 'acknowledged' : 'resolved');
    }
  }
  if (options.repageDue) {
    for (const [incidentId, incident] of current.incidents) {
      if (incident.status === 'OPEN' && incident.repageAt !== null && Date.parse(incident.repageAt) <= Date.parse(now)) page(incidentId, 'repage');
    }
  }
  return out;
}
