import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { type SeenRequest, type Target, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const SHOTS = '/tmp/shots-settings';

describe('Console channels in a real browser', function () {
  this.timeout(180_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  let receiver: Target | undefined;
  const received: SeenRequest[] = [];
  const seed = {} as { ownerKey: string; readerKey: string; project: string; secret: string; channel: string };
  const at = (path: string) => received.filter((r) => r.url === path);
  /**
   * The body of a delivery whose Standard Webhooks signature `secret` makes (the library's own
   * verify also wants a timestamp near the wall clock, which the test clock is not).
   */
  const verified = (secret: string, request: SeenRequest): Record<string, unknown> => {
    const [id, timestamp, signature] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => String(request.headers[h]));
    expect(new Webhook(secret).sign(id!, new Date(Number(timestamp) * 1000), request.body)).to.equal(signature);
    return JSON.parse(request.body) as Record<string, unknown>;
  };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the console channel browser tests: ${unavailable}`);
      this.skip();
    }
    // No VIGIL_SMTP_HOST: this server cannot send email.
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
    browser = await ConsoleBrowser.launch(vigil.url, SHOTS);
  });

  after(async () => {
    await browser?.close();
    await receiver?.close();
    await vigil?.stop();
  });

  const settings = (page: string) => `/projects/${seed.project}/settings/${page}`;

  /** No sideways scroll at 390 px and no serious axe finding there or at 1280 px; a screenshot at each. */
  async function fitsBothWidths(page: Page, name: string) {
    await page.setViewportSize({ width: 390, height: 844 });
    expect(Number(await page.evaluate('document.documentElement.scrollWidth')), `${name} at 390 px`).to.be.at.most(390);
    await browser!.accessible(page);
    await browser!.shoot(page, `${name}-390`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await browser!.accessible(page);
    await browser!.shoot(page, `${name}-1280`);
  }

  it('creates a webhook channel, refusing a bad URL in the form\'s words with what was typed kept, and sends a test message that is plainly a test', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, settings('channels'));
    await fitsBothWidths(page, 'channels-empty');
    expect(await page.locator('.type-choice', { hasText: 'Slack' }).innerText()).to.contain('Posts each page into a Slack channel');

    await page.getByRole('link', { name: 'Add Webhook' }).click();
    expect(await page.locator('.type-does').innerText()).to.contain('signed with a secret');
    expect(await page.getByLabel('Webhook URL').getAttribute('type')).to.equal('text');
    await page.getByLabel('Name', { exact: true }).fill('Ops webhook');
    await page.getByLabel('Webhook URL').fill('not a url');
    await page.getByRole('button', { name: 'Create channel' }).click();
    const summary = await page.locator('.error-summary').innerText();
    expect(summary).to.contain('Webhook URL must be an http or https URL');
    expect(summary).to.not.contain('config.');
    expect(await page.locator('.error-summary a').getAttribute('href')).to.equal('#config-url');
    expect(await page.getByLabel('Webhook URL').inputValue()).to.equal('not a url');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).to.equal('Ops webhook');
    await fitsBothWidths(page, 'channel-form-error');

    await page.getByLabel('Webhook URL').fill(`${receiver!.url}/hook/first`);
    await page.getByRole('button', { name: 'Create channel' }).click();
    seed.secret = await page.locator('#signing-secret').innerText();
    expect(seed.secret).to.match(/^whsec_/);
    await fitsBothWidths(page, 'channel-created');
    await page.getByRole('link', { name: 'Done' }).click();
    const row = page.locator('tr', { hasText: 'Ops webhook' });
    seed.channel = (await row.getAttribute('data-channel-id'))!;
    expect(await row.innerText()).to.contain('Webhook URL');
    expect(await page.content()).to.not.contain('/hook/first');
    expect(await page.content()).to.not.contain(seed.secret);

    await row.getByRole('button', { name: 'Send test message' }).click();
    await page.locator('.notice', { hasText: 'Test message delivered to Ops webhook.' }).waitFor();
    const [delivery] = at('/hook/first');
    const body = verified(seed.secret, delivery!);
    expect(body).to.deep.equal({
      event: 'channel.test', test: true, channel: { id: seed.channel, name: 'Ops webhook' }, project_id: seed.project, occurred_at: body['occurred_at'],
    });
    expect(body).to.not.have.property('incident');
    expect(delivery!.body).to.not.contain('"incident"');
    await fitsBothWidths(page, 'channels');
    await context.close();
  });

  it('edits a channel: a blank URL keeps the stored one and the signing secret, a typed one replaces it, a bad one is refused and kept', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, settings('channels'));
    await page.locator('tr', { hasText: 'Ops webhook' }).getByRole('link', { name: 'Edit' }).click();
    expect(await page.getByLabel('Webhook URL').inputValue()).to.equal('');
    expect(await page.getByLabel('Webhook URL').getAttribute('placeholder')).to.equal('unchanged — type to replace');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).to.equal('Ops webhook');
    await fitsBothWidths(page, 'channel-edit');

    await page.getByLabel('Name', { exact: true }).fill('Ops on call');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.notice', { hasText: 'Channel saved.' }).waitFor();
    await page.locator('tr', { hasText: 'Ops on call' }).getByRole('button', { name: 'Send test message' }).click();
    await page.locator('.notice', { hasText: 'Test message delivered to Ops on call.' }).waitFor();
    // The stored URL and secret were kept: the same receiver path, a signature the first secret verifies.
    const [, again] = at('/hook/first');
    expect(verified(seed.secret, again!)).to.deep.include({ test: true, channel: { id: seed.channel, name: 'Ops on call' } });

    await page.locator('tr', { hasText: 'Ops on call' }).getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Webhook URL').fill('ftp://example.com/nope');
    await page.getByRole('button', { name: 'Save changes' }).click();
    expect(await page.locator('.error-summary').innerText()).to.contain('Webhook URL must be an http or https URL');
    expect(await page.getByLabel('Webhook URL').inputValue()).to.equal('ftp://example.com/nope');
    expect(await page.getByLabel('Webhook URL').getAttribute('aria-invalid')).to.equal('true');
    await page.getByLabel('Webhook URL').fill(`${receiver!.url}/hook/second`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('.notice', { hasText: 'Channel saved.' }).waitFor();
    await page.locator('tr', { hasText: 'Ops on call' }).getByRole('button', { name: 'Send test message' }).click();
    await page.locator('.notice', { hasText: 'Test message delivered' }).waitFor();
    expect(at('/hook/first')).to.have.length(2);
    const [moved] = at('/hook/second');
    expect(verified(seed.secret, moved!)).to.deep.include({ test: true });
    await context.close();
  });

  it('says why a test message did not arrive', async () => {
    const created = await vigil.request('POST', '/v1/notification-channels', {
      key: seed.ownerKey, body: { project_id: seed.project, name: 'Closed port', type: 'SLACK', config: { webhook_url: 'http://127.0.0.1:9/hook' } },
    });
    expect(created.status).to.equal(201);
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, settings('channels'));
    await page.locator('tr', { hasText: 'Closed port' }).getByRole('button', { name: 'Send test message' }).click();
    await page.locator('.error-summary').waitFor();
    expect(await page.locator('.error-summary').innerText()).to.contain('The test message to Closed port was not delivered');
    await browser!.shoot(page, 'channel-test-failed');
    expect((await vigil.request('DELETE', `/v1/notification-channels/${created.body.channel.id}`, { key: seed.ownerKey })).status).to.equal(204);
    await context.close();
  });

  it('refuses an Email channel on a server without SMTP, in the API and the console alike', async () => {
    const api = await vigil.request('POST', '/v1/notification-channels', { key: seed.ownerKey, body: { project_id: seed.project, name: 'Mail', type: 'EMAIL', config: { to: ['ops@example.com'] } } });
    expect(api.status).to.equal(400);
    expect(api.body.error).to.match(/^type EMAIL is not available on this server: .*SMTP/);
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, settings('channels'));
    const email = page.locator('.type-choice', { hasText: 'Email' });
    expect(await email.innerText()).to.contain('Not available here: email is sent through an SMTP server and this Vigil has none');
    expect(await email.getByRole('link').count()).to.equal(0);
    const direct = await page.goto(`${vigil.url}${settings('channels')}/new?type=EMAIL`);
    expect(direct!.status()).to.equal(400);
    expect(await page.locator('main').innerText()).to.contain('SMTP');
    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const forged = await context.request.post(`${vigil.url}${settings('channels')}`, { form: { csrf_token: token, type: 'EMAIL', name: 'Mail', config_to: 'ops@example.com' }, maxRedirects: 0 });
    expect(forged.status()).to.equal(400);
    expect(await forged.text()).to.contain('Type EMAIL is not available on this server');
    const channels = await vigil.request('GET', `/v1/notification-channels?project_id=${seed.project}`, { key: seed.ownerKey });
    expect(channels.body.map((c: { type: string }) => c.type)).to.not.include('EMAIL');
    await context.close();
  });

  it('deletes a channel only after a confirmation that names the groups and monitors routed to it; Cancel keeps it', async () => {
    const group = (await vigil.request('POST', '/v1/notification-groups', { key: seed.ownerKey, body: { project_id: seed.project, name: 'Night shift' } })).body.group.id;
    expect((await vigil.request('POST', `/v1/notification-groups/${group}/channels`, { key: seed.ownerKey, body: { channel_id: seed.channel } })).status).to.equal(204);
    const monitor = await vigil.request('POST', '/v1/monitors', {
      key: seed.ownerKey, body: { project_id: seed.project, name: 'Ledger export', type: 'JOB_BASIC', schedule: 'x', notification_group_ids: [group] },
    });
    expect(monitor.status).to.equal(201);
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, settings('channels'));
    await page.locator('tr', { hasText: 'Ops on call' }).getByRole('link', { name: 'Delete…' }).click();
    const text = await page.locator('main').innerText();
    expect(text).to.contain('Delete the channel Ops on call?');
    expect(text).to.contain('The group Night shift loses it; its monitor Ledger export stops paging through it.');
    await fitsBothWidths(page, 'channel-delete-confirm');
    await page.getByRole('link', { name: 'Cancel' }).click();
    expect(await page.locator('tr', { hasText: 'Ops on call' }).count()).to.equal(1);

    await page.locator('tr', { hasText: 'Ops on call' }).getByRole('link', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete the channel' }).click();
    await page.locator('.notice', { hasText: 'Channel deleted.' }).waitFor();
    expect(await page.locator('tr', { hasText: 'Ops on call' }).count()).to.equal(0);
    expect((await vigil.request('GET', `/v1/notification-channels/${seed.channel}`, { key: seed.ownerKey })).status).to.equal(404);
    expect((await vigil.request('GET', `/v1/notification-groups/${group}`, { key: seed.ownerKey })).body.group.channel_count).to.equal(0);
    await context.close();
  });

  it('shows a READONLY member no add, edit, test or delete, and answers their forged POSTs with 403', async () => {
    const created = await vigil.request('POST', '/v1/notification-channels', {
      key: seed.ownerKey, body: { project_id: seed.project, name: 'Chat', type: 'SLACK', config: { webhook_url: `${receiver!.url}/slack` } },
    });
    const channel = created.body.channel.id;
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.readerKey, settings('channels'));
    expect(await page.locator('tr', { hasText: 'Chat' }).count()).to.equal(1);
    for (const name of ['Edit', 'Delete…', 'Add Webhook']) expect(await page.getByRole('link', { name }).count(), name).to.equal(0);
    expect(await page.getByRole('button', { name: 'Send test message' }).count()).to.equal(0);
    await fitsBothWidths(page, 'channels-readonly');
    expect((await page.goto(`${vigil.url}${settings('channels')}/${channel}/edit`))!.status()).to.equal(403);
    expect((await page.goto(`${vigil.url}${settings('channels')}/${channel}/delete`))!.status()).to.equal(403);
    await page.goto(`${vigil.url}${settings('channels')}`);
    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const forged = async (path: string, form: Record<string, string>) =>
      (await context.request.post(`${vigil.url}${path}`, { form: { csrf_token: token, ...form }, maxRedirects: 0 })).status();
    expect(await forged(settings('channels'), { type: 'WEBHOOK', name: 'Forged', config_url: `${receiver!.url}/forged` })).to.equal(403);
    expect(await forged(`${settings('channels')}/${channel}`, { name: 'Forged', config_webhook_url: `${receiver!.url}/forged` })).to.equal(403);
    expect(await forged(`${settings('channels')}/${channel}/test`, {})).to.equal(403);
    expect(await forged(`${settings('channels')}/${channel}/delete`, {})).to.equal(403);
    expect(received.filter((r) => r.url === '/forged' || r.url === '/slack')).to.deep.equal([]);
    expect((await vigil.request('GET', `/v1/notification-channels/${channel}`, { key: seed.ownerKey })).body.channel.name).to.equal('Chat');
    await context.close();
  });

  it('made every request to the server itself, and no script dialog ever opened', () => {
    expect(browser!.elsewhere()).to.deep.equal([]);
    expect(browser!.dialogs).to.deep.equal([]);
  });
});
