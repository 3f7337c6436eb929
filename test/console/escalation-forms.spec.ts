import { expect } from 'chai';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Escalation policies made and changed in the web console', function () {
  this.timeout(120_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  const seed = {} as { key: string; project: string; monitor: string };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the escalation form browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    const key = (seed.key = await vigil.accountKey(await vigil.user('owner@example.com'), ALL_SCOPES));
    const project = (seed.project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Payments' } })).body.project.id);
    for (const name of ['Database team', 'On-call phone']) {
      await vigil.request('POST', '/v1/notification-channels', { key, body: { project_id: project, name, type: 'WEBHOOK', config: { url: 'http://127.0.0.1:9/hook' } } });
    }
    seed.monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project, name: 'Ledger export', type: 'JOB_BASIC', schedule: 'nightly' } })).body.monitor.id;
    browser = await ConsoleBrowser.launch(vigil.url, 'console-escalation-forms');
  });
  after(async () => {
    await browser?.close();
    await vigil?.stop();
  });

  const policies = async () => (await vigil.request('GET', `/v1/escalation-policies?project_id=${seed.project}`, { key: seed.key })).body.escalation_policies as {
    id: string; name: string; repeat: number; steps: { delay_seconds: number; notification_channel_ids: string[]; urgent: boolean }[];
  }[];

  it('creates a policy of two steps from the form, then edits it', async () => {
    const context = await browser!.context({ width: 1280 });
    const page = await browser!.signIn(context, seed.key, `/projects/${seed.project}/settings/escalation`);
    await page.getByRole('link', { name: 'New policy' }).click();
    await page.getByLabel('Name').fill('Database');
    const step1 = page.getByRole('group', { name: 'Step 1' });
    await step1.getByLabel('Delay (minutes after the incident starts)').fill('0');
    await step1.getByLabel('Database team').check();
    const step2 = page.getByRole('group', { name: 'Step 2' });
    await step2.getByLabel('Delay (minutes after the incident starts)').fill('5');
    await step2.getByLabel('On-call phone').check();
    await step2.getByLabel(/Urgent/).check();
    await browser!.accessible(page);
    await browser!.shoot(page, 'policy-form-1280');
    await page.getByRole('button', { name: 'Create policy' }).click();

    const [created] = await policies();
    expect(created!.name).to.equal('Database');
    expect(created!.steps.map((s) => [s.delay_seconds, s.notification_channel_ids.length, s.urgent])).to.deep.equal([[0, 1, false], [300, 1, true]]);
    const panel = await page.getByRole('region', { name: 'Escalation policies' }).innerText();
    expect(panel).to.contain('At the start: Database team').and.contain('5 min after the start: On-call phone (urgent)');

    await page.getByRole('link', { name: 'Edit Database' }).click();
    expect(await page.getByRole('group', { name: 'Step 2' }).getByLabel('Delay (minutes after the incident starts)').inputValue()).to.equal('5');
    await page.getByRole('group', { name: 'Step 2' }).getByLabel('Delay (minutes after the incident starts)').fill('10');
    await page.getByLabel('Repeat').fill('2');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const [edited] = await policies();
    expect(edited!.steps.map((s) => s.delay_seconds)).to.deep.equal([0, 600]);
    expect(edited!.repeat).to.equal(2);
    await context.close();
  });

  it('shows a refusal beside the step it is about, in the form\'s words, keeping what was typed', async () => {
    const context = await browser!.context({ width: 390 });
    const page = await browser!.signIn(context, seed.key, `/projects/${seed.project}/settings/escalation/new`);
    await page.getByLabel('Name').fill('Too slow');
    const step1 = page.getByRole('group', { name: 'Step 1' });
    await step1.getByLabel('Delay (minutes after the incident starts)').fill('10');
    await step1.getByLabel('Database team').check();
    const step2 = page.getByRole('group', { name: 'Step 2' });
    await step2.getByLabel('Delay (minutes after the incident starts)').fill('5');
    await page.getByRole('button', { name: 'Create policy' }).click();

    const summary = await page.getByRole('alert').innerText();
    expect(summary).to.contain('Step 2: must name at least one target: a group, a channel or whoever is on call').and.not.contain('steps[').and.not.contain('_ids');

    await page.getByRole('group', { name: 'Step 2' }).getByLabel('On-call phone').check();
    await page.getByRole('button', { name: 'Create policy' }).click();
    expect(await page.getByRole('alert').innerText()).to.contain("Step 2: delay must not be less than step 1's delay");
    await page.getByRole('link', { name: /Step 2: delay/ }).click();
    expect(await page.evaluate('document.activeElement?.id')).to.equal('step-1-delay');
    expect(await page.getByLabel('Name').inputValue()).to.equal('Too slow');
    expect(await page.getByRole('group', { name: 'Step 1' }).getByLabel('Database team').isChecked()).to.equal(true);
    expect(await page.getByRole('group', { name: 'Step 2' }).getByLabel('Delay (minutes after the incident starts)').inputValue()).to.equal('5');
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), 'scrolls sideways at 390 px').to.equal(true);
    await browser!.accessible(page);
    await browser!.shoot(page, 'policy-form-error-390');
    expect((await policies()).map((p) => p.name)).to.not.include('Too slow');
    await context.close();
  });

  it('deletes a policy that a monitor uses only by the explicit choice to take it off the monitor', async () => {
    const [policy] = await policies();
    await vigil.request('PATCH', `/v1/monitors/${seed.monitor}`, { key: seed.key, body: { escalation_policy_id: policy!.id } });
    const context = await browser!.context({ width: 390 });
    const page = await browser!.signIn(context, seed.key, `/projects/${seed.project}/settings/escalation`);
    await page.getByRole('link', { name: 'Delete Database' }).click();
    const confirmation = await page.getByRole('main').innerText();
    expect(confirmation).to.contain('These monitors use it').and.contain('Ledger export');
    await browser!.accessible(page);
    await browser!.shoot(page, 'policy-delete-390');
    await page.getByRole('button', { name: 'Take it off 1 monitor and delete it' }).click();
    expect(await policies()).to.deep.equal([]);
    const monitor = (await vigil.request('GET', `/v1/monitors/${seed.monitor}`, { key: seed.key })).body.monitor;
    expect(monitor.escalation_policy_id).to.equal(null);
    await context.close();
  });
});
