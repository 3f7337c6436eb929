import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumUnavailable } from '../support/chromium.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const ARTIFACTS = path.resolve('test-artifacts');

describe('The /docs explorer in a real browser', function () {
  this.timeout(60_000);
  let vigil: TestVigil;
  let browser: Browser | undefined;

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the /docs browser test: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await vigil?.stop();
  });

  it('loads from local assets, takes an API key, runs GET /v1/projects and shows the 200', async () => {
    const ownerId = await vigil.user('explorer@example.com');
    const key = await vigil.accountKey(ownerId, ALL_SCOPES);
    await vigil.request('POST', '/v1/projects', { key, body: { name: 'Seen in the browser' } });

    const page = await browser!.newPage({ viewport: { width: 1280, height: 1000 } });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${vigil.url}/docs`);

    await page.locator('.btn.authorize').first().click();
    await page.locator('.auth-container input').fill(key);
    await page.locator('.auth-btn-wrapper .btn.authorize').click();
    await page.locator('.auth-btn-wrapper .btn-done').click();

    const operation = page.locator('#operations-Projects-getProjects');
    await operation.locator('.opblock-summary').click();
    await operation.locator('.btn.execute').click();

    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    expect((await status.innerText()).trim()).to.equal('200');
    expect(await operation.locator('.live-responses-table .microlight, .live-responses-table pre').first().innerText()).to.contain('Seen in the browser');

    mkdirSync(ARTIFACTS, { recursive: true });
    await status.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-explorer.png') });

    // Everything came from Vigil itself: no CDN, no validator badge, no calls home.
    const elsewhere = requested.filter((url) => !url.startsWith(vigil.url) && !url.startsWith('data:'));
    expect(elsewhere).to.deep.equal([]);
    expect(requested).to.include(`${vigil.url}/docs/assets/swagger-ui-bundle.js`);
    expect(requested).to.include(`${vigil.url}/openapi.json`);
  });
});
