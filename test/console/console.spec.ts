import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { eventually } from '../support/eventually.js';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { type Target, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const XSS = '<img src=x onerror=alert(1)>';

describe('The web console in a real browser', function () {
  this.timeout(120_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  let target: Target | undefined;
  let failing = false;
  const seed = {} as {
    ownerKey: string;
    readerKey: string;
    jobs: string;
    websites: string;
    backup: string;
    weekly: string;
    live: string;
    site: string;
    incident: string;
  };

  const ping = async (monitorId: string, suffix = '', init: RequestInit = {}) => {
    const response = await fetch(`${vigil.url}/v1/ping/${monitorId}${suffix}`, init);
    expect(response.status, `ping ${suffix}`).to.be.lessThan(300);
  };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the web console browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    target = await startTarget((_request, response) => {
      response.statusCode = failing ? 503 : 200;
      response.end(failing ? 'down for maintenance' : 'ok');
    });

    const owner = await vigil.user('owner@example.com');
    const reader = await vigil.user('reader@example.com');
    seed.ownerKey = await vigil.accountKey(owner, ALL_SCOPES);
    seed.readerKey = await vigil.accountKey(reader, ALL_SCOPES);
    const key = seed.ownerKey;
    const create = async (path: string, body: object) => {
      const response = await vigil.request('POST', path, { key, body });
      expect(response.status, `${path}: ${response.text}`).to.equal(201);
      return response.body;
    };
    seed.jobs = (await create('/v1/projects', { name: 'Nightly jobs', description: 'Batch work on the database hosts' })).project.id;
    seed.websites = (await create('/v1/projects', { name: 'Websites' })).project.id;
    expect((await vigil.request('POST', `/v1/projects/${seed.jobs}/members`, { key, body: { user_id: reader, role: 'READONLY' } })).status).to.equal(201);

    const monitor = async (body: object) => (await create('/v1/monitors', { project_id: seed.jobs, ...body })).monitor.id as string;
    seed.backup = await monitor({
      name: 'Database backup', type: 'JOB_CRON', schedule: '0 3 * * *', timezone: 'Europe/Paris', grace_period_seconds: 300, min_duration_seconds: 60, max_duration_seconds: 900,
    });
    const invoices = await monitor({ name: 'Invoice export <script>alert(2)</script>', type: 'JOB_HEARTBEAT', schedule: '1h', grace_period_seconds: 600 });
    seed.weekly = await monitor({ name: 'Weekly report', type: 'JOB_CRON', schedule: '0 8 * * 1', timezone: 'America/New_York' });
    seed.live = await monitor({ name: 'Queue worker', type: 'JOB_HEARTBEAT', schedule: '10m', grace_period_seconds: 120 });
    const paused = await monitor({ name: 'Legacy sync', type: 'JOB_HEARTBEAT', schedule: '1d' });
    expect((await vigil.request('POST', `/v1/monitors/${paused}/pause`, { key })).status).to.equal(200);

    // A few measured runs, then a failing one whose output is hostile markup.
    for (const ms of [240_000, 310_000, 280_000, 450_000, 200_000, 330_000]) {
      await ping(seed.backup, `?duration_ms=${ms}`);
      await ping(invoices);
      vigil.clock.advance(3_600_000);
    }
    await ping(seed.backup, `/fail?duration_ms=95000&exit_code=3`, { method: 'POST', body: XSS });
    await vigil.settle();
    const incidents = await vigil.request('GET', `/v1/monitors/${seed.backup}/incidents`, { key });
    seed.incident = incidents.body.data[0].id;

    seed.site = (await create('/v1/monitors', { project_id: seed.websites, name: 'Shop front page', type: 'UPTIME_HTTP', schedule: '1m', uptime_url: `${target.url}/` })).monitor.id;
    for (let i = 0; i < 12; i += 1) {
      failing = i === 7 || i === 8;
      await vigil.check();
      vigil.clock.advance(60_000);
    }
    failing = false;
    await vigil.check();
    // Pinged last, so that it is on time (UP, not LATE) when the dashboard opens.
    await ping(seed.live);
    await vigil.settle();

    browser = await ConsoleBrowser.launch(vigil.url, 'console');
  });

  after(async () => {
    await browser?.close();
    await target?.close();
    await vigil?.stop();
  });

  const newContext = (options: { javaScriptEnabled?: boolean; width?: number } = {}): Promise<BrowserContext> => browser!.context(options);
  const signIn = (context: BrowserContext, key: string, start?: string): Promise<Page> => browser!.signIn(context, key, start);
  const shoot = (page: Page, name: string, fullPage = true) => browser!.shoot(page, name, fullPage);
  const accessible = (page: Page) => browser!.accessible(page);

  it('sends a browser without a session to a sign-in form with a labelled API key field', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const response = await page.goto(`${vigil.url}/incidents/${seed.incident}`);
    expect(new URL(page.url()).pathname).to.equal('/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).to.equal(`/incidents/${seed.incident}`);
    expect(response!.headers()['content-security-policy']).to.equal(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    await page.getByLabel('API key').waitFor();
    expect(await page.locator('label[for="api-key"]').innerText()).to.equal('API key');
    await shoot(page, 'sign-in');
    await accessible(page);

    await page.getByLabel('API key').fill('vgl_live_not-a-real-key');
    await page.getByRole('button', { name: 'Sign in with the key' }).click();
    await page.locator('.error-summary').waitFor();
    expect(await page.locator('.error-summary').innerText()).to.contain('not an API key');
    await shoot(page, 'sign-in-error');
    await context.close();
  });

  it('signs in with an API key, lists the projects the key can see, and sets a strict session cookie', async () => {
    const context = await newContext();
    const page = await signIn(context, seed.ownerKey);
    expect(new URL(page.url()).pathname).to.equal('/');
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'vigil_session');
    expect(session?.httpOnly).to.equal(true);
    expect(session?.sameSite).to.equal('Strict');
    expect(session?.path).to.equal('/');
    expect(session?.value.length).to.be.at.least(43);
    expect(await page.getByRole('link', { name: 'Nightly jobs' }).count()).to.equal(1);
    expect(await page.getByRole('link', { name: 'Websites' }).count()).to.equal(1);
    await shoot(page, 'projects');
    await accessible(page);
    await context.close();
  });

  it('goes back to the deep link it was asked for once signed in', async () => {
    const context = await newContext();
    const page = await signIn(context, seed.ownerKey, `/monitors/${seed.weekly}`);
    expect(new URL(page.url()).pathname).to.equal(`/monitors/${seed.weekly}`);
    await context.close();
  });

  it('shows the project dashboard: a DOWN monitor with its open incident, a waiting one, a paused one, and hostile names as text', async () => {
    const context = await newContext();
    const page = await signIn(context, seed.ownerKey, `/projects/${seed.jobs}`);
    const backup = page.locator(`tr[data-monitor-id="${seed.backup}"]`);
    expect(await backup.locator('.status').innerText()).to.equal('DOWN');
    expect(await backup.locator('.count-badge').innerText()).to.equal('1');
    expect(await backup.locator('svg.sparkline').getAttribute('aria-label')).to.equal('Last 7 runs: 6 OK, 1 failed');
    expect(await backup.locator('time').first().getAttribute('datetime')).to.match(/^\d{4}-\d\d-\d\dT/);
    expect(await page.locator(`tr[data-monitor-id="${seed.weekly}"] .status`).innerText()).to.equal('Waiting for first ping');
    expect(await page.locator('tr', { hasText: 'Legacy sync' }).locator('.status').innerText()).to.equal('PAUSED');
    expect(await page.locator('tr', { hasText: 'Invoice export' }).locator('a.monitor-name').innerText()).to.equal('Invoice export <script>alert(2)</script>');
    await shoot(page, 'dashboard');
    await accessible(page);

    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'dashboard-narrow');
    await context.close();
  });

  it('filters the dashboard by status and searches by name with a plain GET form, without JavaScript', async () => {
    const context = await newContext({ javaScriptEnabled: false });
    const page = await signIn(context, seed.ownerKey, `/projects/${seed.jobs}`);
    await page.getByLabel('Status', { exact: true }).selectOption('DOWN');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=DOWN/);
    expect(await page.locator('tbody tr').count()).to.equal(1);
    expect(await page.locator('tbody tr a.monitor-name').innerText()).to.equal('Database backup');

    await page.goto(`${vigil.url}/projects/${seed.jobs}?q=report`);
    expect(await page.locator('tbody tr a.monitor-name').allInnerTexts()).to.deep.equal(['Weekly report']);
    await context.close();
  });

  it('shows the monitor: its schedule in words, the next five times in its zone, copyable ping URLs, a crontab line, and a payload as text', async () => {
    const context = await newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: vigil.url });
    const page = await signIn(context, seed.ownerKey, `/monitors/${seed.backup}`);
    const text = await page.locator('main').innerText();
    expect(text).to.contain('Cron 0 3 * * * in Europe/Paris, 5 min grace');
    expect(await page.locator('ol.upcoming li').count()).to.equal(5);
    expect(await page.locator('ol.upcoming li').first().innerText()).to.match(/03:00 CET$/);
    expect(await page.locator('#url-success').innerText()).to.equal(`${vigil.url}/v1/ping/${seed.backup}`);
    expect(await page.locator('#crontab').innerText()).to.equal(`CRON_TZ=Europe/Paris\n0 3 * * * vigil exec --monitor ${seed.backup} --url ${vigil.url} -- /path/to/your-job`);
    expect(await page.locator('pre.payload').first().innerText()).to.equal(XSS);
    expect(await page.locator('main img').count()).to.equal(0);
    expect(await page.locator('.chart line.limit-max').count()).to.equal(1);
    await page.locator('button[data-copy="url-fail"]').click();
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).to.equal(`${vigil.url}/v1/ping/${seed.backup}/fail`);
    expect(browser!.dialogs).to.deep.equal([]);
    await shoot(page, 'monitor');
    await accessible(page);
    await context.close();
  });

  it('shows an uptime monitor: its target, response times and uptime by day', async () => {
    const context = await newContext();
    const page = await signIn(context, seed.ownerKey, `/monitors/${seed.site}`);
    expect(await page.locator('h1 .status').innerText()).to.equal('UP');
    expect(await page.locator('.chart circle').count()).to.equal(13);
    expect(await page.locator('.chart circle.point-fail').count()).to.equal(2);
    expect(await page.locator('.uptime-days li').count()).to.equal(7);
    expect(await page.locator('main').innerText()).to.contain(`GET ${target!.url}/ every 1 min, expecting any 2xx`);
    await shoot(page, 'monitor-uptime');
    await accessible(page);
    await context.close();
  });

  it('opens an incident by its deep link, acknowledges it, and the timeline says who did', async () => {
    const context = await newContext();
    const page = await signIn(context, seed.ownerKey, `/incidents/${seed.incident}`);
    expect(new URL(page.url()).pathname).to.equal(`/incidents/${seed.incident}`);
    expect(await page.locator('h1 .status').innerText()).to.equal('OPEN');
    expect(await page.locator('.timeline li').first().innerText()).to.contain('FAILURE ping with exit code 3');
    await page.getByRole('button', { name: 'Acknowledge' }).click();
    await page.waitForURL(/done=acknowledged/);
    expect(await page.locator('.notice').innerText()).to.equal('Incident acknowledged.');
    expect(await page.locator('h1 .status').innerText()).to.equal('ACKNOWLEDGED');
    expect(await page.locator('.timeline').innerText()).to.contain('Acknowledged by owner@example.com');
    expect(await page.locator('dl.facts').innerText()).to.contain('by owner@example.com');
    const api = await vigil.request('GET', `/v1/incidents/${seed.incident}`, { key: seed.ownerKey });
    expect(api.body.incident.status).to.equal('ACKNOWLEDGED');
    await shoot(page, 'incident');
    await accessible(page);
    await context.close();
  });

  it('shows a READONLY member no action buttons, and refuses their forged POSTs with or without a valid CSRF token', async () => {
    const context = await newContext();
    const page = await signIn(context, seed.readerKey, `/incidents/${seed.incident}`);
    expect(await page.locator('h1').innerText()).to.contain('Database backup: failed');
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).to.equal(0);
    await shoot(page, 'incident-readonly');
    await page.goto(`${vigil.url}/monitors/${seed.backup}`);
    expect(await page.getByRole('button', { name: /Pause/ }).count()).to.equal(0);

    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    expect(token.length).to.be.greaterThan(20);
    const resolve = `${vigil.url}/incidents/${seed.incident}/resolve`;
    const withoutToken = await context.request.post(resolve, { form: {}, maxRedirects: 0 });
    expect(withoutToken.status()).to.equal(403);
    expect(await withoutToken.text()).to.contain('did not come from this session');
    const wrongToken = await context.request.post(resolve, { form: { csrf_token: `${token.slice(0, -2)}xx` }, maxRedirects: 0 });
    expect(wrongToken.status()).to.equal(403);
    const withToken = await context.request.post(resolve, { form: { csrf_token: token }, maxRedirects: 0 });
    expect(withToken.status()).to.equal(403);
    expect(await withToken.text()).to.contain('needs the MEMBER role');
    const pause = await context.request.post(`${vigil.url}/monitors/${seed.backup}/pause`, { form: { csrf_token: token }, maxRedirects: 0 });
    expect(pause.status()).to.equal(403);

    // A form slipped into their own page (the token is right, the session theirs) gets the refusal as a page.
    await page.goto(`${vigil.url}/incidents/${seed.incident}`);
    await page.evaluate(({ action, csrf }) => {
      const doc = (globalThis as unknown as { document: { createElement(tag: string): any; body: { append(node: unknown): void } } }).document;
      const form = doc.createElement('form');
      form.method = 'post';
      form.action = action;
      const field = doc.createElement('input');
      field.type = 'hidden';
      field.name = 'csrf_token';
      field.value = csrf;
      form.append(field);
      doc.body.append(form);
      form.submit();
    }, { action: resolve, csrf: token });
    await page.waitForURL(resolve);
    expect(await page.locator('h1').innerText()).to.equal('You cannot do that');
    await shoot(page, 'forbidden');

    const api = await vigil.request('GET', `/v1/incidents/${seed.incident}`, { key: seed.ownerKey });
    expect(api.body.incident.status).to.equal('ACKNOWLEDGED');
    expect((await vigil.request('GET', `/v1/monitors/${seed.backup}`, { key: seed.ownerKey })).body.monitor.status).to.equal('DOWN');

    await context.close();
  });

  it('refuses a form posted from another site, even with the session cookie', async () => {
    const context = await newContext();
    const page = await signIn(context, seed.ownerKey, `/monitors/${seed.weekly}`);
    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const forged = await context.request.post(`${vigil.url}/monitors/${seed.weekly}/pause`, {
      form: { csrf_token: token }, headers: { 'Sec-Fetch-Site': 'cross-site' }, maxRedirects: 0,
    });
    expect(forged.status()).to.equal(403);
    expect((await vigil.request('GET', `/v1/monitors/${seed.weekly}`, { key: seed.ownerKey })).body.monitor.status).to.not.equal('PAUSED');
    await context.close();
  });

  it('changes a monitor\'s status on the open dashboard when a ping sent with curl arrives, without a reload', async () => {
    const context = await newContext();
    const page = await signIn(context, seed.ownerKey, `/projects/${seed.jobs}`);
    const row = `tr[data-monitor-id="${seed.live}"]`;
    expect(await page.locator(`${row} .status`).innerText()).to.equal('UP');
    expect(await page.locator('[data-count="DOWN"]').innerText()).to.equal('1');
    await page.evaluate(() => {
      (globalThis as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    // The live stream is open before the ping is sent.
    await eventually(() => expect(browser!.requested).to.include(`${vigil.url}/projects/${seed.jobs}/events`), 10_000);

    // As a job's crontab line sends it.
    // (Asynchronously: the server answering it runs in this process.)
    const curl = await promisify(execFile)('curl', ['-fsS', '-m', '10', `${vigil.url}/v1/ping/${seed.live}/fail`], { encoding: 'utf8' });
    expect(JSON.parse(curl.stdout)).to.include({ ok: true });
    await page.locator(`${row}[data-status="DOWN"]`).waitFor({ timeout: 15_000 });
    expect(await page.locator(`${row} .status`).innerText()).to.equal('DOWN');
    expect(await page.locator(`${row} .count-badge`).innerText()).to.equal('1');
    await page.locator('[data-count="DOWN"]', { hasText: '2' }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).to.equal(true);
    await shoot(page, 'dashboard-live');
    await context.close();
  });

  it('ends the session at sign-out: the old cookie no longer opens anything', async () => {
    const context = await newContext();
    const page = await signIn(context, seed.ownerKey, `/projects/${seed.jobs}`);
    const old = (await context.cookies()).find((c) => c.name === 'vigil_session')!.value;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in\?ended=signed-out/);
    expect(await page.locator('.notice').innerText()).to.equal('You have signed out.');
    await shoot(page, 'signed-out');
    for (const path of ['/', `/projects/${seed.jobs}`, `/incidents/${seed.incident}`]) {
      const response = await fetch(`${vigil.url}${path}`, { headers: { Cookie: `vigil_session=${old}` }, redirect: 'manual' });
      expect(response.status, path).to.equal(303);
      expect(response.headers.get('location'), path).to.match(/^\/sign-in/);
    }
    await context.close();
  });

  it('ends the session when its API key is revoked', async () => {
    const created = await vigil.request('POST', '/v1/api-keys', { key: seed.ownerKey, body: { name: 'browser', expires_in_days: 7, scopes: ['read'] } });
    expect(created.status).to.equal(201);
    const context = await newContext();
    const page = await signIn(context, created.body.key, `/projects/${seed.jobs}`);
    expect(await page.locator('h1').innerText()).to.equal('Nightly jobs');
    expect((await vigil.request('DELETE', `/v1/api-keys/${created.body.api_key.id}`, { key: seed.ownerKey })).status).to.be.lessThan(300);
    await page.reload();
    expect(new URL(page.url()).pathname).to.equal('/sign-in');
    expect(await page.locator('.notice').innerText()).to.contain('revoked');
    await context.close();
  });

  it('made every request to the server itself, and no script dialog ever opened', () => {
    expect(browser!.requested.length).to.be.greaterThan(20);
    expect(browser!.elsewhere()).to.deep.equal([]);
    expect(browser!.dialogs).to.deep.equal([]);
  });
});
