import { invalid } from '../domain/errors.js';
import { HEADER_VALUE_MASK, type MonitorConfig, type UptimeConfig, maskedHeaders } from '../domain/monitors/monitor-config.js';
import type { MonitorPatch } from '../domain/monitors/monitor.js';
import type { SecretBox } from './secret-box.js';

function needKey(secrets: SecretBox | null): SecretBox {
  if (!secrets) throw new Error('uptime header values are sealed, and this process has no secret key (VIGIL_SECRET_KEY or the key file)');
  return secrets;
}

/** The stored value of the header named `name` (in any case, as HTTP names it), as sent: opened if sealed. */
function storedValue(secrets: SecretBox | null, stored: UptimeConfig | null, name: string): string | undefined {
  if (!stored) return undefined;
  const key = Object.keys(stored.uptime_headers).find((k) => k.toLowerCase() === name.toLowerCase());
  if (key === undefined) return undefined;
  const value = stored.uptime_headers[key]!;
  return stored.uptime_headers_sealed ? openValue(needKey(secrets), value) : value;
}

function openValue(secrets: SecretBox, sealed: string): string {
  const opened = secrets.open(sealed);
  if (typeof opened !== 'string') throw new Error('a sealed uptime header value is not a string');
  return opened;
}

/** The headers the checker sends: opened where sealed, as recorded where the monitor predates sealing. */
export function openHeaders(secrets: SecretBox | null, uptime: UptimeConfig): Record<string, string> {
  if (!uptime.uptime_headers_sealed) return { ...uptime.uptime_headers };
  return Object.fromEntries(Object.entries(uptime.uptime_headers).map(([name, sealed]) => [name, openValue(needKey(secrets), sealed)]));
}

/**
 * The headers to record, every value sealed. A value sent as the mask (what every read shows)
 * keeps the one stored under that name, so a client that sends back what it read loses nothing;
 * one that is the value already stored keeps its sealed text, so sending the same again records
 * no change (sealing twice never gives the same text).
 */
function sealHeaders(secrets: SecretBox | null, given: Record<string, string>, stored: UptimeConfig | null): Pick<UptimeConfig, 'uptime_headers' | 'uptime_headers_sealed'> {
  const sealed: Record<string, string> = {};
  for (const [name, value] of Object.entries(given)) {
    const current = storedValue(secrets, stored, name);
    if (value === HEADER_VALUE_MASK && current === undefined) {
      throw invalid(`uptime_headers.${name} is the mask shown in place of a stored value, but no value is stored for ${name}; send the value itself`);
    }
    const plain = value === HEADER_VALUE_MASK ? current! : value;
    const storedSealed = stored?.uptime_headers_sealed ? stored.uptime_headers[name] : undefined;
    sealed[name] = storedSealed !== undefined && plain === current ? storedSealed : needKey(secrets).seal(plain);
  }
  return { uptime_headers: sealed, uptime_headers_sealed: true };
}

/** A new monitor's settings with its header values sealed. */
export function sealedConfig(secrets: SecretBox | null, config: MonitorConfig): MonitorConfig {
  return config.uptime ? { ...config, uptime: { ...config.uptime, ...sealHeaders(secrets, config.uptime.uptime_headers, null) } } : config;
}

/**
 * A patch with its header values sealed against the monitor's settings as they stand. A monitor
 * recorded before header values were sealed has them sealed by its next update, whatever that
 * changes, so its values are never recorded as sent again.
 */
export function sealedPatch(secrets: SecretBox | null, patch: MonitorPatch, config: MonitorConfig | null): MonitorPatch {
  const stored = config?.uptime ?? null;
  const given = patch.uptime?.uptime_headers;
  const unsealed = stored !== null && !stored.uptime_headers_sealed && Object.keys(stored.uptime_headers).length > 0;
  if (given === undefined && !unsealed) return patch;
  const headers = given ?? maskedHeaders(stored!.uptime_headers);
  return { ...patch, uptime: { ...patch.uptime, ...sealHeaders(secrets, headers, stored) } };
}
