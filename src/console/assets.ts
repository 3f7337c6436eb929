import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FACTORS_CSS } from './assets/factors-stylesheet.js';
import { PASSKEYS_JS } from './assets/passkeys.js';
import { CONSOLE_JS } from './assets/script.js';
import { FAVICON_SVG } from './assets/favicon.js';
import { CONSOLE_CSS } from './assets/stylesheet.js';
import { MONITOR_FORM_JS } from './assets/monitor-form-script.js';
import { MONITOR_FORM_CSS } from './assets/monitor-form-style.js';
import { SETTINGS_CSS } from './assets/settings-style.js';
import { STATES_CSS } from './assets/stylesheet-states.js';
import { PHONE_CSS } from './assets/stylesheet-phone.js';

export interface Asset {
  /** Where it is served: its name carries a hash of its content, so it can be cached for a year. */
  path: string;
  type: string;
  body: string;
}

const PREFIX = '/console/assets/';

function hashed(name: string, extension: string, type: string, body: string): Asset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `${PREFIX}${name}.${hash}.${extension}`, type, body };
}

/**
 * The stylesheet, the script and the icon, kept as modules rather than loose files so that the build
 * (which compiles only TypeScript) ships them and their hash is known at start-up.
 */
export const ASSETS = {
  css: hashed('console', 'css', 'text/css; charset=utf-8', CONSOLE_CSS + STATES_CSS + PHONE_CSS + FACTORS_CSS + MONITOR_FORM_CSS + SETTINGS_CSS),
  js: hashed('console', 'js', 'text/javascript; charset=utf-8', CONSOLE_JS),
  /** Only on the monitor form's pages. */
  monitorForm: hashed('monitor-form', 'js', 'text/javascript; charset=utf-8', MONITOR_FORM_JS),
  favicon: hashed('favicon', 'svg', 'image/svg+xml', FAVICON_SVG),
} as const;

export const ASSET_PATH = `${PREFIX}:file`;

let passkeyAssets: readonly Asset[] | null = null;

/**
 * What a page with a passkey form loads: @simplewebauthn/browser's own bundle, read once from
 * node_modules (it is a dependency, so it ships with the server) and served from here like the
 * console's script, then the script that runs the ceremonies with it.
 */
export function passkeyScripts(): readonly Asset[] {
  if (passkeyAssets === null) {
    // The package exports only its entry point; its browser bundle sits beside it.
    const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
    const bundle = readFileSync(join(dirname(entry), '..', 'dist', 'bundle', 'index.umd.min.js'), 'utf8');
    passkeyAssets = [hashed('webauthn', 'js', 'text/javascript; charset=utf-8', bundle), hashed('passkeys', 'js', 'text/javascript; charset=utf-8', PASSKEYS_JS)];
  }
  return passkeyAssets;
}

export function assetNamed(file: string): Asset | null {
  return [...Object.values(ASSETS), ...passkeyScripts()].find((asset) => asset.path === `${PREFIX}${file}`) ?? null;
}
