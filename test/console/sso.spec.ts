import { mkdirSync } from 'node:fs';
import { expect } from 'chai';
import { ConsoleBrowser } from '../support/console-browser.js';
import { OpenIdProvider } from '../support/openid-provider.js';
import { issueInvitation } from '../../src/app/invitations.js';
import { TestVigil } from '../support/test-vigil.js';

const SHOTS = '/tmp/shots-sso';

describe('Console › single sign-on (a real OpenID Provider)', function () {
  this.timeout(120_000);
  let op: OpenIdProvider;
  let vigil: TestVigil;
  let browser: ConsoleBrowser;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    op = await OpenIdProvider.start([
      { login: 'ada', email: 'ada@example.com', emailVerified: true, givenName: 'Ada', familyName: 'Lovelace' },
      { login: 'eve', email: 'eve@example.com', emailVerified: false },
      { login: 'mal', email: 'mal@elsewhere.org', emailVerified: true },
      { login: 'grace', email: 'grace@example.com', emailVerified: true, givenName: 'Grace' },
    ]);
    vigil = await TestVigil.start({ env: op.env({ VIGIL_OIDC_ALLOWED_DOMAINS: 'example.com' }) });
    await op.registerVigil(vigil.url);
    browser = await ConsoleBrowser.launch(vigil.url, 'sso');
  });
  after(async () => {
    await browser?.close();
    await vigil?.stop();
    await op?.stop();
  });

  async function signInAt(login: string) {
    const context = await browser.context();
    const page = await context.newPage();
    await page.goto(`${vigil.url}/sign-in`);
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await page.waitForURL((url) => url.origin === op.issuer);
    await page.locator('input[name=login]').fill(login);
    await page.locator('input[name=password]').fill('any');
    await page.locator('button[type=submit]').click();
    await page.waitForURL((url) => url.origin === vigil.url);
    await page.waitForLoadState('load');
    return { context, page };
  }

  it('offers "Sign in with Acme ID" on the sign-in page, accessible at 390 and 1280 px', async () => {
    for (const width of [390, 1280]) {
      const context = await browser.context({ width });
      const page = await context.newPage();
      await page.goto(`${vigil.url}/sign-in`);
      expect(await page.getByRole('link', { name: 'Sign in with Acme ID' }).count()).to.equal(1);
      await browser.accessible(page);
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).to.equal(true);
      await page.screenshot({ path: `${SHOTS}/sign-in-${width}.png`, fullPage: true });
      await context.close();
    }
  });

  it('signs a person in for the first time, creating their account, and shows them no project until invited; then signs them out', async () => {
    const { context, page } = await signInAt('ada');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText('You are not a member of any project yet').waitFor({ timeout: 20_000 });
    expect(await page.content()).to.include('ada@example.com');
    await page.screenshot({ path: `${SHOTS}/first-sign-in-1280.png`, fullPage: true });
    const events = await vigil.commands.events.readAll();
    expect(events.map((e) => e.type)).to.include.members(['UserRegistered', 'OidcSubjectLinked', 'UserSignedIn']);
    expect(events.find((e) => e.type === 'UserSignedIn')?.data).to.include({ method: 'oidc', client_address: '127.0.0.1' });
    expect(JSON.stringify(events)).to.not.include(op.clientSecret);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in\?ended=signed-out/);
    await page.goto(`${vigil.url}/`);
    await page.waitForURL(/\/sign-in/);
    await context.close();
  });

  it('refuses an email the provider has not verified, with a page and a way back', async () => {
    const { context, page } = await signInAt('eve');
    await page.getByRole('heading', { name: 'Your email is not verified' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to sign in' }).count()).to.equal(1);
    await browser.accessible(page);
    await page.screenshot({ path: `${SHOTS}/unverified-1280.png`, fullPage: true });
    await context.close();
  });

  it('refuses an email outside the allowed domains', async () => {
    const { context, page } = await signInAt('mal');
    await page.getByRole('heading', { name: 'This email cannot sign in here' }).waitFor();
    expect(await page.textContent('main')).to.include('mal@elsewhere.org');
    await context.close();
  });

  it('refuses a callback with a forged state as a page, never JSON or a 500', async () => {
    const context = await browser.context({ width: 390 });
    const page = await context.newPage();
    await page.goto(`${vigil.url}/sign-in`);
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await page.waitForURL((url) => url.origin === op.issuer);
    const response = await page.goto(`${vigil.url}/sign-in/oidc/callback?${new URLSearchParams({ code: "forged", state: "forged", iss: op.issuer })}`);
    expect(response?.status()).to.equal(400);
    expect(response?.headers()['content-type']).to.match(/text\/html/);
    await page.getByRole('heading', { name: 'This sign-in could not be finished' }).waitFor();
    await browser.accessible(page);
    await page.screenshot({ path: `${SHOTS}/forged-state-390.png`, fullPage: true });
    await context.close();
  });

  it('accepts an invitation through single sign-on: the invited person signs in with the provider and joins the project', async () => {
    const owner = await vigil.user('owner@example.com');
    const projectId = await vigil.project(owner, 'Payments');
    const { token } = await issueInvitation(vigil.commands, { project_id: projectId, email: 'grace@example.com', role: 'MEMBER', invited_by: owner }, { kind: 'system', user_id: owner, api_key_id: null, request_id: null });
    await vigil.settle();
    const context = await browser.context();
    const page = await context.newPage();
    await page.goto(`${vigil.url}/sign-in?next=${encodeURIComponent(`/invitations/${token}`)}`);
    await page.getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await page.waitForURL((url) => url.origin === op.issuer);
    await page.locator('input[name=login]').fill('grace');
    await page.locator('input[name=password]').fill('any');
    await page.locator('button[type=submit]').click();
    await page.waitForURL((url) => url.pathname === `/invitations/${token}`);
    await page.getByRole('button', { name: /Join Payments/ }).click();
    await page.waitForURL((url) => url.pathname.startsWith(`/projects/${projectId}`));
    expect(await page.textContent('main')).to.include('Payments');
    await page.screenshot({ path: `${SHOTS}/invitation-joined-1280.png`, fullPage: true });
    await context.close();
  });
});
