import { expect } from 'chai';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { type SeenRequest, type Target, startTarget } from '../support/http-targets.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Console settings in a real browser', function () {
  this.timeout(120_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  let receiver: Target | undefined;
  const received: SeenRequest[] = [];
  const seed = {} as { ownerKey: string; readerKey: string; project: string; colleague: string };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the console settings browser tests: ${unavailable}`);
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
    seed.colleague = await vigil.user('colleague@example.com');
    seed.ownerKey = await vigil.accountKey(owner, ALL_SCOPES);
    seed.readerKey = await vigil.accountKey(reader, ALL_SCOPES);
    const created = await vigil.request('POST', '/v1/projects', { key: seed.ownerKey, body: { name: 'Payments' } });
    seed.project = created.body.project.id;
    expect((await vigil.request('POST', `/v1/projects/${seed.project}/members`, { key: seed.ownerKey, body: { user_id: reader, role: 'READONLY' } })).status).to.equal(201);
    browser = await ConsoleBrowser.launch(vigil.url, 'console-settings');
  });

  after(async () => {
    await browser?.close();
    await receiver?.close();
    await vigil?.stop();
  });

  const settings = (page: string) => `/projects/${seed.project}/settings/${page}`;

  it('creates an API key and shows it once: it works, a reload of the list does not show it, and it can be revoked after a confirm step', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, settings('keys'));
    await browser!.accessible(page);
    await page.getByLabel('Name', { exact: true }).fill('Deploy script');
    await page.getByLabel('Expires after (days)').fill('30');
    await page.getByLabel('manage_monitors').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('#new-api-key').innerText();
    expect(key).to.match(/^vgl_/);
    expect(await page.locator('.warning-text').innerText()).to.contain('shown this once');
    await browser!.shoot(page, 'key-created');
    await browser!.accessible(page);
    const works = await vigil.request('GET', '/v1/api-keys', { key });
    expect(works.status).to.equal(200);

    await page.goto(`${vigil.url}${settings('keys')}`);
    expect(await page.content()).to.not.contain(key);
    const row = page.locator('tr', { hasText: 'Deploy script' });
    expect(await row.innerText()).to.contain('manage_monitors');
    await browser!.shoot(page, 'keys');

    await row.getByRole('link', { name: 'Revoke…' }).click();
    expect(await page.locator('h2', { hasText: 'Revoke the key Deploy script?' }).count()).to.equal(1);
    await browser!.accessible(page);
    await browser!.shoot(page, 'key-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await page.locator('.notice', { hasText: 'API key revoked.' }).waitFor();
    expect(await page.locator('tr', { hasText: 'Deploy script' }).innerText()).to.contain('Revoked');
    expect((await vigil.request('GET', '/v1/api-keys', { key })).status).to.equal(401);
    await context.close();
  });

  it('signs the browser out, saying why, when it revokes the key of its own session', async () => {
    const created = await vigil.request('POST', '/v1/api-keys', { key: seed.ownerKey, body: { name: 'Laptop browser', expires_in_days: 7, scopes: ['read'] } });
    expect(created.status).to.equal(201);
    const context = await browser!.context();
    const page = await browser!.signIn(context, created.body.key, settings('keys'));
    const row = page.locator('tr', { hasText: 'Laptop browser' });
    expect(await row.innerText()).to.contain('this session');
    await row.getByRole('link', { name: 'Revoke…' }).click();
    expect(await page.locator('.warning-text').innerText()).to.contain('signs you out');
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await page.waitForURL(/\/sign-in/);
    expect(await page.locator('.notice').innerText()).to.contain('revoked');
    await context.close();
  });

  it('invites by email (the link shown once), changes a member role and removes them; the owner has no remove button', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, settings('members'));
    expect(await page.locator('tr', { hasText: 'owner@example.com' }).getByRole('button', { name: 'Remove' }).count()).to.equal(0);
    // A colleague who already has an account joins (invitations are specced in test/api/invitations.spec.ts).
    const added = await vigil.request('POST', `/v1/projects/${seed.project}/members`, { key: seed.ownerKey, body: { user_id: seed.colleague, role: 'MEMBER' } });
    expect(added.status).to.equal(201);
    await page.reload();

    const row = page.locator(`tr[data-user-id="${seed.colleague}"]`);
    await row.getByLabel('Role of colleague@example.com').selectOption('MANAGER');
    await row.getByRole('button', { name: 'Change role' }).click();
    await page.locator('.notice', { hasText: 'Role changed.' }).waitFor();
    const member = await vigil.request('GET', `/v1/projects/${seed.project}`, { key: seed.ownerKey });
    expect(member.body.project.members.find((m: { user_id: string }) => m.user_id === seed.colleague).role).to.equal('MANAGER');
    await browser!.shoot(page, 'members');
    await browser!.accessible(page);

    await page.locator(`tr[data-user-id="${seed.colleague}"]`).getByRole('button', { name: 'Remove' }).click();
    await page.locator('.notice', { hasText: 'Member removed.' }).waitFor();
    expect(await page.locator(`tr[data-user-id="${seed.colleague}"]`).count()).to.equal(0);

    // An address with no account is invited all the same: the page says nothing of who has one.
    await page.getByLabel('Email address').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.locator('.notice', { hasText: 'Invitation for nobody@example.com created.' }).waitFor();
    expect(await page.locator('#invitation-link').innerText()).to.match(/\/invitations\/[A-Za-z0-9_-]{20,}$/);
    expect(await page.locator('main').innerText()).not.to.contain('No user has');
    await context.close();
  });

  it('shows a READONLY member no key or member buttons, and refuses their forged POSTs', async () => {
    // Channels and groups: test/console/channels.spec.ts and groups-projects.spec.ts.
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.readerKey, settings('members'));
    expect(await page.getByRole('button', { name: 'Invite' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Change role' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Remove' }).count()).to.equal(0);
    await page.goto(`${vigil.url}${settings('keys')}`);
    expect(await page.getByRole('button', { name: 'Create key' }).count()).to.equal(0);
    await browser!.shoot(page, 'keys-readonly');

    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const forged = async (path: string, form: Record<string, string>) =>
      (await context.request.post(`${vigil.url}${path}`, { form: { csrf_token: token, ...form }, maxRedirects: 0 })).status();
    expect(await forged(settings('invitations'), { email: 'colleague@example.com', role: 'MANAGER' })).to.equal(403);
    expect(await forged(settings('keys'), { name: 'Forged', expires_in_days: '5', kind: 'account', scopes: 'read' })).to.equal(403);
    await context.close();
  });

  it('made every request to the server itself, and no script dialog ever opened', () => {
    expect(browser!.requested.length).to.be.greaterThan(20);
    expect(browser!.elsewhere()).to.deep.equal([]);
    expect(browser!.dialogs).to.deep.equal([]);
  });
});
