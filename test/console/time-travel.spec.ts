import { expect } from 'chai';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

describe('Console time travel and audit in a real browser', function () {
  this.timeout(120_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  const seed = {} as { ownerKey: string; readerKey: string; project: string; monitor: string; incident: string; deleted: string; deletedIncident: string };
  /** Between the incident opening (12:10) and its acknowledgement (12:30). */
  const BEFORE_ACK = '2026-11-21T12:20:00.000Z';
  const BEFORE_INCIDENT = '2026-11-21T12:05:00.000Z';

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the console time travel browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    const owner = await vigil.user('owner@example.com');
    const reader = await vigil.user('reader@example.com');
    seed.ownerKey = await vigil.accountKey(owner, ALL_SCOPES);
    seed.readerKey = await vigil.accountKey(reader, ALL_SCOPES);
    const key = seed.ownerKey;
    seed.project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Batch jobs' } })).body.project.id;
    expect((await vigil.request('POST', `/v1/projects/${seed.project}/members`, { key, body: { user_id: reader, role: 'READONLY' } })).status).to.equal(201);
    seed.monitor = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: seed.project, name: 'Nightly export', type: 'JOB_HEARTBEAT', schedule: '1h' } })).body.monitor.id;
    // Fails with it at 12:10, and is deleted at 13:00.
    seed.deleted = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: seed.project, name: 'Old report', type: 'JOB_HEARTBEAT', schedule: '1h' } })).body.monitor.id;
    // 12:00 a success, 12:10 a failure opens an incident, 12:30 it is acknowledged; the browser looks at 13:00.
    expect((await fetch(`${vigil.url}/v1/ping/${seed.monitor}`)).status).to.equal(200);
    vigil.clock.advance(10 * 60_000);
    expect((await fetch(`${vigil.url}/v1/ping/${seed.monitor}/fail`)).status).to.equal(200);
    expect((await fetch(`${vigil.url}/v1/ping/${seed.deleted}/fail`)).status).to.equal(200);
    await vigil.settle();
    seed.deletedIncident = (await vigil.request('GET', `/v1/monitors/${seed.deleted}/incidents`, { key })).body.data[0].id;
    seed.incident = (await vigil.request('GET', `/v1/monitors/${seed.monitor}/incidents`, { key })).body.data[0].id;
    vigil.clock.advance(20 * 60_000);
    expect((await vigil.request('POST', `/v1/incidents/${seed.incident}/acknowledge`, { key })).status).to.equal(200);
    vigil.clock.advance(30 * 60_000);
    expect((await vigil.request('DELETE', `/v1/monitors/${seed.deleted}`, { key })).status).to.equal(204);
    browser = await ConsoleBrowser.launch(vigil.url, 'console-time-travel');
  });

  after(async () => {
    await browser?.close();
    await vigil?.stop();
  });

  it('shows an incident as it stood before its acknowledgement: unacknowledged, under the past banner, with no actions', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/incidents/${seed.incident}`);
    expect(await page.locator('h1 .status').innerText()).to.equal('ACKNOWLEDGED');
    await browser!.shoot(page, 'incident-now');

    await page.getByLabel('View as it stood at (UTC)').fill(BEFORE_ACK.slice(0, 19));
    await page.getByRole('button', { name: 'View the past' }).click();
    await page.waitForURL(`${vigil.url}/incidents/${seed.incident}?as_of=${encodeURIComponent(BEFORE_ACK)}`);
    const banner = page.getByRole('note', { name: 'Viewing the past' });
    expect(await banner.innerText()).to.contain('Viewing the past: as of Sat, 21 Nov 2026, 12:20 UTC');
    expect(await banner.innerText()).to.contain('your time');
    expect(await banner.getByRole('link', { name: 'Back to now' }).getAttribute('href')).to.equal(`/incidents/${seed.incident}`);
    expect(await page.locator('h1 .status').innerText()).to.equal('OPEN');
    expect(await page.locator('dl.facts').innerText()).to.match(/Acknowledged\s+not yet/);
    expect(await page.getByRole('button', { name: 'Acknowledge' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Resolve' }).count()).to.equal(0);
    expect(await page.locator('form[method="post"] input[name="csrf_token"]').count()).to.equal(1); // sign-out only
    expect(await page.locator('.timeline').innerText()).to.not.contain('IncidentAcknowledged');
    await browser!.shoot(page, 'incident-past');
    await browser!.accessible(page);
    await context.close();
  });

  it('shows the project as it stood: the monitor DOWN with its open incident then, UP before it, no sparklines and no live updates', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/projects/${seed.project}?as_of=${encodeURIComponent(BEFORE_ACK)}`);
    const row = page.locator(`tr[data-monitor-id="${seed.monitor}"]`);
    expect(await row.locator('.status').innerText()).to.equal('DOWN');
    expect(await row.locator('td.num').innerText()).to.equal('1');
    expect(await page.locator('[data-live-source]').count()).to.equal(0);
    expect(await page.locator('svg.sparkline').count()).to.equal(0);
    expect(await page.locator('.omitted').innerText()).to.contain('sparklines');
    expect(await page.getByRole('note', { name: 'Viewing the past' }).count()).to.equal(1);
    const nav = page.getByRole('navigation', { name: 'Project' });
    expect(await nav.getByRole('link').allInnerTexts()).to.deep.equal(['Monitors', 'Badges & status pages', 'Maintenance', 'Audit', 'Settings']);
    expect(await nav.getByRole('link', { name: 'Audit' }).getAttribute('href')).to.equal(`/projects/${seed.project}/audit`);
    await browser!.shoot(page, 'project-past');
    await browser!.accessible(page);

    await page.goto(`${vigil.url}/projects/${seed.project}?as_of=${encodeURIComponent(BEFORE_INCIDENT)}`);
    expect(await row.locator('.status').innerText()).to.equal('UP');
    expect(await row.locator('td.num').innerText()).to.equal('0');
    await context.close();
  });

  it('shows a monitor deleted since as its project recorded it, with its incidents as they stood then', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/projects/${seed.project}?as_of=${encodeURIComponent(BEFORE_ACK)}`);
    const row = page.locator(`tr[data-monitor-id="${seed.deleted}"]`);
    expect(await row.locator('.monitor-name').innerText()).to.equal('Old report');
    expect(await row.locator('.status').innerText()).to.equal('Deleted since');
    expect(await row.innerText()).to.contain('Sat, 21 Nov 2026, 13:00 UTC');
    expect(await row.locator('td.num').innerText()).to.equal('1');
    await browser!.shoot(page, 'project-past-deleted-monitor');
    await browser!.accessible(page);

    await page.goto(`${vigil.url}/incidents/${seed.deletedIncident}?as_of=${encodeURIComponent(BEFORE_ACK)}`);
    expect(await page.locator('h1 .status').innerText()).to.equal('OPEN');
    await page.goto(`${vigil.url}/projects/${seed.project}`);
    expect(await page.locator(`tr[data-monitor-id="${seed.deleted}"]`).count()).to.equal(0);
    await context.close();
  });

  it('keeps the past project view readable on a phone: at 390 px no monitor name or column heading breaks inside a word', async () => {
    const context = await browser!.context({ width: 390 });
    const page = await browser!.signIn(context, seed.ownerKey, `/projects/${seed.project}?as_of=${encodeURIComponent(BEFORE_ACK)}`);
    // A word laid out on two lines has two boxes.
    const wordsBroken = `[...document.querySelectorAll('.past-monitors thead th, .past-monitors .monitor-name')].flatMap((element) => {
      const text = element.firstChild;
      const broken = [];
      for (const match of text.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        if (range.getClientRects().length > 1) broken.push(match[0]);
      }
      return broken;
    })`;
    expect(await page.evaluate(wordsBroken)).to.deep.equal([]);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), 'scrolls sideways at 390 px').to.equal(true);
    // The banner's parts wrap onto lines of their own here: none is a bare separator left at a line's start.
    const bannerParts = `[...document.querySelector('.past-banner').children].filter((part) => part.getClientRects().length > 0).map((part) => part.textContent.trim())`;
    expect(await page.evaluate(bannerParts)).to.satisfy((parts: string[]) => parts.length >= 2 && parts.every((part) => /[A-Za-z]/.test(part)));
    await browser!.shoot(page, 'project-past-phone');
    await context.close();
  });

  it('answers a malformed or future instant with a 400 page that says why', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/projects/${seed.project}`);
    const bad = await page.goto(`${vigil.url}/projects/${seed.project}?as_of=yesterday`);
    expect(bad!.status()).to.equal(400);
    // Said in words first, then the field named as it is sent, not capitalised as a sentence would be.
    expect(await page.locator('main').innerText()).to.contain('The date in this link is not one Vigil can read: as_of must be an ISO 8601 date-time');
    // The way on is the page the link was for, as it is now.
    expect(await page.getByRole('link', { name: 'View this page as it is now' }).getAttribute('href')).to.equal(`/projects/${seed.project}`);
    await browser!.accessible(page);
    await browser!.shoot(page, 'as-of-bad');
    const twice = await page.goto(`${vigil.url}/projects/${seed.project}?as_of=2026-11-21T12:00:00Z&as_of=2026-11-21T13:00:00Z`);
    expect(twice!.status()).to.equal(400);
    expect(await page.locator('main').innerText()).to.contain('The link names more than one moment: as_of must be given once');
    const future = await page.goto(`${vigil.url}/incidents/${seed.incident}?as_of=2030-01-01T00:00:00Z`);
    expect(future!.status()).to.equal(400);
    expect(await page.locator('main').innerText()).to.contain('is in the future');
    await page.getByRole('link', { name: 'View this page as it is now' }).click();
    expect(new URL(page.url()).pathname).to.equal(`/incidents/${seed.incident}`);
    expect(await page.locator('h1').first().innerText()).to.not.contain('not right');
    await context.close();
  });

  it('shows, after Verify now, an intact chain checked by the signed-in owner, and never the server-wide log head', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.ownerKey, `/projects/${seed.project}`);
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.waitForURL(`${vigil.url}/projects/${seed.project}/audit`);
    expect(await page.locator('[data-head-position], dd.hash').count()).to.equal(0);
    expect(await page.locator('main').innerText()).to.contain('has not been checked yet');
    expect(await page.getByRole('link', { name: 'Download the events (NDJSON)' }).getAttribute('href')).to.equal(`/projects/${seed.project}/audit/export`);
    await browser!.accessible(page);

    await page.getByRole('button', { name: 'Verify now' }).click();
    await page.locator('.notice', { hasText: 'The log was checked' }).waitFor();
    expect(await page.locator('[data-check]').getAttribute('data-check')).to.equal('ok');
    const result = await page.locator('#check-title + dl').innerText();
    expect(result).to.contain('every event the log keeps, up to its head then');
    expect(result).to.contain('the console, by owner@example.com');
    await browser!.shoot(page, 'audit');
    await browser!.accessible(page);
    await context.close();
  });

  it('shows a READONLY member no Verify now button and refuses their forged POST', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.readerKey, `/projects/${seed.project}/audit`);
    expect(await page.getByRole('button', { name: 'Verify now' }).count()).to.equal(0);
    const token = await page.locator('input[name="csrf_token"]').first().inputValue();
    const forged = await context.request.post(`${vigil.url}/projects/${seed.project}/audit/verify`, { form: { csrf_token: token }, maxRedirects: 0 });
    expect(forged.status()).to.equal(403);
    await context.close();
  });

  it('made every request to the server itself', () => {
    expect(browser!.requested.length).to.be.greaterThan(10);
    expect(browser!.elsewhere()).to.deep.equal([]);
    expect(browser!.dialogs).to.deep.equal([]);
  });
});
