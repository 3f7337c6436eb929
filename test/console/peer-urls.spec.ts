import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { chromiumUnavailable } from '../support/chromium.js';
import { ConsoleBrowser } from '../support/console-browser.js';
import { curl } from '../support/curl.js';
import { ALL_SCOPES, TestVigil } from '../support/test-vigil.js';

const SHOTS = '/tmp/shots-peers';

describe("Other tools' ping URLs in a real browser", function () {
  this.timeout(180_000);
  let vigil: TestVigil;
  let browser: ConsoleBrowser | undefined;
  let key: string;
  let project: { id: string; ping_key: string };
  let monitorId: string;

  before(async function () {
    const unavailable = chromiumUnavailable();
    if (unavailable) {
      console.log(`      [skipped] the peer URL browser tests: ${unavailable}`);
      this.skip();
    }
    vigil = await TestVigil.start();
    key = await vigil.accountKey(await vigil.user('owner@example.com'), ALL_SCOPES, 365);
    project = (await vigil.request('POST', '/v1/projects', { key, body: { name: 'Acme' } })).body.project;
    monitorId = (await vigil.request('POST', '/v1/monitors', { key, body: { project_id: project.id, name: 'Nightly backup', slug: 'nightly-backup', type: 'JOB_CRON', schedule: '0 3 * * *' } })).body.monitor.id;
    browser = await ConsoleBrowser.launch(vigil.url, 'peers');
    mkdirSync(SHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await vigil?.stop();
  });

  const text = (page: Page, id: string) => page.locator(`#${id}`).innerText();
  const noSidewaysScroll = async (page: Page) => {
    const widths = await page.evaluate(() => {
      const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document.documentElement;
      return [root.scrollWidth, root.clientWidth];
    });
    expect(widths[0], 'the page does not scroll sideways').to.be.at.most(widths[1]!);
  };

  for (const width of [1280, 390]) {
    it(`lists a monitor's Healthchecks, Kuma and Sentry URLs beside its own, each one working (${width} px)`, async () => {
      const context = await browser!.context({ width });
      const page = await browser!.signIn(context, key, `/monitors/${monitorId}`);
      await page.getByText('Healthchecks, Uptime Kuma and Sentry clients').click();
      expect(await text(page, 'url-hc')).to.equal(`${vigil.url}/ping/${monitorId}`);
      expect(await text(page, 'url-hc-slug')).to.equal(`${vigil.url}/ping/${project.ping_key}/nightly-backup`);
      expect(await text(page, 'url-kuma')).to.equal(`${vigil.url}/api/push/${monitorId}?status=up&msg=OK&ping=`);
      const dsn = new URL(await text(page, 'url-sentry-dsn'));
      expect([dsn.username, dsn.host, dsn.pathname]).to.deep.equal([project.ping_key, new URL(vigil.url).host, '/1']);
      expect(await text(page, 'url-sentry-slug')).to.equal('nightly-backup');
      await browser!.accessible(page);
      await noSidewaysScroll(page);
      await page.screenshot({ path: `${SHOTS}/monitor-peer-urls-${width}.png`, fullPage: true });
      // What the page shows is what answers.
      expect((await curl([await text(page, 'url-hc')])).body).to.equal('OK');
      expect(JSON.parse((await curl([await text(page, 'url-kuma')])).body)).to.deep.equal({ ok: true });
      await context.close();
    });

    it(`shows the project's Sentry DSN on its sharing page (${width} px)`, async () => {
      const context = await browser!.context({ width });
      const page = await browser!.signIn(context, key, `/projects/${project.id}/sharing`);
      expect(await text(page, 'sentry-dsn')).to.equal(`http://${project.ping_key}@${new URL(vigil.url).host}/1`);
      await page.screenshot({ path: `${SHOTS}/sharing-sentry-dsn-${width}.png`, fullPage: true });
      await browser!.accessible(page);
      // The badges panel above has a long shields.io URL in a hint that overflows at 390 px
      // (the console's own, issue 33's); this panel must not add to it.
      const panel = await page.locator('section:has(#peer-clients)').evaluate((el) => {
        const section = el as unknown as { scrollWidth: number; clientWidth: number; getBoundingClientRect(): { right: number } };
        return { right: section.getBoundingClientRect().right, overflow: section.scrollWidth - section.clientWidth };
      });
      expect(panel.right).to.be.at.most(width);
      expect(panel.overflow, 'nothing in the panel overflows it').to.equal(0);
      await context.close();
    });
  }

  it('asked nothing of any host but the server itself', () => {
    expect(browser!.elsewhere()).to.deep.equal([]);
  });
});
