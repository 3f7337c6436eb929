import { createHash } from 'node:crypto';
import { CONSOLE_JS } from './assets/script.js';
import { FAVICON_SVG } from './assets/favicon.js';
import { CONSOLE_CSS } from './assets/stylesheet.js';
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
  css: hashed('console', 'css', 'text/css; charset=utf-8', CONSOLE_CSS + STATES_CSS + PHONE_CSS),
  js: hashed('console', 'js', 'text/javascript; charset=utf-8', CONSOLE_JS),
  favicon: hashed('favicon', 'svg', 'image/svg+xml', FAVICON_SVG),
} as const;

export const ASSET_PATH = `${PREFIX}:file`;

export function assetNamed(file: string): Asset | null {
  return Object.values(ASSETS).find((asset) => asset.path === `${PREFIX}${file}`) ?? null;
}
