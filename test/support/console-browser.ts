import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect } from 'chai';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';

/**
 * A headless Chromium for console specs: every URL a page asks for is kept (to check all go to
 * the server itself), pages are checked with axe, and screenshots go under test-artifacts/.
 */
export class ConsoleBrowser {
  readonly requested: string[] = [];
  readonly dialogs: string[] = [];
  private readonly axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

  private constructor(
    private readonly browser: Browser,
    private readonly server: string,
    private readonly artifacts: string,
  ) {}

  static async launch(server: string, artifacts: string): Promise<ConsoleBrowser> {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
    return new ConsoleBrowser(browser, server, path.resolve('test-artifacts', artifacts));
  }

  /** A fresh context (no session yet), `width` px wide, with scripts on unless `javaScriptEnabled` is false. */
  async context(options: { width?: number; javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
    const context = await this.browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, javaScriptEnabled: options.javaScriptEnabled ?? true });
    context.on('request', (request) => this.requested.push(request.url()));
    context.on('page', (page) => page.on('dialog', (dialog) => {
      this.dialogs.push(dialog.message());
      void dialog.dismiss();
    }));
    return context;
  }

  /** Signs in with `key` on a new page of `context`, starting at `start`. */
  async signIn(context: BrowserContext, key: string, start = '/'): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${this.server}${start}`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in with the key' }).click();
    await page.waitForURL((url) => url.pathname !== '/sign-in');
    return page;
  }

  /** Signs in with an email and password on a new page of `context`, starting at `start`. */
  async signInWithPassword(context: BrowserContext, email: string, password: string, start = '/'): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${this.server}${start}`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
    return page;
  }

  async shoot(page: Page, name: string, fullPage = true): Promise<void> {
    mkdirSync(this.artifacts, { recursive: true });
    await page.screenshot({ path: path.join(this.artifacts, `${name}.png`), fullPage });
  }

  /** No serious or critical axe violation on the page. */
  async accessible(page: Page): Promise<void> {
    // Evaluated through the devtools protocol, which the page's CSP does not govern.
    await page.evaluate(this.axe);
    const violations = await page.evaluate(async () => {
      type Violation = { id: string; impact: string; help: string; nodes: { target: string[] }[] };
      const run = (globalThis as unknown as { axe: { run: () => Promise<{ violations: Violation[] }> } }).axe.run;
      // Each with the elements it found, so a failure says where to look.
      return (await run()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
    });
    expect(violations, page.url()).to.deep.equal([]);
  }

  /** The URLs asked for that were not the server's own. */
  elsewhere(): string[] {
    return this.requested.filter((url) => !url.startsWith(`${this.server}/`));
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}
