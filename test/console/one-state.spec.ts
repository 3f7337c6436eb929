import { mkdirSync } from 'node:fs';
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const SHOTS = '/tmp/shots-truth';
const MINUTE = 60_000;

/**
 * One state told the same everywhere (docs/concepts.md): the dashboard, the monitor page, the
 * badge and the status page; maintenance shown as maintenance; the timeline in words; and the
 * monitor page's small things (next expected times, the uptime check log, the favicon).
 */
describe('One state, told the same everywhere, in a real browser', function () {
  this.timeout(240_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  let sink: Target | undefined;
  let site: Target | undefined;
  const seed = {} as { key: string; project: string; badgeKey: string; report: string; billing: string; beat: string; web: string; channel: string };

  const ping = async (monitorId: string, suffix = '') => expect((await fetch(`${vigil.url}/v1/ping/${monitorId}${suffix}`)).status).to.equal(200);
  const shot = async (page: Page, name: string) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the one-state browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    sink = await startTarget(reply(204));
    site = await startTarget(reply(200, 'ok'));
    seed.key = await vigil.accountKey(await vigil.user('owner@example.com'), ALL_SCOPES);
    const key = seed.key;
    seed.project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Shop' } })).body.project.id;
    seed.channel = (await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: seed.project, name: 'Ops webhook', type: 'WEBHOOK', config: { url: `${sink.url}/hook` } } })).body.channel.id;
    const monitor = async (body: object) => (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: seed.project, ...body } })).body.monitor.id as string;
    seed.report = await monitor({
      name: 'Nightly report', slug: 'nightly-report', type: 'JOB_HEARTBEAT', schedule: '1h', grace_period_seconds: 1800,
      min_duration_seconds: 60, max_duration_seconds: 120, notification_channel_ids: [seed.channel],
    });
    seed.billing = await monitor({ name: 'Billing sync', slug: 'billing-sync', type: 'JOB_BASIC', schedule: 'x', alert_enabled: false });
    seed.beat = await monitor({ name: 'Queue heartbeat', slug: 'queue-heartbeat', type: 'JOB_HEARTBEAT', schedule: '1m', alert_enabled: false });
    seed.web = await monitor({ name: 'Storefront', slug: 'storefront', type: 'UPTIME_HTTP', schedule: '5m', uptime_url: `${site.url}/`, alert_enabled: false });
    seed.badgeKey = (await vigil.request('GET', `/v1/projects/${seed.project}/badge-key`, { key })).body.badge_key.key;
    const monitors = [seed.report, seed.billing].map((monitor_id) => ({ monitor_id }));
    expect((await vigil.request('POST', `/v1/projects/${seed.project}/status-pages`, { key, body: { slug: 'shop', title: 'Shop status', published: true, monitors } })).status).to.equal(201);

    // The report ran too fast (3 s against a 1 min minimum), then a run hung past its 2 min
    // maximum: "finished sooner" is resolved as "ran longer" opens, never both ongoing. The hung
    // run then finished, too slow still, 240 ms before the page was delivered.
    await ping(seed.report, '?duration_ms=3000');
    vigil.clock.advance(10 * MINUTE);
    await ping(seed.report, '/start?run_id=r2');
    vigil.clock.advance(3 * MINUTE);
    await vigil.tick();
    await ping(seed.report, '?run_id=r2');
    vigil.clock.advance(240);
    await vigil.notify();
    // A heartbeat every minute, pinged at an instant off the minute.
    vigil.clock.advance(17_300);
    await ping(seed.beat);
    await ping(seed.billing);
    await vigil.check();
    await vigil.settle();
    browser = await ConsoleBrowser.launch(vigil.url, 'one-state');
  });

  after(async () => {
    await browser?.close();
    await sink?.close();
    await site?.close();
    await vigil?.stop();
  });

  let visits = 0;
  const context = (width = 1280): Promise<BrowserContext> => browser!.context({ width });

  /** The state of the report as each screen tells it. */
  async function toldEverywhere(page: Page, monitorId: string, slug: string, publicName: string): Promise<{ dashboard: string; monitor: string; badge: string; svg: string; status: string }> {
    await page.goto(`${vigil.url}/projects/${seed.project}`);
    const dashboard = (await page.locator(`tr[data-monitor-id="${monitorId}"] .status`).innerText()).trim();
    await page.goto(`${vigil.url}/monitors/${monitorId}`);
    const monitor = (await page.locator('h1 .status').innerText()).trim();
    const badge = ((await (await fetch(`${vigil.url}/badge/${seed.badgeKey}/${slug}.json`)).json()) as { message: string }).message;
    const svg = await (await fetch(`${vigil.url}/badge/${seed.badgeKey}/${slug}.svg`)).text();
    // Its own URL each time: the browser keeps a status page for a minute (Cache-Control).
    await page.goto(`${vigil.url}/status/shop?seen=${(visits += 1)}`);
    const status = (await page.locator('.status-monitor', { has: page.getByRole('heading', { name: publicName }) }).locator('.state').innerText()).trim();
    return { dashboard, monitor, badge, svg, status };
  }

  it('tells a monitor with an open incident but a recent success as DEGRADED on the dashboard, its page, its badge and the status page; then LATE alike', async () => {
    const ctx = await context();
    const page = await browser!.signIn(ctx, seed.key, `/projects/${seed.project}`);
    const open = (await vigil.request('GET', `/v1/monitors/${seed.report}/incidents`, { key: seed.key })).body.data.filter((i: { status: string }) => i.status !== 'RESOLVED');
    expect(open.map((i: { event: string }) => i.event)).to.deep.equal(['DURATION_HIGH']);

    const degraded = await toldEverywhere(page, seed.report, 'nightly-report', 'Nightly report');
    expect(degraded).to.deep.include({ dashboard: 'DEGRADED', monitor: 'DEGRADED', badge: 'degraded', status: 'Degraded' });
    expect(degraded.svg).to.contain('degraded');
    await page.goto(`${vigil.url}/projects/${seed.project}`);
    await shot(page, 'dashboard-degraded-1280');
    await page.goto(`${vigil.url}/monitors/${seed.report}`);
    expect(await page.locator('.state-why').innerText()).to.contain('an incident is still open');
    await browser!.accessible(page);
    await page.goto(`${vigil.url}/status/shop`);
    expect(await page.locator('#open-heading + .status-incidents').innerText()).to.contain('ran longer than expected').and.not.contain('finished sooner');
    await shot(page, 'status-degraded-1280');

    // Past its expected check-in (an hour after the last), inside its 30 min grace period: late, everywhere.
    vigil.clock.advance(65 * MINUTE);
    const late = await toldEverywhere(page, seed.report, 'nightly-report', 'Nightly report');
    expect(late).to.deep.include({ dashboard: 'LATE', monitor: 'LATE', badge: 'late', status: 'Late' });
    await page.goto(`${vigil.url}/monitors/${seed.report}`);
    await shot(page, 'monitor-late-1280');
    await ctx.close();
  });

  it('shows a monitor inside an active maintenance window as under maintenance, not as an outage', async () => {
    await ping(seed.billing, '/fail');
    await vigil.settle();
    const ctx = await context(390);
    const page = await ctx.newPage();
    await page.goto(`${vigil.url}/status/shop`);
    expect(await page.locator('.status-monitor', { hasText: 'Billing sync' }).locator('.state').innerText()).to.equal('Down');

    const now = vigil.clock.now().getTime();
    const window = await vigil.request('POST', `/v1/projects/${seed.project}/maintenance-windows`, {
      key: seed.key, body: { name: 'Billing migration', starts_at: new Date(now - MINUTE).toISOString(), ends_at: new Date(now + 60 * MINUTE).toISOString(), monitor_ids: [seed.billing] },
    });
    expect(window.status).to.equal(201);
    await vigil.settle();
    await page.goto(`${vigil.url}/status/shop?after=maintenance`);
    expect(await page.locator('.status-monitor', { hasText: 'Billing sync' }).locator('.state').innerText()).to.equal('Under maintenance');
    expect(await page.locator('.status-banner').innerText()).to.not.match(/outage/i);
    await browser!.accessible(page);
    await shot(page, 'status-maintenance-390');
    expect(((await (await fetch(`${vigil.url}/badge/${seed.badgeKey}/billing-sync.json`)).json()) as { message: string }).message).to.equal('maintenance');
    const signed = await browser!.signIn(ctx, seed.key, `/monitors/${seed.billing}`);
    expect(await signed.locator('h1 .status').innerText()).to.equal('MAINTENANCE');
    await ctx.close();
  });

  it('titles an incident with its monitor and tells each page as one row in words, the recorded events behind a disclosure', async () => {
    const [incident] = (await vigil.request('GET', `/v1/monitors/${seed.report}/incidents`, { key: seed.key })).body.data.filter((i: { event: string }) => i.event === 'DURATION_HIGH');
    const ctx = await context();
    const page = await browser!.signIn(ctx, seed.key, `/incidents/${incident.id}`);
    expect(await page.title()).to.equal('Nightly report: ran longer than expected · Vigil');
    expect(await page.locator('h1').innerText()).to.contain('Nightly report: ran longer than expected');
    const timeline = page.locator('ol.timeline > li');
    const rows = await timeline.allInnerTexts();
    const pageRows = rows.filter((r) => r.includes('Paged'));
    expect(pageRows).to.have.length(1);
    expect(pageRows[0]).to.contain('Paged Ops webhook — delivered in 240 ms');
    expect(rows.join('\n')).to.not.match(/^PageScheduled|^PageFannedOut|^PageDelivered/m);
    const disclosure = page.locator('ol.timeline > li', { hasText: 'Paged Ops webhook' }).locator('details');
    expect(await disclosure.locator('ol').isVisible()).to.equal(false);
    await disclosure.locator('summary').click();
    const internal = await disclosure.locator('ol').innerText();
    for (const type of ['PageScheduled', 'PageFannedOut', 'PageDelivered']) expect(internal).to.contain(type);
    await browser!.accessible(page);
    await shot(page, 'incident-timeline-1280');

    // The "finished sooner" incident was resolved as the run hung, in words.
    const [fast] = (await vigil.request('GET', `/v1/monitors/${seed.report}/incidents`, { key: seed.key })).body.data.filter((i: { event: string }) => i.event === 'DURATION_LOW');
    expect(fast.status).to.equal('RESOLVED');
    await page.goto(`${vigil.url}/incidents/${fast.id}`);
    expect(await page.locator('ol.timeline').innerText()).to.contain('Resolved by Vigil: a run then took too long instead');
    await ctx.close();
  });

  it('lists a 1-minute heartbeat\'s next expected times distinct, to the second', async () => {
    const ctx = await context(390);
    const page = await browser!.signIn(ctx, seed.key, `/monitors/${seed.beat}`);
    const times = await page.locator('ol.upcoming li').allInnerTexts();
    expect(times).to.have.length(5);
    expect(new Set(times).size).to.equal(5);
    for (const t of times) expect(t).to.match(/\d\d:\d\d:\d\d/);
    await browser!.accessible(page);
    await shot(page, 'heartbeat-next-expected-390');
    await ctx.close();
  });

  it('logs an uptime monitor\'s recent checks on its page: time, result, latency, error', async () => {
    vigil.clock.advance(5 * MINUTE);
    await site!.close();
    site = await startTarget(reply(503, 'down'));
    await vigil.request('PATCH', `/v1/monitors/${seed.web}`, { key: seed.key, body: { uptime_url: `${site.url}/` } });
    await vigil.check();
    const ctx = await context();
    const page = await browser!.signIn(ctx, seed.key, `/monitors/${seed.web}`);
    const log = page.locator('section', { has: page.locator('#checks') });
    const rows = await log.locator('tbody tr').allInnerTexts();
    expect(rows).to.have.length(2);
    expect(rows[0]).to.match(/Down/).and.match(/HTTP 503/).and.match(/\d+ ms/);
    expect(rows[1]).to.match(/Up/).and.match(/HTTP 200/);
    await browser!.accessible(page);
    await shot(page, 'uptime-check-log-1280');
    await ctx.close();
  });

  it('has a favicon: linked from every layout and answered at /favicon.ico', async () => {
    const ico = await fetch(`${vigil.url}/favicon.ico`);
    expect(ico.status).to.equal(200);
    expect(ico.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(await ico.text()).to.match(/^<svg /);
    const ctx = await context();
    const page = await ctx.newPage();
    for (const path of ['/sign-in', '/status/shop', '/no/such/page']) {
      await page.goto(`${vigil.url}${path}`);
      const href = await page.locator('link[rel="icon"]').getAttribute('href');
      expect(href, path).to.match(/^\/console\/assets\/favicon\.[0-9a-f]{12}\.svg$/);
      const icon = await fetch(`${vigil.url}${href!}`);
      expect(icon.status, path).to.equal(200);
    }
    await ctx.close();
  });
});
