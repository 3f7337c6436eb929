import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Debian's Chromium, installed with apt when it is missing (the machine allows Debian packages;
 * Playwright's own browser download would reach the internet, which it must not). Answers why
 * it is unavailable, or null when it is ready.
 */
export function ensureChromium(): string | null {
  if (existsSync(CHROMIUM_PATH)) return null;
  if (process.getuid?.() !== 0) return `${CHROMIUM_PATH} is missing and installing it needs root (apt-get install chromium)`;
  const install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    encoding: 'utf8',
    timeout: 8 * 60_000,
  });
  if (existsSync(CHROMIUM_PATH)) return null;
  const update = spawnSync('apt-get', ['update'], { encoding: 'utf8', timeout: 3 * 60_000 });
  const retry = update.status === 0
    ? spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, encoding: 'utf8', timeout: 8 * 60_000 })
    : update;
  if (existsSync(CHROMIUM_PATH)) return null;
  return `apt-get install chromium failed: ${(retry.stderr || install.stderr || String(retry.error ?? install.error)).trim().split('\n').slice(-3).join(' | ')}`;
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
