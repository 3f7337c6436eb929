import { expect } from 'chai';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { type Target, reply, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestClock, TestVigil } from '../support/test-vigil.js';

const XSS = '<img src=x onerror=alert(1)>';

describe('An escalating incident in the web console', function () {
  this.timeout(120_000);
  let vigil: TestVigil;
  let sink: Target;
  let browser: ConsoleBrowser | undefined;
  const seed = {} as { key: string; incident: string; monitor: string; policy: string; project: string };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the escalation browser tests: ${unavailable}`);
      this.skip();
    }
    sink = await startTarget(reply(200, 'ok'));
    vigil = await TestVigil.start({ clock: new TestClock(Date.now()) });
    const key = (seed.key = await vigil.accountKey(await vigil.user('owner@example.com'), ALL_SCOPES));
    const project = seed.project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Payments' } })).body.project.id;
    const hook = async (name: string) => (await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: project, name, type: 'WEBHOOK', config: { url: `${sink.url}/${name}` } } })).body.channel.id as string;
    const [first, second, third] = [await hook('Database team'), await hook('On-call phone'), await hook('Engineering')];
    const policy = seed.policy = (await vigil.request('POST', '/v1/escalation-policies', {
      key,
      body: {
        project_id: project, name: `Database ${XSS}`,
        steps: [{ delay_seconds: 0, notification_channel_ids: [first] }, { delay_seconds: 300, notification_channel_ids: [second], urgent: true }, { delay_seconds: 900, notification_channel_ids: [third] }],
      },
    })).body.escalation_policy.id;
    const monitor = seed.monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project, name: 'Ledger export', type: 'JOB_BASIC', schedule: 'x', escalation_policy_id: policy } })).body.monitor.id;
    await vigil.request('GET', `/v1/ping/${monitor}/fail`);
    await vigil.notify();
    vigil.clock.advance(5 * 60_000);
    await vigil.tick();
    await vigil.notify();
    seed.incident = (await vigil.request('GET', `/v1/monitors/${monitor}/incidents`, { key })).body.data[0].id;
    browser = await ConsoleBrowser.launch(vigil.url, 'console-escalation');
  });

  after(async () => {
    await browser?.close();
    await vigil?.stop();
    await sink?.close();
  });

  for (const width of [1280, 390]) {
    it(`lists the project's policies, their steps in words and the monitors using them at ${width} px`, async () => {
      const context = await browser!.context({ width });
      const page = await browser!.signIn(context, seed.key, `/projects/${seed.project}/settings/escalation`);
      const panel = await page.getByRole('region', { name: 'Escalation policies' }).innerText();
      expect(panel).to.contain(`Database ${XSS}`).and.contain('At the start: Database team').and.contain('5 min after the start: On-call phone (urgent)')
        .and.contain('15 min after the start: Engineering').and.contain('Once through. Used by: Ledger export.');
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), `scrolls sideways at ${width} px`).to.equal(true);
      await browser!.accessible(page);
      await browser!.shoot(page, `settings-escalation-${width}`);
      await context.close();
    });
  }

  it('chooses the escalation policy in the monitor form, and takes it off again', async () => {
    const context = await browser!.context({ width: 390 });
    const page = await browser!.signIn(context, seed.key, `/monitors/${seed.monitor}/edit`);
    const select = page.getByLabel('Escalation policy');
    expect(await select.inputValue()).to.equal(seed.policy);
    await browser!.accessible(page);
    await select.scrollIntoViewIfNeeded();
    await browser!.shoot(page, 'monitor-form-escalation-390', false);
    await select.selectOption('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL((url) => url.pathname === `/monitors/${seed.monitor}`);
    expect((await vigil.request('GET', `/v1/monitors/${seed.monitor}`, { key: seed.key })).body.monitor.escalation_policy_id).to.equal(null);
    await page.goto(`${vigil.url}/monitors/${seed.monitor}/edit`);
    await page.getByLabel('Escalation policy').selectOption(seed.policy);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL((url) => url.pathname === `/monitors/${seed.monitor}`);
    expect((await vigil.request('GET', `/v1/monitors/${seed.monitor}`, { key: seed.key })).body.monitor.escalation_policy_id).to.equal(seed.policy);
    await context.close();
  });

  for (const width of [1280, 390]) {
    it(`shows the current step, the next step's time and the climb in words at ${width} px`, async () => {
      const context = await browser!.context({ width });
      const page = await browser!.signIn(context, seed.key, `/incidents/${seed.incident}`);
      const summary = await page.getByRole('region', { name: 'Summary' }).innerText();
      expect(summary).to.contain(`Policy "Database ${XSS}": step 2 of 3 paged at`).and.match(/Next step\s+step 3 at .* \(in 10 min\), unless acknowledged/);
      const timeline = await page.getByRole('region', { name: 'Timeline' }).innerText();
      expect(timeline).to.contain(`Escalated to step 2: Database ${XSS}, 5 min after start, not acknowledged (urgent)`);
      expect(timeline).to.contain('Paged step 2: On-call phone — delivered');
      expect(timeline).to.contain('Paged nobody directly: the escalation policy pages its steps instead');
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), `scrolls sideways at ${width} px`).to.equal(true);
      await browser!.accessible(page);
      await browser!.shoot(page, `incident-escalating-${width}`);
      await context.close();
    });
  }
});
