import type { CheckCompletedData, MonitorEvent, PingReceivedData } from '../../src/domain/monitors/monitor.js';
import { MONITOR_DEFAULTS, type MonitorConfig } from '../../src/domain/monitors/monitor-config.js';
import type { JsonObject } from '../../src/eventstore/event-store.js';

/**
 * Whole event data for specs that write straight into the log: every event read back is decoded
 * through its codec, so a fixture must have every field its type declares.
 */
type Ids = { monitor_id: string; project_id: string };
type Data<K extends MonitorEvent['type']> = Extract<MonitorEvent, { type: K }>['data'];

const json = (data: object): JsonObject => JSON.parse(JSON.stringify(data)) as JsonObject;

export const monitorConfig = (overrides: Partial<MonitorConfig> = {}): MonitorConfig => ({
  ...MONITOR_DEFAULTS, name: 'Backup', slug: 'backup', type: 'JOB_HEARTBEAT', schedule: '1h', uptime: null, ...overrides,
});

export const monitorCreated = (ids: Ids, at: string, config: Partial<MonitorConfig> = {}): JsonObject =>
  json({ ...ids, config: monitorConfig(config), created_at: at, next_expected_at: null } satisfies Data<'MonitorCreated'>);

export const monitorUpdated = (ids: Ids, at: string, config: Partial<MonitorConfig>, lastPingSeq: number | null): JsonObject =>
  json({ ...ids, config: monitorConfig(config), updated_at: at, last_ping_seq: lastPingSeq, next_expected_at: null } satisfies Data<'MonitorUpdated'>);

export const pingReceived = (ids: Ids, at: string, overrides: Partial<PingReceivedData> = {}): JsonObject =>
  json({
    ...ids, ping_id: 'ping', event: 'SUCCESS', run_id: null, exit_code: null, duration_ms: null, message: null, payload: null, payload_truncated: false,
    payload_bytes: null, request_ip: null, request_ua: null, duration_assertion: null, started_at: null, received_at: at, evaluated: true,
    closed_start_ping_id: null, consecutive_failures: 0, consecutive_misses: 0, total_pings_received: 1, last_success_at: null, last_checkin_at: null,
    next_expected_at: null, retention_count: 100, ...overrides,
  } satisfies PingReceivedData);

export const checkCompleted = (ids: Ids, at: string, overrides: Partial<CheckCompletedData> = {}): JsonObject =>
  json({
    ...ids, check_id: 'check', status_code: 200, response_time_ms: 10, is_up: true, error: null, ssl_expires_at: null, ssl_issuer: null, check_region: 'local',
    check_status: 'ok', cycle_id: null, attempts: 1, checked_at: at, check_number: null, consecutive_failures: 0, last_success_at: at, next_expected_at: null, retention_count: 100,
    ...overrides,
  } satisfies CheckCompletedData);
