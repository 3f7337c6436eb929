import { mkdirSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import Koa from 'koa';
import type { Page } from 'playwright-core';
import { browserErrors } from '../../src/console/browser-errors.js';
import { HttpError, errorMiddleware } from '../../src/web/errors.js';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { capturedLog } from '../support/captured-log.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const SHOTS = '/tmp/shots-truth';

/** What a page must have to be a page: its status, a title, a language, and a way back. */
async function expectErrorPage(page: Page, status: number, response: { status(): number; headers(): Record<string, string> } | null, title: RegExp): Promise<void> {
  expect(response!.status()).to.equal(status);
  expect(response!.headers()['content-type']).to.match(/^text\/html/);
  expect(await page.title()).to.match(title);
  expect(await page.locator('html').getAttribute('lang')).to.equal('en');
  expect(await page.locator('h1').innerText()).to.match(title);
  expect(await page.getByRole('link', { name: 'Back to your projects' }).getAttribute('href')).to.equal('/');
}

describe('A browser never gets JSON, in a real browser', function () {
  this.timeout(180_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  const seed = {} as { key: string; project: string; monitor: string };

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the error page browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    seed.key = await vigil.accountKey(await vigil.user('owner@example.com'), ALL_SCOPES);
    seed.project = (await vigil.request('POST', '/v1/projects', { key: seed.key, body: { name: 'Shop' } })).body.project.id;
    seed.monitor = (await vigil.request('POST', '/v1/monitors', { key: seed.key, body: { project_id: seed.project, name: 'Backup', type: 'JOB_BASIC', schedule: 'x' } })).body.monitor.id;
    expect((await fetch(`${vigil.url}/v1/ping/${seed.monitor}`)).status).to.equal(200);
    await vigil.settle();
    browser = await ConsoleBrowser.launch(vigil.url, 'error-pages');
    mkdirSync(SHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await vigil?.stop();
  });

  it('answers an unknown page with an HTML 404 to a browser, and the same { error } JSON as before to API clients', async () => {
    const context = await browser!.context({ width: 390 });
    const page = await context.newPage();
    const response = await page.goto(`${vigil.url}/no/such/page`);
    await expectErrorPage(page, 404, response, /Page not found/);
    expect(await page.locator('main').innerText()).to.contain('There is no page at /no/such/page.');
    expect(await page.content()).to.not.contain('"error"');
    await browser!.accessible(page);
    await page.screenshot({ path: `${SHOTS}/error-404-390.png`, fullPage: true });

    for (const accept of [undefined, '*/*', 'application/json']) {
      const api = await vigil.request('GET', '/no/such/page', accept ? { headers: { Accept: accept } } : {});
      expect(api.status, accept).to.equal(404);
      expect(api.body, accept).to.deep.equal({ error: 'no route for GET /no/such/page' });
    }
    // Under /v1 a browser's Accept changes nothing: the API answers JSON.
    const v1 = await fetch(`${vigil.url}/v1/no-such-thing`, { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(v1.status).to.equal(404);
    expect(v1.headers.get('content-type')).to.match(/^application\/json/);
    expect(await v1.json()).to.deep.equal({ error: 'no route for GET /v1/no-such-thing' });
    // A method the path does not take: a page too.
    const put = await fetch(`${vigil.url}/sign-in`, { method: 'PUT', headers: { Accept: 'text/html' } });
    expect(put.status).to.equal(405);
    expect(put.headers.get('content-type')).to.match(/^text\/html/);
    expect(await put.text()).to.match(/<html lang="en">/);
    await context.close();
  });

  it('answers a form from another session (its CSRF token stale) with an HTML 403 and a way back', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.key, `/monitors/${seed.monitor}`);
    // As a form left open in a tab across a sign-out and a new sign-in would send it.
    await page.locator('form[action$="/pause"] input[name="csrf_token"]').evaluate((input) => input.setAttribute('value', 'stale'));
    const [response] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Pause monitoring' }).click()]);
    await expectErrorPage(page, 403, response, /You cannot do that/);
    expect(await page.locator('main').innerText()).to.contain('This form has expired');
    await browser!.accessible(page);
    await page.screenshot({ path: `${SHOTS}/error-403-1280.png`, fullPage: true });
    await context.close();
  });

  it('downloads the audit export with the session: the API\'s events, no X-API-Key asked', async () => {
    const context = await browser!.context();
    const page = await browser!.signIn(context, seed.key, `/projects/${seed.project}/audit`);
    for (const link of await page.locator('main a[href]').all()) expect(await link.getAttribute('href')).to.not.match(/^\/v1\//);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the events (NDJSON)' }).click()]);
    expect(download.suggestedFilename()).to.equal(`vigil-project-${seed.project}-events.ndjson`);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; id: string });
    const api = (await vigil.request('GET', `/v1/projects/${seed.project}/events?limit=200`, { key: seed.key })).body.data as { type: string; id: string }[];
    expect(lines.map((e) => e.id)).to.deep.equal(api.map((e) => e.id));
    expect(lines.map((e) => e.type)).to.include('MonitorCreated');
    // Without a session the route is the console's: sign in first, never JSON.
    const anonymous = await fetch(`${vigil.url}/projects/${seed.project}/audit/export`, { redirect: 'manual', headers: { Accept: 'text/html' } });
    expect(anonymous.status).to.equal(303);
    expect(anonymous.headers.get('location')).to.match(/^\/sign-in\?next=/);
    await context.close();
  });

  describe('a 500 and a 503 outside the API', () => {
    let server: Server;
    let url: string;
    const log = capturedLog('error');

    before(async () => {
      const app = new Koa();
      app.use(browserErrors());
      app.use(errorMiddleware(log.logger));
      app.use((ctx) => {
        if (ctx.path === '/broken') throw new Error('a bug');
        if (ctx.path === '/busy') throw new HttpError(503, 'the read models are not ready yet', null, { 'Retry-After': '1' });
        if (ctx.path === '/v1/broken') throw new Error('a bug');
        ctx.body = 'ok';
      });
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Koa's callback answers its own errors
      server = createServer(app.callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('shows a browser a page for each, and keeps the API\'s JSON for the API', async () => {
      const context = await browser!.context({ width: 390 });
      const page = await context.newPage();
      const broken = await page.goto(`${url}/broken`);
      await expectErrorPage(page, 500, broken, /Something went wrong/);
      expect(await page.locator('main').innerText()).to.not.contain('a bug');
      await page.screenshot({ path: `${SHOTS}/error-500-390.png`, fullPage: true });
      const busy = await page.goto(`${url}/busy`);
      await expectErrorPage(page, 503, busy, /Not ready yet/);
      expect(busy!.headers()['retry-after']).to.equal('1');
      expect(await page.locator('main').innerText()).to.contain('reload this page in a few seconds');
      await page.screenshot({ path: `${SHOTS}/error-503-390.png`, fullPage: true });
      const api = await fetch(`${url}/v1/broken`, { headers: { Accept: 'text/html' } });
      expect(api.status).to.equal(500);
      expect(await api.json()).to.deep.equal({ error: 'internal error' });
      const json = await fetch(`${url}/busy`, { headers: { Accept: 'application/json' } });
      expect(await json.json()).to.deep.equal({ error: 'the read models are not ready yet' });
      await context.close();
    });
  });
});
