import { MONITOR_DEFAULTS, type MonitorConfig } from '../monitors/monitor-config.js';
import type { MonitorType } from '../monitors/schedule.js';

/** Monitors a first ping may create: job monitors (an uptime monitor needs a target a ping does not give). */
export type ProvisionedType = Extract<MonitorType, 'JOB_HEARTBEAT' | 'JOB_CRON' | 'JOB_BASIC'>;
export const PROVISIONED_TYPES: readonly ProvisionedType[] = ['JOB_HEARTBEAT', 'JOB_CRON', 'JOB_BASIC'];

export interface AutoProvisioningDefaults {
  type: ProvisionedType;
  schedule: string;
  timezone: string;
  grace_period_seconds: number;
}

/** A project's setting for `?create=1` pings to unknown slugs (Healthchecks' and Cronitor's auto-create). */
export interface AutoProvisioning {
  enabled: boolean;
  max_per_hour: number;
  defaults: AutoProvisioningDefaults;
}

export type AutoProvisioningPatch = Partial<Omit<AutoProvisioning, 'defaults'>> & { defaults?: Partial<AutoProvisioningDefaults> };

/** Off until a manager turns it on. */
export const AUTO_PROVISIONING_DEFAULTS: AutoProvisioning = {
  enabled: false,
  max_per_hour: 20,
  defaults: { type: 'JOB_HEARTBEAT', schedule: '1d', timezone: 'UTC', grace_period_seconds: 3600 },
};

/** Only the fields sent change, in `defaults` too. */
export function mergeAutoProvisioning(current: AutoProvisioning, patch: AutoProvisioningPatch): AutoProvisioning {
  const { defaults, ...rest } = patch;
  return { ...current, ...rest, defaults: { ...current.defaults, ...defaults } };
}

/** The monitor a first ping creates: named after its slug, with the project's defaults. */
export function provisionedConfig(defaults: AutoProvisioningDefaults, slug: string): MonitorConfig {
  return { ...MONITOR_DEFAULTS, tags: [], notification_group_ids: [], notification_channel_ids: [], name: slug, slug, ...defaults, uptime: null };
}
