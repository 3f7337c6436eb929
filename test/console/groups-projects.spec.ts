import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { type SeenRequest, type Target, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const SHOTS = '/tmp/shots-settings';

describe('Console groups and projects in a real browser', function () {
  this.timeout(180_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  let receiver: Target | undefined;
  const received: SeenRequest[] = [];
  const seed = {} as { ownerKey: string; readerKey: string; project: string; channel: string; monitor: string; group: string };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the console group and project browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    receiver = await startTarget((request, response) => {
      received.push(request);
      response.statusCode = 204;
      response.end();
    });
    const owner = await vigil.user('owner@example.com');
    const reader = await vigil.user('reader@example.com');
    seed.ownerKey = await vigil.accountKey(owner, ALL_SCOPES);
    seed.readerKey = await vigil.accountKey(reader, ALL_SCOPES);
    seed.project = (await vigil.request('POST', '/v1/projects', { key: seed.ownerKey, body: { name: 'Payments' } })).body.project.id;
    expect((await vigil.request('POST', `/v1/projects/${seed.project}/members`, { key: seed.ownerKey, body: { user_id: reader, role: 'READONLY' } })).status).to.equal(201);
    const channel = await vigil.request('POST', '/v1/notification-channels', {
      key: seed.ownerKey, body: { project_id: seed.project, name: 'Ops webhook', type: 'WEBHOOK', config: { url: `${receiver.url}/ops` } },
    });
    seed.channel = channel.body.channel.id;
    const monitor = await vigil.request('POST', '/v1/monitors', { key: seed.ownerKey, body: { project_id: seed.project, name: 'Nightly backup', type: 'JOB_BASIC', schedule: 'x' } });
    expect(monitor.status, monitor.text).to.equal(201);
    seed.monitor = monitor.body.monitor.id;
    browser = await ConsoleBrowser.launch(vigil.url, SHOTS);
  });

  after(async () => {
    await browser?.close();
    await receiver?.close();
    await vigil?.stop();
  });

  const settings = (page: string) => `/projects/${seed.project}/settings/${page}`;

  async function fitsBothWidths(page: Page, name: string) {
    await page.setViewportSize({ width: 390, height: 844 });
    expect(Number(await page.evaluate('document.documentElement.scrollWidth')), `${name} at 390 px`).to.be.at.most(390);
    await browser!.accessible(page);
    await browser!.shoot(page, `${name}-390`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await browser!.accessible(page);
    await browser!.shoot(page, `${name}-1280`);
  }

  it('creates a group, attaches and detaches a channel with its checkboxes, routes a monitor from the group page, and the monitor then pages through it', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, settings('groups'));
    await fitsBothWidths(page, 'groups-empty');
    await page.getByRole('button', { name: 'Create group' }).click();
    expect(await page.locator('.error-summary').innerText()).to.contain('Group name must be');
    await page.getByLabel('Group name').fill('On call');
    await page.getByLabel('Description (optional)').fill('Wakes someone up');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.locator('.notice', { hasText: 'Group created.' }).waitFor();
    seed.group = /groups\/([0-9a-f-]{36})/.exec(page.url())![1]!;

    await page.getByRole('checkbox', { name: 'Ops webhook' }).check();
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.locator('.notice', { hasText: 'Group saved.' }).waitFor();
    expect((await vigil.request('GET', `/v1/notification-groups/${seed.group}`, { key: seed.ownerKey })).body.group.channel_count).to.equal(1);
    expect(await page.getByRole('checkbox', { name: 'Ops webhook' }).isChecked()).to.equal(true);

    await page.getByRole('checkbox', { name: 'Nightly backup' }).check();
    await page.getByRole('button', { name: 'Save monitors' }).click();
    await page.locator('.notice', { hasText: 'Group saved.' }).waitFor();
    const monitor = await vigil.request('GET', `/v1/monitors/${seed.monitor}`, { key: seed.ownerKey });
    expect(monitor.body.monitor.notification_group_ids).to.deep.equal([seed.group]);
    await fitsBothWidths(page, 'group');

    // The monitor fails: the page goes to the group's channel.
    await vigil.request('GET', `/v1/ping/${seed.monitor}/2`);
    await vigil.notify();
    const [opened] = received.filter((r) => r.url === '/ops');
    expect(JSON.parse(opened!.body)).to.deep.include({ event: 'incident.opened' });
    expect(JSON.parse(opened!.body).monitor).to.deep.include({ id: seed.monitor, name: 'Nightly backup' });

    await page.goto(`${vigil.url}${settings('groups')}`);
    const card = page.locator('.group-card', { hasText: 'On call' });
    expect(await card.innerText()).to.contain('Nightly backup');
    expect(await card.innerText()).to.contain('Ops webhook');
    await fitsBothWidths(page, 'groups');

    await card.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Group name').fill('');
    await page.getByRole('button', { name: 'Save group' }).click();
    expect(await page.locator('.error-summary').innerText()).to.contain('Group name must be');
    expect(await page.getByLabel('Description (optional)').inputValue()).to.equal('Wakes someone up');
    await page.getByLabel('Group name').fill('Night shift');
    await page.getByRole('checkbox', { name: 'Ops webhook' }).uncheck();
    await page.getByRole('button', { name: 'Save group' }).click();
    await page.locator('.notice', { hasText: 'Group saved.' }).waitFor();
    const group = (await vigil.request('GET', `/v1/notification-groups/${seed.group}`, { key: seed.ownerKey })).body.group;
    expect(group).to.deep.include({ name: 'Night shift', channel_count: 0 });
    await context.close();
  });

  it('makes "Used by: no monitor" a link to route monitors, and deletes a group after a confirmation naming its monitors', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, settings('groups'));
    await page.getByLabel('Group name').fill('Spare');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.locator('.notice', { hasText: 'Group created.' }).waitFor();
    await page.goto(`${vigil.url}${settings('groups')}`);
    await page.locator('.group-card', { hasText: 'Spare' }).getByRole('link', { name: 'Route monitors to it' }).click();
    expect(page.url()).to.match(/#monitors-title$/);

    await page.goto(`${vigil.url}${settings('groups')}/${seed.group}`);
    await page.getByRole('link', { name: 'Delete the group…' }).click();
    expect(await page.locator('main').innerText()).to.contain('Nightly backup is routed to it and stops paging its channels');
    await fitsBothWidths(page, 'group-delete-confirm');
    await page.getByRole('link', { name: 'Cancel' }).click();
    expect((await vigil.request('GET', `/v1/notification-groups/${seed.group}`, { key: seed.ownerKey })).status).to.equal(200);
    await page.getByRole('link', { name: 'Delete the group…' }).click();
    await page.getByRole('button', { name: 'Delete the group' }).click();
    await page.locator('.notice', { hasText: 'Group deleted.' }).waitFor();
    expect((await vigil.request('GET', `/v1/notification-groups/${seed.group}`, { key: seed.ownerKey })).status).to.equal(404);
    expect((await vigil.request('GET', `/v1/monitors/${seed.monitor}`, { key: seed.ownerKey })).body.monitor.notification_group_ids).to.deep.equal([]);
    await context.close();
  });

  it('creates a project (its creator the owner), edits its name and first-ping settings keeping what was typed on a refusal, and deletes it after a confirmation', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, '/');
    await page.goto(`${vigil.url}/new-project`);
    await page.getByRole('button', { name: 'Create project' }).click();
    expect(await page.locator('.error-summary').innerText()).to.contain('Project name must be');
    await fitsBothWidths(page, 'project-new-error');
    await page.getByLabel('Project name').fill('Billing');
    await page.getByLabel('Description (optional)').fill('Invoices and payouts');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.locator('.notice', { hasText: 'Project created. You are its owner.' }).waitFor();
    const projectId = /projects\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const created = (await vigil.request('GET', `/v1/projects/${projectId}`, { key: seed.ownerKey })).body.project;
    expect(created.name).to.equal('Billing');
    expect(created.members.find((m: { role: string }) => m.role === 'OWNER').user.email).to.equal('owner@example.com');

    await page.getByLabel('Project name').fill('Billing & invoices');
    await page.getByLabel('Make a monitor for a ping to an unknown slug').check();
    await page.getByLabel('At most, per hour').fill('5000');
    await page.getByRole('button', { name: 'Save project' }).click();
    const summary = await page.locator('.error-summary').innerText();
    expect(summary).to.contain('At most, per hour');
    expect(summary).to.not.contain('auto_provisioning');
    expect(await page.getByLabel('Project name').inputValue()).to.equal('Billing & invoices');
    expect(await page.getByLabel('At most, per hour').inputValue()).to.equal('5000');
    expect(await page.getByLabel('Make a monitor for a ping to an unknown slug').isChecked()).to.equal(true);
    await fitsBothWidths(page, 'project-settings-error');
    await page.getByLabel('At most, per hour').fill('20');
    await page.getByRole('button', { name: 'Save project' }).click();
    await page.locator('.notice', { hasText: 'Project saved.' }).waitFor();
    const saved = (await vigil.request('GET', `/v1/projects/${projectId}`, { key: seed.ownerKey })).body.project;
    expect(saved.name).to.equal('Billing & invoices');
    expect(saved.auto_provisioning).to.deep.include({ enabled: true, max_per_hour: 20 });

    await page.getByRole('link', { name: 'Delete the project…' }).click();
    expect(await page.locator('main').innerText()).to.contain('0 monitors, with all their pings');
    await fitsBothWidths(page, 'project-delete-confirm');
    await page.getByRole('link', { name: 'Cancel' }).click();
    expect((await vigil.request('GET', `/v1/projects/${projectId}`, { key: seed.ownerKey })).status).to.equal(200);
    await page.getByRole('link', { name: 'Delete the project…' }).click();
    await page.getByRole('button', { name: 'Delete the project and everything in it' }).click();
    await page.waitForURL((url) => !url.pathname.includes(projectId));
    expect((await vigil.request('GET', `/v1/projects/${projectId}`, { key: seed.ownerKey })).status).to.equal(404);
    await context.close();
  });

  it('shows a READONLY member no way to change groups or the project, and answers their forged POSTs with 403', async () => {
    const group = (await vigil.request('POST', '/v1/notification-groups', { key: seed.ownerKey, body: { project_id: seed.project, name: 'Locked' } })).body.group.id;
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.readerKey, settings('groups'));
    expect(await page.getByRole('button', { name: 'Create group' }).count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Edit' }).count()).to.equal(0);
    await fitsBothWidths(page, 'groups-readonly');
    await page.goto(`${vigil.url}${settings('groups')}/${group}`);
    expect(await page.locator('main form').count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Delete the group…' }).count()).to.equal(0);
    await page.goto(`${vigil.url}${settings('project')}`);
    expect(await page.locator('main form').count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Delete the project…' }).count()).to.equal(0);
    await fitsBothWidths(page, 'project-readonly');
    expect((await page.goto(`${vigil.url}${settings('project')}/delete`))!.status()).to.equal(403);

    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const forged = async (path: string, form: Record<string, string>) =>
      (await context.request.post(`${vigil.url}${path}`, { form: { csrf_token: token, ...form }, maxRedirects: 0 })).status();
    expect(await forged(settings('groups'), { name: 'Forged' })).to.equal(403);
    expect(await forged(`${settings('groups')}/${group}`, { name: 'Forged', channel: seed.channel })).to.equal(403);
    expect(await forged(`${settings('groups')}/${group}/monitors`, { monitor: seed.monitor })).to.equal(403);
    expect(await forged(`${settings('groups')}/${group}/delete`, {})).to.equal(403);
    expect(await forged(settings('project'), { name: 'Forged' })).to.equal(403);
    expect(await forged(`${settings('project')}/delete`, {})).to.equal(403);
    expect((await vigil.request('GET', `/v1/notification-groups/${group}`, { key: seed.ownerKey })).body.group).to.deep.include({ name: 'Locked', channel_count: 0, monitors: [] });
    expect((await vigil.request('GET', `/v1/projects/${seed.project}`, { key: seed.ownerKey })).body.project.name).to.equal('Payments');
    await context.close();
  });

  it('made every request to the server itself, and no script dialog ever opened', () => {
    expect(browser!.elsewhere()).to.deep.equal([]);
    expect(browser!.dialogs).to.deep.equal([]);
  });
});
