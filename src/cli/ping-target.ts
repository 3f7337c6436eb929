import { CliUsageError } from './usage.js';

/** Where pings go: the monitor by id, or by project ping key and slug. */
export type PingTarget = { baseUrl: string; monitorId: string } | { baseUrl: string; pingKey: string; slug: string };

export const DEFAULT_VIGIL_URL = 'http://127.0.0.1:8080';

export interface TargetFlags {
  monitorId: string | undefined;
  slug: string | undefined;
  pingKey: string | undefined;
  url: string | undefined;
}

/** Flags first, then VIGIL_URL and VIGIL_PING_KEY, so a crontab can set them once for every line. */
export function resolvePingTarget(flags: TargetFlags, env: NodeJS.ProcessEnv): PingTarget {
  const baseUrl = flags.url ?? nonEmpty(env['VIGIL_URL']) ?? DEFAULT_VIGIL_URL;
  if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl)) {
    throw new CliUsageError(`the Vigil URL must be an http:// or https:// URL, not ${baseUrl}`);
  }
  if (flags.monitorId !== undefined && flags.slug !== undefined) throw new CliUsageError('give a monitor id or --slug, not both');
  if (flags.slug !== undefined) {
    const pingKey = flags.pingKey ?? nonEmpty(env['VIGIL_PING_KEY']);
    if (pingKey === undefined || pingKey === '') throw new CliUsageError('--slug needs the project ping key: --ping-key or VIGIL_PING_KEY');
    if (flags.slug === '') throw new CliUsageError('--slug must not be empty');
    return { baseUrl, pingKey, slug: flags.slug };
  }
  if (flags.pingKey !== undefined) throw new CliUsageError('--ping-key goes with --slug; a monitor id needs no key');
  if (flags.monitorId === undefined || flags.monitorId === '') throw new CliUsageError('which monitor? give its id or --slug');
  return { baseUrl, monitorId: flags.monitorId };
}

export function pingPath(target: PingTarget, suffix: string): string {
  return 'monitorId' in target
    ? `/v1/ping/${encodeURIComponent(target.monitorId)}/${suffix}`
    : `/v1/s-ping/${encodeURIComponent(target.pingKey)}/${encodeURIComponent(target.slug)}/${suffix}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}
