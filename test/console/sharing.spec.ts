import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { type Target, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const HOUR = 3_600_000;
const DAYS_OF_HISTORY = 60;

describe('Badges & status pages in a real browser', function () {
  this.timeout(180_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  let target: Target | undefined;
  let failing = false;
  const seed = {} as { ownerKey: string; readerKey: string; project: string; api: string; backup: string; site: string; hostile: string };

  const ping = async (monitorId: string, suffix = '') => {
    const response = await fetch(`${vigil.url}/v1/ping/${monitorId}${suffix}`);
    expect(response.status).to.equal(200);
  };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the status page browser tests: ${unavailable}`);
      this.skip();
    }
    // Sixty days of history, ending on 2026-11-21 at noon UTC.
    vigil = await TestVigil.start({ clock: new TestClock(Date.parse('2026-11-21T12:00:00.000Z') - DAYS_OF_HISTORY * 24 * HOUR) });
    target = await startTarget((_request, response) => {
      response.statusCode = failing ? 503 : 200;
      response.end(failing ? 'down' : 'ok');
    });
    const owner = await vigil.user('owner@example.com');
    const reader = await vigil.user('reader@example.com');
    seed.ownerKey = await vigil.accountKey(owner, ALL_SCOPES, 365);
    seed.readerKey = await vigil.accountKey(reader, ALL_SCOPES, 365);
    const key = seed.ownerKey;
    seed.project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Acme', description: 'Shop and back office' } })).body.project.id;
    expect((await vigil.request('POST', `/v1/projects/${seed.project}/members`, { key, body: { user_id: reader, role: 'READONLY' } })).status).to.equal(201);
    const monitor = async (body: object) => (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: seed.project, ...body } })).body.monitor.id as string;
    seed.backup = await monitor({ name: 'Nightly backup', slug: 'nightly-backup', type: 'JOB_BASIC', schedule: '1d' });
    seed.api = await monitor({ name: 'Order sync', slug: 'order-sync', type: 'JOB_BASIC', schedule: '1h' });
    seed.hostile = await monitor({ name: 'Export <img src=x onerror=alert(1)>', slug: 'export', type: 'JOB_BASIC', schedule: '1h' });
    await monitor({ name: 'Internal cleanup', slug: 'cleanup', type: 'JOB_BASIC', schedule: '1h' });

    for (let day = 0; day < DAYS_OF_HISTORY; day += 1) {
      if (day === 20) seed.site = await monitor({ name: 'Storefront', slug: 'storefront', type: 'UPTIME_HTTP', schedule: '8h', uptime_url: `${target.url}/` });
      await ping(seed.backup);
      await ping(seed.api);
      await ping(seed.hostile);
      if (day === 33) {
        await ping(seed.backup, '/fail');
        vigil.clock.advance(2 * HOUR);
        await ping(seed.backup);
      }
      if (day === 51) {
        await ping(seed.api, '/fail');
        vigil.clock.advance(HOUR / 4);
        await ping(seed.api);
      }
      for (let check = 0; check < 3; check += 1) {
        if (seed.site) {
          failing = day === 44 && check === 1;
          await vigil.check();
        }
        vigil.clock.advance(8 * HOUR - (day === 33 && check === 0 ? 2 * HOUR : 0) - (day === 51 && check === 0 ? HOUR / 4 : 0));
      }
    }
    failing = false;
    await ping(seed.api, '/fail'); // open now
    await vigil.settle();
    browser = await ConsoleBrowser.launch(vigil.url, 'status');
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

  it('shows the badge URLs with previews, copy buttons and markdown, under the project nav', async () => {
    const context = await newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: vigil.url });
    const page = await signIn(context, seed.ownerKey, `/projects/${seed.project}`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Badges & status pages' }).click();
    await page.waitForURL(`${vigil.url}/projects/${seed.project}/sharing`);
    const badgeKey = (await vigil.request('GET', `/v1/projects/${seed.project}/badge-key`, { key: seed.ownerKey })).body.badge_key.key;
    expect(await page.locator('#badge-project-url').innerText()).to.equal(`${vigil.url}/badge/${badgeKey}.svg`);
    expect(await page.locator('#badge-project-md').innerText()).to.equal(`![Acme](${vigil.url}/badge/${badgeKey}.svg)`);
    const previews = page.locator('main img');
    expect(await previews.count()).to.equal(6);
    for (const img of await previews.all()) expect(await img.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).to.be.greaterThan(0);
    expect(await page.getByAltText('Badge of Export <img src=x onerror=alert(1)>').count()).to.equal(1);
    await page.locator('button[data-copy="badge-project-md"]').click();
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).to.contain('![Acme]');
    await shoot(page, 'sharing');
    await accessible(page);
    await context.close();
  });

  it('creates and publishes a status page from the console, refusing a bad address with the reason and the values kept', async () => {
    const context = await newContext({ javaScriptEnabled: false });
    const page = await signIn(context, seed.ownerKey, `/projects/${seed.project}/sharing`);
    await page.getByLabel('Title', { exact: true }).fill('Acme status');
    await page.getByLabel('Address', { exact: true }).fill('Not valid!');
    await page.getByRole('checkbox', { name: 'Nightly backup' }).check();
    await page.getByRole('button', { name: 'Create status page' }).click();
    // Named as the form names the field ("Address"), never as the API does ("slug").
    expect(await page.locator('.error-summary').innerText()).to.contain('Address must be 2 to 50 lowercase letters');
    expect(await page.locator('.error-summary').innerText()).to.not.match(/slug/i);
    expect(await page.locator('.error-summary a').getAttribute('href')).to.equal('#new-slug');
    expect(await page.getByLabel('Address', { exact: true }).getAttribute('aria-invalid')).to.equal('true');
    expect(await page.getByLabel('Address', { exact: true }).inputValue()).to.equal('Not valid!');
    expect(await page.locator('#form-new .error-message').innerText()).to.contain('This page was not saved');
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).to.equal('Acme status');
    expect(await page.getByRole('checkbox', { name: 'Nightly backup' }).isChecked()).to.equal(true);
    await shoot(page, 'sharing-refused');

    await page.getByLabel('Address', { exact: true }).fill('acme');
    for (const name of ['Order sync', 'Storefront', 'Export <img src=x onerror=alert(1)>']) await page.getByRole('checkbox', { name }).check();
    await page.getByLabel('Public name of Storefront').fill('Shop website');
    await page.getByLabel('Published: anyone with the address can read it').check();
    await page.getByRole('button', { name: 'Create status page' }).click();
    await page.waitForURL(/done=created/);
    expect(await page.locator('.notice').innerText()).to.equal('Status page created.');
    expect(await page.getByRole('link', { name: `${vigil.url}/status/acme` }).count()).to.equal(1);
    await shoot(page, 'sharing-with-page');
    await context.close();
  });

  it('shows the public status page to a browser with no session: banner, bars with labels, incidents, nothing private', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const response = await page.goto(`${vigil.url}/status/acme`);
    expect(response!.status()).to.equal(200);
    expect(await context.cookies()).to.deep.equal([]);
    expect(await page.locator('h1').innerText()).to.equal('Acme status');
    expect(await page.locator('.status-banner').innerText()).to.equal('Partial outage');
    const names = await page.locator('.status-monitor h3').allInnerTexts();
    expect(names).to.have.members(['Nightly backup', 'Order sync', 'Shop website', 'Export <img src=x onerror=alert(1)>']);
    const backup = page.locator('.status-monitor', { hasText: 'Nightly backup' });
    expect(await backup.locator('a.status-bar').count()).to.equal(90);
    const backupBars = backup.locator('a.status-bar');
    expect(await backupBars.nth(0).getAttribute('aria-label')).to.match(/^2026-08-24: no data$/);
    expect(await backupBars.nth(89).getAttribute('aria-label')).to.equal('2026-11-21: 100% up, no incidents');
    const text = await page.locator('body').innerText();
    for (const secret of ['Internal cleanup', 'owner@example.com', seed.project, seed.backup, target!.url]) expect(text).to.not.contain(secret);
    expect(await page.content()).to.not.contain(seed.backup);
    await shoot(page, 'status-page');
    await accessible(page);

    // A bar's label shows on hover and on keyboard focus, drawn by CSS (no script runs here).
    const incidentDay = backup.locator('a.status-bar.bar-down');
    expect(await incidentDay.count()).to.equal(1);
    await incidentDay.hover();
    const tooltip = await incidentDay.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown, pseudo: string): { content: string } }).getComputedStyle(el, '::after').content);
    expect(tooltip).to.match(/^"2026-10-25: 9\d(\.\d+)?% up, 1 incident"$/);
    await shoot(page, 'status-page-hover', false);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string } } }).document.activeElement.getAttribute('aria-label'))).to.match(/: no data$/);

    await incidentDay.click();
    await page.waitForURL(`${vigil.url}/status/acme/day/2026-10-25`);
    expect(await page.locator('h1').innerText()).to.equal('Sunday, 25 October 2026');
    expect(await page.locator('.status-incident h3').allInnerTexts()).to.deep.equal(['Nightly backup failed']);
    await shoot(page, 'status-day');
    await accessible(page);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${vigil.url}/status/acme`);
    await shoot(page, 'status-page-narrow');
    await context.close();
  });

  it('deletes a status page only after a confirmation saying its address stops answering; Cancel keeps it', async () => {
    const made = await vigil.request('POST', `/v1/projects/${seed.project}/status-pages`, { key: seed.ownerKey, body: { slug: 'acme-old', title: 'Old status', published: true, monitors: [{ monitor_id: seed.backup }] } });
    expect(made.status, made.text).to.equal(201);
    const context = await newContext();
    const page = await signIn(context, seed.ownerKey, `/projects/${seed.project}/sharing`);
    const row = page.locator('.status-page-list > li', { hasText: 'Old status' });
    await row.getByRole('link', { name: 'Delete… Old status' }).click();
    const text = await page.locator('main').innerText();
    expect(text).to.contain('Delete the status page Old status?');
    expect(text).to.contain(`${vigil.url}/status/acme-old answers “not found” at once`);
    expect(text).to.contain('The monitors themselves, their incidents and their notes are kept.');
    await accessible(page);
    await shoot(page, 'status-page-delete-confirm');
    await page.getByRole('link', { name: 'Cancel' }).click();
    expect((await vigil.request('GET', '/status/acme-old')).status).to.equal(200);
    await row.getByRole('link', { name: 'Delete… Old status' }).click();
    await page.getByRole('button', { name: 'Delete the status page' }).click();
    await page.waitForURL(/done=deleted/);
    expect((await vigil.request('GET', '/status/acme-old')).status).to.equal(404);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).to.be.at.most(390);
    await accessible(page);
    await shoot(page, 'sharing-narrow');
    await context.close();
  });

  it('shows a READONLY member the badge URLs but no forms to change anything', async () => {
    const context = await newContext();
    const page = await signIn(context, seed.readerKey, `/projects/${seed.project}/sharing`);
    expect(await page.locator('#badge-project-url').count()).to.equal(1);
    expect(await page.locator('main form').count()).to.equal(0);
    expect(await page.locator('main').innerText()).to.contain('Managers of the project create and edit status pages.');
    await accessible(page);
    await context.close();
  });

  it('asked nothing of any host but the server itself', () => {
    expect(browser!.requested.length).to.be.greaterThan(10);
    expect(browser!.elsewhere()).to.deep.equal([]);
  });
});
