import { expect } from 'chai';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const XSS = '<img src=x onerror=alert(1)>';

describe('Monitor dependencies in the web console', function () {
  this.timeout(120_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  const seed = {} as { key: string; database: string; report: string; incident: string };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the monitor dependencies browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    const key = (seed.key = await vigil.accountKey(await vigil.user('owner@example.com'), ALL_SCOPES));
    const project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Batch jobs' } })).body.project.id;
    const create = async (body: Record<string, unknown>) => (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project, type: 'JOB_BASIC', schedule: 'x', ...body } })).body.monitor.id as string;
    seed.database = await create({ name: `Database ${XSS}` });
    seed.report = await create({ name: 'Nightly report', depends_on: [seed.database] });
    await fetch(`${vigil.url}/v1/ping/${seed.database}/fail`);
    await fetch(`${vigil.url}/v1/ping/${seed.report}/fail`);
    await vigil.settle();
    seed.incident = (await vigil.request('GET', `/v1/monitors/${seed.report}/incidents`, { key })).body.data[0].id;
    browser = await ConsoleBrowser.launch(vigil.url, 'console-dependencies');
  });

  after(async () => {
    await browser?.close();
    await vigil?.stop();
  });

  it('lists what a monitor depends on and its incidents caused upstream', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.key, `/monitors/${seed.report}`);
    const panel = page.getByRole('region', { name: 'Dependencies' });
    const upstream = panel.getByRole('link', { name: `Database ${XSS}` });
    expect(await upstream.getAttribute('href')).to.equal(`/monitors/${seed.database}`);
    expect(await panel.innerText()).to.contain('DOWN').and.contain('No other monitor.');
    expect(await page.getByRole('region', { name: 'Incidents' }).innerText()).to.contain(`caused upstream: Database ${XSS} was DOWN; not paged`);
    await browser!.accessible(page);
    await browser!.shoot(page, 'monitor-depends-on');
    await context.close();
  });

  it('lists the monitors that depend on one', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.key, `/monitors/${seed.database}`);
    const panel = page.getByRole('region', { name: 'Dependencies' });
    expect(await panel.getByRole('link', { name: 'Nightly report' }).getAttribute('href')).to.equal(`/monitors/${seed.report}`);
    expect(await panel.innerText()).to.contain('Nothing.');
    await browser!.accessible(page);
    await browser!.shoot(page, 'monitor-depended-on');
    await context.close();
  });

  it('says on the incident page that it was caused upstream and paged nobody', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.key, `/incidents/${seed.incident}`);
    const summary = page.getByRole('region', { name: 'Summary' });
    expect(await summary.innerText()).to.contain(`Caused upstream\nDatabase ${XSS}, which this monitor depends on, was DOWN when it opened: nobody was paged`);
    expect(await summary.getByRole('link', { name: `Database ${XSS}` }).getAttribute('href')).to.equal(`/monitors/${seed.database}`);
    expect(await page.getByRole('region', { name: 'Timeline' }).innerText()).to.contain(`Caused upstream: Database ${XSS}, which this monitor depends on, was DOWN; nobody was paged`);
    await browser!.accessible(page);
    await browser!.shoot(page, 'incident-caused-upstream');
    expect(browser!.dialogs).to.deep.equal([]);
    expect(browser!.elsewhere()).to.deep.equal([]);
    await context.close();
  });
});
