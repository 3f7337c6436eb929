import { expect } from 'chai';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Console maintenance page in a real browser', function () {
  this.timeout(120_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  const seed = {} as { key: string; project: string; monitor: string };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the console maintenance browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    seed.key = await vigil.accountKey(await vigil.user('owner@example.com'), ALL_SCOPES);
    seed.project = (await vigil.request('POST', '/v1/projects', { key: seed.key, body: { name: 'Shop' } })).body.project.id;
    const created = await vigil.request('POST', '/v1/monitors', { key: seed.key, body: { project_id: seed.project, name: 'Checkout <i>api</i>', type: 'JOB_BASIC', schedule: 'x' } });
    seed.monitor = created.body.monitor.id;
    browser = await ConsoleBrowser.launch(vigil.url, 'console-maintenance');
  });

  after(async () => {
    await browser?.close();
    await vigil?.stop();
  });

  it('schedules a window from the project nav, shows what it held back on the monitor and incident pages, and ends it now', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.key, `/projects/${seed.project}`);
    await page.getByRole('link', { name: 'Maintenance' }).click();
    await page.waitForURL(`${vigil.url}/projects/${seed.project}/maintenance`);
    expect(await page.locator('#windows + *').innerText()).to.contain('No maintenance window yet');
    await browser!.accessible(page);

    // Refused: the field is named, the form keeps what was typed.
    await page.getByLabel('Name').fill('Deploy <b>4.2</b>');
    await page.getByLabel('Lasts').fill('soon');
    await page.getByRole('button', { name: 'Schedule maintenance' }).click();
    expect(await page.locator('.error-summary').innerText()).to.contain('Lasts: how long, such as 30m');
    expect(await page.getByLabel('Name').inputValue()).to.equal('Deploy <b>4.2</b>');
    await browser!.accessible(page);
    await browser!.shoot(page, 'schedule-refused');

    await page.getByLabel('Lasts').fill('45m');
    await page.getByLabel('Checkout <i>api</i>').check();
    await page.getByRole('button', { name: 'Schedule maintenance' }).click();
    await page.locator('.notice', { hasText: 'Maintenance window scheduled.' }).waitFor();
    const row = page.locator('tr', { hasText: 'Deploy <b>4.2</b>' });
    expect(await row.innerText()).to.contain('Active');
    expect(await row.innerText()).to.contain('Checkout <i>api</i>');
    expect(await page.content()).to.contain('Deploy &lt;b&gt;4.2&lt;/b&gt;');
    await browser!.accessible(page);
    await browser!.shoot(page, 'window-active');

    expect((await vigil.request('GET', `/v1/ping/${seed.monitor}/fail`)).status).to.equal(200);
    await vigil.settle();
    await page.goto(`${vigil.url}/monitors/${seed.monitor}`);
    const panel = await page.locator('section', { has: page.locator('#maintenance') }).innerText();
    expect(panel).to.contain('In maintenance');
    expect(panel).to.contain('FAILED held back by "Deploy <b>4.2</b>"');
    await browser!.accessible(page);
    await browser!.shoot(page, 'monitor-held-back');

    await page.goto(`${vigil.url}/projects/${seed.project}/maintenance`);
    await page.getByRole('button', { name: 'End now (Deploy <b>4.2</b>)' }).click();
    await page.locator('.notice', { hasText: 'Maintenance window ended.' }).waitFor();
    expect(await page.locator('tr', { hasText: 'Deploy <b>4.2</b>' }).innerText()).to.contain('Over');
    await vigil.tick();
    const [incident] = (await vigil.request('GET', `/v1/monitors/${seed.monitor}/incidents`, { key: seed.key })).body.data;
    await page.goto(`${vigil.url}/incidents/${incident.id}`);
    expect(await page.locator('.timeline').innerText()).to.contain('FAILED held back by maintenance window "Deploy <b>4.2</b>"');
    await browser!.accessible(page);
    await browser!.shoot(page, 'incident-timeline');
    expect(browser!.elsewhere()).to.deep.equal([]);
    await context.close();
  });
});
