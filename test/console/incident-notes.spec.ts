import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const XSS = '<img src=x onerror=alert(1)>';

describe('Incident notes in the web console', function () {
  this.timeout(120_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  const seed = {} as { ownerKey: string; readerKey: string; monitor: string; incident: string };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the incident notes browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    const reader = await vigil.user('reader@example.com');
    seed.ownerKey = await vigil.accountKey(owner, ALL_SCOPES);
    seed.readerKey = await vigil.accountKey(reader, ALL_SCOPES);
    const key = seed.ownerKey;
    const project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Nightly jobs' } })).body.project.id;
    expect((await vigil.request('POST', `/v1/projects/${project}/members`, { key, body: { user_id: reader, role: 'READONLY' } })).status).to.equal(201);
    seed.monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project, name: 'Database backup', type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor.id;
    await vigil.request('GET', `/v1/ping/${seed.monitor}/fail?exit_code=3`);
    await vigil.settle();
    seed.incident = (await vigil.request('GET', `/v1/monitors/${seed.monitor}/incidents`, { key })).body.data[0].id;
    browser = await ConsoleBrowser.launch(vigil.url, 'console');
  });

  after(async () => {
    await browser?.close();
    await vigil?.stop();
  });

  async function signIn(key: string, start: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser!.context();
    return { context, page: await browser!.signIn(context, key, start) };
  }
  const shoot = (page: Page, name: string) => browser!.shoot(page, name);
  const accessible = (page: Page) => browser!.accessible(page);

  const notesOverApi = async () => (await vigil.request('GET', `/v1/incidents/${seed.incident}/notes`, { key: seed.ownerKey })).body.notes as { text: string; visibility: string; kind: string }[];

  it('adds an internal note by default, shown in the timeline as text even when it is markup', async () => {
    const { context, page } = await signIn(seed.ownerKey, `/incidents/${seed.incident}`);
    await page.getByRole('heading', { name: 'Add a note' }).waitFor();
    expect(await page.getByLabel('Internal').isChecked()).to.equal(true);
    // Its choice of readers is a group of radios under a legend, framed by nothing.
    const choice = page.getByRole('group', { name: 'Who may read it' });
    // Run in the page: its getComputedStyle, which this file's (DOM-less) types do not declare.
    const border = await choice.evaluate((fieldset) => (globalThis as unknown as { getComputedStyle: (e: unknown) => { borderTopStyle: string } }).getComputedStyle(fieldset).borderTopStyle);
    expect(border).to.equal('none');
    await accessible(page);
    await page.getByLabel('Note', { exact: true }).fill(`Restarting the host\n${XSS}`);
    await page.getByRole('button', { name: 'Add the note' }).click();
    await page.waitForURL(/done=noted/);
    expect(await page.locator('.notice').innerText()).to.equal('Note added.');
    const entry = page.locator('.timeline li.kind-note').last();
    expect(await entry.locator('.note-text').innerText()).to.equal(`Restarting the host\n${XSS}`);
    expect(await entry.locator('.what').innerText()).to.equal('Note by owner@example.com INTERNAL');
    expect(await entry.locator('.visibility').textContent()).to.equal('Internal');
    expect(await page.locator('main img').count()).to.equal(0);
    expect((await notesOverApi())[0]).to.include({ text: `Restarting the host\n${XSS}`, visibility: 'internal', kind: 'note' });

    await page.getByLabel('Note', { exact: true }).fill('Failing over to the replica; customers may see a short outage');
    await page.getByLabel('Public').check();
    await page.getByRole('button', { name: 'Add the note' }).click();
    await page.waitForURL(/done=noted/);
    expect(await page.locator('.timeline li.kind-note .visibility').allTextContents()).to.deep.equal(['Internal', 'Public']);
    expect(browser!.dialogs).to.deep.equal([]);
    await shoot(page, 'incident-notes');
    await accessible(page);
    await context.close();
  });

  it('sends an empty note back with an error that links to the field, and records nothing', async () => {
    const { context, page } = await signIn(seed.ownerKey, `/incidents/${seed.incident}`);
    const before = (await notesOverApi()).length;
    await page.getByLabel('Public').check();
    // Spaces only: the browser's `required` lets them through; the server does not.
    await page.getByLabel('Note', { exact: true }).fill('   ');
    await page.getByRole('button', { name: 'Add the note' }).click();
    await page.locator('.error-summary').waitFor();
    expect(await page.locator('.error-summary a').innerText()).to.equal('text must not be empty');
    expect(await page.locator('.error-summary a').getAttribute('href')).to.equal('#note-text');
    expect(await page.getByLabel('Public').isChecked()).to.equal(true);
    expect((await notesOverApi()).length).to.equal(before);
    await shoot(page, 'incident-note-error');
    await accessible(page);
    await context.close();
  });

  it('takes a note of 4000 characters that each take three bytes, percent-encoded in the form', async () => {
    const key = seed.ownerKey;
    const project = (await vigil.request('GET', `/v1/monitors/${seed.monitor}`, { key })).body.monitor.project_id;
    const monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project, name: 'Invoice export', type: 'JOB_BASIC', schedule: 'x', alert_enabled: false } })).body.monitor.id;
    await vigil.request('GET', `/v1/ping/${monitor}/fail`);
    await vigil.settle();
    const incident = (await vigil.request('GET', `/v1/monitors/${monitor}/incidents`, { key })).body.data[0].id;
    const { context, page } = await signIn(key, `/incidents/${incident}`);
    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const long = '€'.repeat(4000);
    const posted = await context.request.post(`${vigil.url}/incidents/${incident}/notes`, {
      form: { csrf_token: token, text: long, kind: 'note', visibility: 'internal' }, maxRedirects: 0,
    });
    expect(posted.status(), await posted.text()).to.equal(303);
    const notes = (await vigil.request('GET', `/v1/incidents/${incident}/notes`, { key })).body.notes;
    expect(notes.map((n: { text: string }) => n.text)).to.deep.equal([long]);
    await context.close();
  });

  it('shows a READONLY member the notes but no form, and refuses their forged note with 403', async () => {
    const { context, page } = await signIn(seed.readerKey, `/incidents/${seed.incident}`);
    expect(await page.locator('.timeline li.kind-note').count()).to.equal(2);
    expect(await page.locator('textarea').count()).to.equal(0);
    expect(await page.getByRole('heading', { name: 'Add a note' }).count()).to.equal(0);
    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const forged = await context.request.post(`${vigil.url}/incidents/${seed.incident}/notes`, {
      form: { csrf_token: token, text: 'Sneaky', kind: 'note', visibility: 'public' }, maxRedirects: 0,
    });
    expect(forged.status()).to.equal(403);
    expect(await forged.text()).to.contain('needs the MEMBER role');
    expect((await notesOverApi()).map((n) => n.text)).to.not.include('Sneaky');
    await shoot(page, 'incident-notes-readonly');
    await accessible(page);
    await context.close();
  });

  it('offers a postmortem once the incident is resolved, and shows it after the resolution', async () => {
    const { context, page } = await signIn(seed.ownerKey, `/incidents/${seed.incident}`);
    await page.getByRole('button', { name: 'Resolve' }).click();
    await page.waitForURL(/done=resolved/);
    expect(await page.getByRole('heading', { name: 'Add a note' }).count()).to.equal(0);
    await page.getByRole('heading', { name: 'Write a postmortem' }).waitFor();
    await page.getByLabel('Postmortem', { exact: true }).fill('The disk filled with WAL files.\n\nWe now alert at 80% full.');
    await page.getByLabel('Public').check();
    await page.getByRole('button', { name: 'Save the postmortem' }).click();
    await page.waitForURL(/done=postmortem/);
    expect(await page.locator('.notice').innerText()).to.equal('Postmortem saved.');
    const last = page.locator('.timeline li').last();
    expect(await last.locator('.what').innerText()).to.equal('Postmortem by owner@example.com PUBLIC');
    expect(await last.locator('.note-text').innerText()).to.equal('The disk filled with WAL files.\n\nWe now alert at 80% full.');
    expect((await notesOverApi()).map((n) => n.kind)).to.deep.equal(['note', 'note', 'postmortem']);
    await shoot(page, 'incident-postmortem');
    await accessible(page);
    await context.close();
  });

  it('made every request to the server itself, and no script dialog ever opened', () => {
    expect(browser!.requested.length).to.be.greaterThan(10);
    expect(browser!.elsewhere()).to.deep.equal([]);
    expect(browser!.dialogs).to.deep.equal([]);
  });
});
