import type { MonitorDocument } from '../../../projections/monitors.js';

/** Where the uptime checks run from; one local checker for now. */
export const CHECK_LOCATIONS = ['local'];

/**
 * Nothing is expected of a paused monitor. A job waiting for its first ping (`is_new`) shows the
 * first time it would be expected; its deadlines only count from its first ping.
 */
export function shownNextExpected(doc: MonitorDocument): string | null {
  return doc.paused ? null : doc.next_expected_at;
}

export function monitorBody(doc: MonitorDocument) {
  return {
    id: doc.id,
    project_id: doc.project_id,
    slug: doc.slug,
    name: doc.name,
    description: doc.description,
    tags: doc.tags,
    type: doc.type,
    schedule: doc.schedule,
    timezone: doc.timezone,
    grace_period_seconds: doc.grace_period_seconds,
    schedule_tolerance: doc.schedule_tolerance,
    failure_tolerance: doc.failure_tolerance,
    min_duration_seconds: doc.min_duration_seconds,
    max_duration_seconds: doc.max_duration_seconds,
    alert_enabled: doc.alert_enabled,
    alert_surge_threshold: doc.alert_surge_threshold,
    alerts_paused_until: doc.alerts_paused_until,
    retention_count: doc.retention_count,
    notification_group_ids: doc.notification_group_ids,
    notification_channel_ids: doc.notification_channel_ids,
    depends_on: doc.depends_on ?? [],
    escalation_policy_id: doc.escalation_policy_id ?? null,
    status: doc.status,
    is_new: doc.is_new,
    consecutive_failures: doc.consecutive_failures,
    consecutive_misses: doc.consecutive_misses,
    consecutive_alerts: doc.consecutive_alerts,
    last_success_at: doc.last_success_at,
    next_expected_at: shownNextExpected(doc),
    total_pings_received: doc.total_pings_received,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    ...(doc.uptime ? { ...doc.uptime, uptime_locations: CHECK_LOCATIONS } : {}),
    ...(doc.tcp ? { ...doc.tcp, uptime_locations: CHECK_LOCATIONS } : {}),
    ...(doc.dns ? { ...doc.dns, uptime_locations: CHECK_LOCATIONS } : {}),
  };
}
