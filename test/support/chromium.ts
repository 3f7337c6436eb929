import { existsSync } from 'node:fs';

/** Debian's Chromium, which `.ci/run` puts on the machine: a spec only looks for it, and skips with a notice without it. */
export const CHROMIUM_PATH = process.env['VIGIL_CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Why the browser specs cannot run here, or null when Chromium is there. */
export function chromiumUnavailable(): string | null {
  if (existsSync(CHROMIUM_PATH)) return null;
  return `no browser at ${CHROMIUM_PATH}: install Debian's Chromium (apt-get install -y chromium), or set VIGIL_CHROMIUM_PATH`;
}

/** Headless, sandbox off (root), and no calls home: this machine's network is closed. */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
