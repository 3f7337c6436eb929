import { mkdirSync } from 'node:fs';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const SHOTS = '/tmp/shots-truth/sweep';
const WIDTHS = [390, 1280] as const;

/** What the seed made, for the paths below to name. */
interface Seed {
  key: string;
  project: string;
  cron: string;
  heartbeat: string;
  basic: string;
  http: string;
  tcp: string;
  dns: string;
  incident: string;
  badgeKey: string;
  today: string;
  asOf: string;
  apiKeyId: string;
}

/**
 * Every page a person opens, by name: a path, and whether it needs the session. A feature's new
 * page is one more line here. `axe: false` for what is no HTML page (a badge is an SVG image).
 */
interface SweptPage {
  name: string;
  path: (s: Seed) => string;
  signedIn: boolean;
  axe?: boolean;
}

export const SWEPT_PAGES: readonly SweptPage[] = [
  { name: 'sign-in', path: () => '/sign-in', signedIn: false },
  { name: 'projects', path: () => '/', signedIn: true },
  { name: 'dashboard', path: (s) => `/projects/${s.project}`, signedIn: true },
  { name: 'monitor-cron', path: (s) => `/monitors/${s.cron}`, signedIn: true },
  { name: 'monitor-heartbeat', path: (s) => `/monitors/${s.heartbeat}`, signedIn: true },
  { name: 'monitor-basic', path: (s) => `/monitors/${s.basic}`, signedIn: true },
  { name: 'monitor-http', path: (s) => `/monitors/${s.http}`, signedIn: true },
  { name: 'monitor-tcp', path: (s) => `/monitors/${s.tcp}`, signedIn: true },
  { name: 'monitor-dns', path: (s) => `/monitors/${s.dns}`, signedIn: true },
  { name: 'incident', path: (s) => `/incidents/${s.incident}`, signedIn: true },
  { name: 'audit', path: (s) => `/projects/${s.project}/audit`, signedIn: true },
  { name: 'maintenance', path: (s) => `/projects/${s.project}/maintenance`, signedIn: true },
  { name: 'sharing', path: (s) => `/projects/${s.project}/sharing`, signedIn: true },
  { name: 'settings', path: (s) => `/projects/${s.project}/settings`, signedIn: true },
  { name: 'settings-channels', path: (s) => `/projects/${s.project}/settings/channels`, signedIn: true },
  { name: 'settings-channels-new', path: (s) => `/projects/${s.project}/settings/channels/new`, signedIn: true },
  { name: 'settings-keys', path: (s) => `/projects/${s.project}/settings/keys`, signedIn: true },
  { name: 'settings-key-revoke', path: (s) => `/projects/${s.project}/settings/keys/${s.apiKeyId}/revoke`, signedIn: true },
  { name: 'settings-members', path: (s) => `/projects/${s.project}/settings/members`, signedIn: true },
  { name: 'account', path: () => '/account', signedIn: true },
  { name: 'account-keys', path: () => '/account/api-keys', signedIn: true },
  { name: 'account-key-revoke', path: (s) => `/account/api-keys/${s.apiKeyId}/revoke`, signedIn: true },
  { name: 'past-dashboard', path: (s) => `/projects/${s.project}?as_of=${encodeURIComponent(s.asOf)}`, signedIn: true },
  { name: 'past-incident', path: (s) => `/incidents/${s.incident}?as_of=${encodeURIComponent(s.asOf)}`, signedIn: true },
  { name: 'error-404', path: () => '/no/such/page', signedIn: false },
  { name: 'error-404-signed-in', path: () => '/monitors/00000000-0000-4000-8000-000000000000', signedIn: true },
  { name: 'status-page', path: () => '/status/sweep', signedIn: false },
  { name: 'status-day', path: (s) => `/status/sweep/day/${s.today}`, signedIn: false },
  { name: 'status-404', path: () => '/status/no-such-page', signedIn: false },
  { name: 'badge-project', path: (s) => `/badge/${s.badgeKey}.svg`, signedIn: false, axe: false },
  { name: 'badge-monitor', path: (s) => `/badge/${s.badgeKey}/nightly-backup-with-a-rather-long-name.svg`, signedIn: false, axe: false },
];

describe('Every page at 390 px and 1280 px, in a real browser', function () {
  this.timeout(600_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  let site: Target | undefined;
  const seed = {} as Seed;

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the 390/1280 sweep: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    site = await startTarget(reply(200, 'ok'));
    const owner = await vigil.user('owner.with.a.long.address@example-company.com');
    seed.key = await vigil.accountKey(owner, ALL_SCOPES);
    const key = seed.key;
    seed.project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Shop and back office of Example Company', description: 'Everything the shop runs on' } })).body.project.id;
    await vigil.request('POST', '/v1/projects', { key, body: { name: 'Internal tools' } });
    const channel = (await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: seed.project, name: 'Operations webhook', type: 'WEBHOOK', config: { url: `${site.url}/hook` } } })).body.channel.id;
    const monitor = async (body: object) => {
      const created = await vigil.request('POST', '/v1/monitors', { key, body: { project_id: seed.project, ...body } });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      return created.body.monitor.id as string;
    };
    seed.cron = await monitor({ name: 'Nightly backup with a rather long name', slug: 'nightly-backup-with-a-rather-long-name', type: 'JOB_CRON', schedule: '0 3 * * *', timezone: 'Europe/Paris', max_duration_seconds: 600, tags: ['backup', 'nightly'], notification_channel_ids: [channel] });
    seed.heartbeat = await monitor({ name: 'Queue heartbeat', type: 'JOB_HEARTBEAT', schedule: '30s' });
    seed.basic = await monitor({ name: 'Billing sync', type: 'JOB_BASIC', schedule: 'x', notification_channel_ids: [channel] });
    seed.http = await monitor({ name: 'Storefront', type: 'UPTIME_HTTP', schedule: '5m', uptime_url: `${site.url}/a/rather/long/path/that/goes/on/and/on?with=query&and=more` });
    seed.tcp = await monitor({ name: 'Database port', type: 'UPTIME_TCP', schedule: '5m', tcp_host: '127.0.0.1', tcp_port: Number(new URL(site.url).port) });
    seed.dns = await monitor({ name: 'Mail record', type: 'UPTIME_DNS', schedule: '1h', dns_hostname: 'example.com', dns_record_type: 'MX' });
    await fetch(`${vigil.url}/v1/ping/${seed.cron}/start?run_id=r1`);
    vigil.clock.advance(90_000);
    await fetch(`${vigil.url}/v1/ping/${seed.cron}?run_id=r1&msg=done`);
    await fetch(`${vigil.url}/v1/ping/${seed.heartbeat}`);
    await fetch(`${vigil.url}/v1/ping/${seed.basic}/1?message=${encodeURIComponent('disk full on /var/lib/a-very-long-volume-name-without-spaces-at-all-to-wrap')}`);
    await vigil.check();
    await vigil.notify();
    vigil.clock.advance(60_000);
    seed.asOf = vigil.clock.now().toISOString();
    seed.today = seed.asOf.slice(0, 10);
    vigil.clock.advance(60_000);
    seed.incident = (await vigil.request('GET', `/v1/monitors/${seed.basic}/incidents`, { key })).body.data[0].id;
    await vigil.request('POST', `/v1/incidents/${seed.incident}/notes`, { key, body: { text: 'Looking into it: the volume is full.', visibility: 'public' } });
    seed.badgeKey = (await vigil.request('GET', `/v1/projects/${seed.project}/badge-key`, { key })).body.badge_key.key;
    await vigil.request('POST', `/v1/projects/${seed.project}/status-pages`, {
      key, body: { slug: 'sweep', title: 'Example Company status', published: true, monitors: [seed.cron, seed.basic, seed.http].map((monitor_id) => ({ monitor_id })) },
    });
    const now = vigil.clock.now().getTime();
    await vigil.request('POST', `/v1/projects/${seed.project}/maintenance-windows`, {
      key, body: { name: 'Database upgrade', starts_at: new Date(now + 3_600_000).toISOString(), ends_at: new Date(now + 7_200_000).toISOString() },
    });
    const keys = await vigil.request('POST', '/v1/api-keys', { key, body: { name: 'Deploy script for the shop', scopes: ['read', 'manage_monitors'], expires_in_days: 7 } });
    expect(keys.status).to.equal(201);
    seed.apiKeyId = keys.body.api_key.id;
    await vigil.settle();
    browser = await ConsoleBrowser.launch(vigil.url, 'sweep');
    mkdirSync(SHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    await vigil?.stop();
  });

  /** How far the page scrolls sideways: 0 when nothing is wider than the window. */
  const sideways = (page: Page) =>
    page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { scrollingElement: { scrollWidth: number } | null; documentElement: { scrollWidth: number } } }).document;
      const width = (globalThis as unknown as { innerWidth: number }).innerWidth;
      return (doc.scrollingElement ?? doc.documentElement).scrollWidth - width;
    });

  /**
   * The elements that reach past the window's right edge, outermost first: where to look when a
   * page scrolls sideways. A string, so the test runner's transform adds nothing to what runs in the page.
   */
  const culprits = (page: Page): Promise<string[]> =>
    page.evaluate(`(() => {
      const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
      const wide = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 1);
      return wide.filter((e) => !wide.includes(e.parentElement)).slice(0, 5).map((e) => name(e.parentElement) + ' > ' + name(e));
    })()`);

  for (const width of WIDTHS) {
    it(`shows every page at ${width} px without sideways scrolling and with no serious or critical axe finding`, async () => {
      const context = await browser!.context({ width });
      const signedIn = await browser!.signIn(context, seed.key, '/');
      const anonymousContext = await browser!.context({ width });
      const anonymous = await anonymousContext.newPage();
      const problems: string[] = [];
      for (const swept of SWEPT_PAGES) {
        const page = swept.signedIn ? signedIn : anonymous;
        const path = swept.path(seed);
        await page.goto(`${vigil.url}${path}`);
        // A badge is an SVG image, not a page: Chromium takes no full-page screenshot of one.
        if (swept.axe !== false) await page.screenshot({ path: `${SHOTS}/${swept.name}-${width}.png`, fullPage: true });
        const over = await sideways(page);
        // On a wide screen no table needs its own scroll bar: nothing in a row (a Revoke button) is cut off.
        const cut = width >= 1280 ? await page.evaluate(`[...document.querySelectorAll('.table-wrap')].filter((w) => w.scrollWidth > w.clientWidth + 1).length`) : 0;
        if (cut !== 0) problems.push(`${swept.name} (${path}): ${String(cut)} table(s) wider than their frame at ${width} px`);
        if (over > 0) problems.push(`${swept.name} (${path}) scrolls ${over} px sideways: ${(await culprits(page)).join(', ')}`);
        if (swept.axe !== false) {
          try {
            await browser!.accessible(page);
          } catch (error) {
            problems.push(`${swept.name}: ${JSON.stringify((error as { actual?: unknown }).actual ?? (error as Error).message)}`);
          }
        }
      }
      expect(problems).to.deep.equal([]);
      expect(browser!.elsewhere()).to.deep.equal([]);
      await context.close();
      await anonymousContext.close();
    });
  }
});
