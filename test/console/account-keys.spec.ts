import { expect } from 'chai';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { personWithPassword } from '../support/people.js';
import { TestVigil } from '../support/test-vigil.js';

describe('Console: the account\'s own API keys in a real browser', function () {
  this.timeout(120_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  const seed = {} as { ops: string; readOnly: string };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the account keys browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    const { userId } = await personWithPassword(vigil, 'ada@example.com', 'correct horse battery staple', 'Team');
    const other = await vigil.user('grace@example.com');
    seed.ops = await vigil.project(other, 'Ops');
    seed.readOnly = await vigil.project(other, 'Finance');
    await vigil.member(seed.ops, userId, 'MANAGER');
    await vigil.member(seed.readOnly, userId, 'READONLY');
    await vigil.settle();
    browser = await ConsoleBrowser.launch(vigil.url, 'account-keys');
  });

  after(async () => {
    await browser?.close();
    await vigil?.stop();
  });

  it('lists, creates (account and project keys, shown once) and revokes the person\'s own keys, from /account', async () => {
    const context = await browser!.context();
    const page = await browser!.signInWithPassword(context, 'ada@example.com', 'correct horse battery staple', '/account');
    await page.getByRole('link', { name: 'Manage API keys' }).click();
    await page.waitForURL((url) => url.pathname === '/account/api-keys');
    expect(await page.locator('.empty').innerText()).to.equal('No keys.');
    // Only the projects the person manages or owns can have a key bound to them.
    expect(await page.locator('#key-project option').allInnerTexts()).to.have.members(['Team', 'Ops']);
    await browser!.accessible(page);

    await page.getByLabel('Name', { exact: true }).fill('CI deploys');
    await page.getByLabel('manage_monitors').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const accountKey = await page.locator('#new-api-key').innerText();
    expect(accountKey).to.match(/^vgl_live_[0-9A-Za-z]{26}$/);
    await browser!.accessible(page);
    const used = await vigil.request('GET', '/v1/api-keys', { key: accountKey });
    expect(used.status).to.equal(200);
    expect(used.body.api_keys[0]).to.deep.include({ name: 'CI deploys', kind: 'account', scopes: ['read', 'manage_monitors'] });

    await page.getByRole('link', { name: 'Done, I have copied it' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Ops heartbeat');
    await page.getByLabel('One project, to read it and manage its monitors (for a server or CI job)').check();
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Ops' });
    await page.getByLabel('Expires after (days)').fill('7');
    await page.getByRole('button', { name: 'Create key' }).click();
    const projectKey = await page.locator('#new-api-key').innerText();
    expect((await vigil.request('GET', `/v1/projects/${seed.ops}`, { key: projectKey })).status).to.equal(200);
    expect((await vigil.request('GET', `/v1/projects/${seed.readOnly}`, { key: projectKey })).status).to.equal(404);

    await vigil.settle();
    await page.goto(`${vigil.url}/account/api-keys`);
    expect(await page.content()).to.not.contain(accountKey);
    const ciRow = page.locator('tr', { hasText: 'CI deploys' });
    const opsRow = page.locator('tr', { hasText: 'Ops heartbeat' });
    expect(await ciRow.innerText()).to.contain('just now');
    expect(await opsRow.innerText()).to.match(/Project Ops/);
    await browser!.shoot(page, 'account-keys-1280');
    await browser!.accessible(page);

    await opsRow.getByRole('link', { name: 'Revoke…' }).click();
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await page.locator('.notice', { hasText: 'API key revoked.' }).waitFor();
    expect(await page.locator('tr', { hasText: 'Ops heartbeat' }).innerText()).to.contain('Revoked');
    expect((await vigil.request('GET', `/v1/projects/${seed.ops}`, { key: projectKey })).status).to.equal(401);
    expect((await vigil.request('GET', '/v1/api-keys', { key: accountKey })).status).to.equal(200);
    await context.close();
  });

  it('fits a phone at 390 px, and the account page counts the live keys', async () => {
    const context = await browser!.context({ width: 390 });
    const page = await browser!.signInWithPassword(context, 'ada@example.com', 'correct horse battery staple', '/account');
    expect(await page.locator('section', { has: page.locator('h2#api-keys') }).innerText()).to.contain('1 live key.');
    await page.goto(`${vigil.url}/account/api-keys`);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), 'scrolls sideways at 390 px').to.equal(true);
    await browser!.accessible(page);
    await browser!.shoot(page, 'account-keys-390');
    await context.close();
  });

  it('shows the form again on a refused key, saying why beside the field, keeping what was typed', async () => {
    const context = await browser!.context();
    const page = await browser!.signInWithPassword(context, 'ada@example.com', 'correct horse battery staple', '/account/api-keys');
    await page.getByLabel('Expires after (days)').fill('12');
    await page.getByLabel('manage_monitors').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('.error-summary').waitFor();
    expect(await page.locator('#key-name-error').innerText()).to.match(/Enter a name for the key/);
    expect(await page.getByLabel('Expires after (days)').inputValue()).to.equal('12');
    expect(await page.getByLabel('manage_monitors').isChecked()).to.equal(true);
    await browser!.accessible(page);
    await browser!.shoot(page, 'account-keys-error');

    await page.getByLabel('Name', { exact: true }).fill('Too long');
    await page.getByLabel('Expires after (days)').fill('400');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#key-days-error').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).to.equal('Too long');
    expect(await page.locator('#new-api-key').count()).to.equal(0);
    await context.close();
  });

  it('refuses a project key for a project the person only reads', async () => {
    const context = await browser!.context();
    const page = await browser!.signInWithPassword(context, 'ada@example.com', 'correct horse battery staple', '/account/api-keys');
    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const answer = await page.request.post(`${vigil.url}/account/api-keys`, { form: { csrf_token: token, name: 'sneaky', expires_in_days: '7', kind: 'project', project_id: seed.readOnly } });
    expect(answer.status()).to.be.oneOf([403, 404]);
    await vigil.settle();
    const { findUserByEmail, listApiKeys } = await import('../../src/queries/identity.js');
    const ada = (await findUserByEmail(vigil.vigil.stores.readModels, 'ada@example.com'))!;
    expect((await listApiKeys(vigil.vigil.stores.readModels, ada.id, null)).map((k) => k.name)).to.not.include('sneaky');
    await context.close();
  });
});
